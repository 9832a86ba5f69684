import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../web/i18n/message-format.ts';
import { locales } from '../../web/i18n/messages.ts';

describe('message templates', () => {
  it.each([
    { n: 0, want: 'live · 0 workers' },
    { n: 1, want: 'live · 1 worker' },
    { n: 2, want: 'live · 2 workers' },
    { n: 21, want: 'live · 21 workers' },
  ])('picks the English plural form for $n by Intl.PluralRules', ({ n, want }) => {
    expect(formatMessage(locales.en.messages['status.driverLive'], { n }, 'en')).toBe(want);
  });

  it('prefers an exact branch, keeps # as the number, and fills plain parameters too', () => {
    const template = '{n, plural, =0 {no runs} one {# run} other {# runs}} in {dir}';
    expect(formatMessage(template, { n: 0, dir: 'a' }, 'en')).toBe('no runs in a');
    expect(formatMessage(template, { n: 1, dir: 'b' }, 'en')).toBe('1 run in b');
    expect(formatMessage(template, { n: 3, dir: 'c' }, 'en')).toBe('3 runs in c');
  });

  it('leaves a template alone when the parameter is missing or not a number', () => {
    const template = '{n, plural, one {# step} other {# steps}}';
    expect(formatMessage(template, {}, 'en')).toBe(template);
    expect(formatMessage(template, { n: '2' }, 'en')).toBe(template);
  });

  it('writes Chinese counts without plural branches', () => {
    expect(formatMessage(locales['zh-CN'].messages['status.driverLive'], { n: 1 }, 'zh-CN')).toBe('live · 1 个 Worker');
    expect(formatMessage(locales['zh-CN'].messages['lessons.steps'], { n: 1 }, 'zh-CN')).not.toMatch(/plural/);
  });

  it('has no English message that puts a bare count before a plural noun', () => {
    // "{n} workers", "{n} steps": a count must go through a plural branch so that 1 reads right
    const bare = Object.entries(locales.en.messages).filter(([, text]) => /\{n\} (workers|steps|restores|completed checkpoints|SST runs)\b/.test(text));
    expect(bare.map(([key]) => key)).toEqual([]);
  });
});
