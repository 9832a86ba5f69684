/**
 * The capacity planner's form problems in both languages: each names its field by the label the
 * form shows, says what is wrong and what is allowed, and a Flink parser's message (duration or
 * memory-size syntax) comes out in Chinese on the Chinese page.
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLE_CAPACITY_FORM, readCapacityQuestion, type CapacityFieldError, type CapacityForm } from '../../engine/scale/capacity-question.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { capacityFieldErrorText } from '../../web/planner/capacity-field-error-text.ts';

const broken: Partial<CapacityForm> = {
  ratePerS: 'fast',
  recordCost: 'slow',
  stateSize: '100 gigs',
  stateGrowthPerS: '-1 mb',
  stateChurnPerS: '',
  checkpointInterval: '5 ms',
  remoteBandwidthMbPerS: '0',
  remoteStoreBandwidthMbPerS: '1.5.3',
  recoveryObjective: '3 h',
  parallelisms: '10, ten',
};

function errorsOf(form: Partial<CapacityForm>): CapacityFieldError[] {
  const read = readCapacityQuestion({ ...EXAMPLE_CAPACITY_FORM, ...form });
  if (read.ok) throw new Error('the broken form was read');
  return read.errors;
}

describe('the capacity planner’s form problems', () => {
  const errors = errorsOf(broken);

  it('finds a problem in every broken field', () => {
    expect(errors.map((e) => e.field).sort()).toEqual(Object.keys(broken).sort());
  });

  for (const [locale, messages] of [['en', en], ['zh-CN', zhCN]] as const) {
    it(`names the field and what it allows in ${locale}`, () => {
      for (const error of errors) {
        const text = capacityFieldErrorText(error, locale);
        expect(text).toContain(messages[`planner.field.${error.field}`]);
        expect(text).toContain(messages[`planner.allowed.${error.field}`]);
        expect(text).not.toContain('{');
      }
    });
  }

  it('words the duration and memory-size parsers’ messages in Chinese', () => {
    const unreadable = errors.filter((e) => e.problem === 'unreadable');
    expect(unreadable.length).toBeGreaterThanOrEqual(3);
    for (const e of unreadable) expect(capacityFieldErrorText(e, 'zh-CN'), e.parserMessage).not.toContain(e.parserMessage);
  });

  it('quotes the bound or the bad item it found', () => {
    const text = errors.map((e) => capacityFieldErrorText(e, 'zh-CN')).join('\n');
    expect(text).toContain('10 ms');
    expect(text).toContain('1 h');
    expect(text).toContain('ten');
  });
});
