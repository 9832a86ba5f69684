/**
 * The restore rows in the reader's language (web/i18n/restore-text.ts): every reason a row can
 * give has a message in every locale, the Chinese one is Chinese (Flink's names kept), and sizes
 * and durations are printed as the dashboard prints them.
 */
import { describe, expect, it } from 'vitest';
import type { SubtaskRestore } from '../../engine/run/job-events.ts';
import { FALLBACK_REASONS, restoreRow, type RestoreReason } from '../../web/dashboard/restore-rows.ts';
import type { Translate } from '../../web/i18n/fault-text.ts';
import { locales, type Locale, type MessageKey } from '../../web/i18n/messages.ts';
import { restoreDurationText, restoreReadText, restoreReasonText, restoreSourceText } from '../../web/i18n/restore-text.ts';

function translator(locale: Locale): Translate {
  const messages = locales[locale].messages;
  return (key: MessageKey, params = {}) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

const REASONS: RestoreReason[] = [...FALLBACK_REASONS, 'stateless', 'not-keyed', 'unknown'];

/** English that may stay in Chinese text: Flink's names and option keys. */
const KEPT_IN_ENGLISH = /Checkpoint|slot|key group|keyed state|rescale|execution\.state-recovery\.from-local/g;

const remote = (over: Partial<SubtaskRestore> = {}): SubtaskRestore => ({
  vertexId: 'count',
  subtaskIndex: 1,
  source: 'remote',
  reason: 'corrupt',
  bytes: 1_258_291,
  remoteBytes: 1_258_291,
  durationMs: 340,
  ...over,
});

describe('restore rows in the UI languages', () => {
  it('has a message for every reason in every locale', () => {
    for (const reason of REASONS) {
      const key = `restore.reason.${reason}` as MessageKey;
      for (const locale of Object.keys(locales) as Locale[]) expect(locales[locale].messages[key], `${locale} ${key}`).toMatch(/\S/);
    }
  });

  it('says every reason in Chinese, other than Flink’s own names', () => {
    for (const reason of REASONS.filter((r) => r !== 'unknown')) {
      const text = locales['zh-CN'].messages[`restore.reason.${reason}`];
      expect(text, reason).toMatch(/[\u4e00-\u9fff]/);
      expect(text.replace(KEPT_IN_ENGLISH, ''), reason).not.toMatch(/[A-Za-z]{3,}/);
    }
  });

  it('says a remote row with its reason, bytes and duration as the dashboard prints them', () => {
    const row = restoreRow(remote());
    const en = translator('en');
    const zh = translator('zh-CN');
    expect([restoreSourceText(row, en), restoreReasonText(row, en), restoreReadText(row, en), restoreDurationText(row)]).toEqual([
      'remote',
      'the local copy is corrupt (checksum mismatch)',
      '1.20 MB',
      '340ms',
    ]);
    expect([restoreSourceText(row, zh), restoreReasonText(row, zh)]).toEqual(['远程', '本地副本已损坏（校验和不符）']);
    expect(restoreReasonText(restoreRow(remote({ reason: 'missing' })), zh)).toBe('本地没有该 Checkpoint 的副本');
    expect(restoreReasonText(restoreRow(remote({ reason: 'different-slot' })), zh)).toBe('重启到了另一个 slot');
    expect(restoreReasonText(restoreRow(remote({ reason: 'local-recovery-disabled' })), zh)).toBe('未开启本地恢复（execution.state-recovery.from-local）');
  });

  it('says a local row with no reason, and its remote part when it fetched some', () => {
    const en = translator('en');
    const local = restoreRow(remote({ source: 'local', reason: undefined, remoteBytes: 0, durationMs: 1.2 }));
    expect([restoreSourceText(local, en), restoreReasonText(local, en), restoreReadText(local, en), restoreDurationText(local)]).toEqual(['local', undefined, '1.20 MB', '1ms']);
    const mixed = restoreRow(remote({ source: 'local', reason: undefined, remoteBytes: 12_288 }));
    expect(restoreReadText(mixed, en)).toBe('1.20 MB (12.0 KB of it remote)');
    expect(restoreReadText(mixed, translator('zh-CN'))).toBe('1.20 MB（其中 12.0 KB 来自远程存储）');
  });

  it('says a stateless subtask has nothing to restore, and an unknown reason verbatim', () => {
    const stateless = restoreRow(remote({ vertexId: 'words', reason: 'missing', bytes: 0, remoteBytes: 0, durationMs: 0 }));
    expect(restoreReasonText(stateless, translator('en'))).toBe('stateless: nothing to restore');
    expect(restoreReasonText(stateless, translator('zh-CN'))).toBe('无状态：没有需要恢复的内容');
    expect(restoreReasonText(restoreRow(remote({ reason: 'moon-phase' })), translator('zh-CN'))).toBe('moon-phase');
  });
});
