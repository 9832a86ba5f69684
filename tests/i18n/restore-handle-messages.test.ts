/**
 * The per-handle lines of a restore in the inspector (restoreHandleText): every handle kind and
 * source has a message in every locale, Flink's class names kept, and a remote handle says why.
 */
import { describe, expect, it } from 'vitest';
import type { SubtaskRestore } from '../../engine/run/job-events.ts';
import { restoreRow } from '../../web/dashboard/restore-rows.ts';
import type { Translate } from '../../web/i18n/fault-text.ts';
import { locales, type Locale, type MessageKey } from '../../web/i18n/messages.ts';
import { restoreHandleClass, restoreHandleDurationText, restoreHandleText, restoreHandleTextAround } from '../../web/i18n/restore-text.ts';

function translator(locale: Locale): Translate {
  const messages = locales[locale].messages;
  return (key: MessageKey, params = {}) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

const KiB = 1024;
const mixed: SubtaskRestore = {
  vertexId: 'count',
  subtaskIndex: 0,
  source: 'remote',
  reason: 'partial',
  bytes: 512 * KiB,
  remoteBytes: 256 * KiB,
  durationMs: 12,
  handles: [
    { kind: 'key-groups', keyGroupRange: { start: 0, end: 31 }, bytes: 256 * KiB, source: 'local' },
    { kind: 'key-groups', keyGroupRange: { start: 32, end: 63 }, bytes: 256 * KiB, source: 'remote', reason: 'partial' },
    { kind: 'operator', bytes: 0, source: 'remote', reason: 'partial' },
  ],
};

describe('restore handle lines in the UI languages', () => {
  it('names each handle by its Flink class, its key groups, where it came from and why not local', () => {
    const lines = restoreRow(mixed).handles!.map((h) => restoreHandleText(h, translator('en')));
    expect(lines).toEqual([
      'KeyGroupsStateHandle, key groups 0–31: local, 256 KB',
      'KeyGroupsStateHandle, key groups 32–63: remote, 256 KB (the local copy was only partly written)',
      'OperatorStateHandle: remote, 0 B (the local copy was only partly written)',
    ]);
  });

  it('says the same in Chinese, keeping the Flink names', () => {
    const [local, remote] = restoreRow(mixed).handles!.map((h) => restoreHandleText(h, translator('zh-CN')));
    expect(local).toBe('KeyGroupsStateHandle，key group 0–31：本地，256 KB');
    expect(remote).toContain('远程');
    expect(remote).toContain('本地副本只写了一部分');
  });

  it('says how long a timed handle’s read took, in English and Chinese', () => {
    const timed: SubtaskRestore = { ...mixed, handles: [{ ...mixed.handles![0]!, durationMs: 12 }, { ...mixed.handles![1]!, durationMs: 340 }] };
    const [local, remote] = restoreRow(timed).handles!;
    expect(restoreHandleText(local!, translator('en'))).toBe('KeyGroupsStateHandle, key groups 0–31: local, 256 KB in 12ms');
    expect(restoreHandleText(remote!, translator('en'))).toBe('KeyGroupsStateHandle, key groups 32–63: remote, 256 KB in 340ms (the local copy was only partly written)');
    expect(restoreHandleText(local!, translator('zh-CN'))).toBe('KeyGroupsStateHandle，key group 0–31：本地，256 KB，读取耗时 12ms');
    expect(restoreHandleDurationText(remote!)).toBe('340ms');
  });

  it('has every handle kind and source in every locale', () => {
    const keys = ['key-groups', 'incremental', 'operator', 'input-channel', 'result-subpartition'].map((k) => `restore.handle.kind.${k}`);
    keys.push(...['local', 'remote', 'failed'].map((s) => `restore.handle.source.${s}`));
    for (const locale of Object.keys(locales) as Locale[]) for (const key of keys) expect(locales[locale].messages[key as MessageKey], `${locale} ${key}`).toMatch(/\S/);
  });

  it('gives no handle list for a record that does not name handles (older traces)', () => {
    const { handles: _handles, ...old } = mixed;
    expect(restoreRow(old).handles).toBeUndefined();
  });

  it.each(['en', 'zh-CN'] as const)('splits the %s line around the Flink class, which the page shows with its explanation', (locale) => {
    const translate = translator(locale);
    for (const handle of restoreRow(mixed).handles!) {
      const { before, after } = restoreHandleTextAround(handle, translate);
      expect(before + restoreHandleClass(handle, translate) + after).toBe(restoreHandleText(handle, translate));
      expect(after).not.toContain(restoreHandleClass(handle, translate));
    }
    expect(restoreHandleTextAround(restoreRow(mixed).handles![0]!, translate).before).toBe('');
  });
});
