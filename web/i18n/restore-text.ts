/**
 * A restore row (web/dashboard/restore-rows.ts) in the reader's language: its source, what it
 * read, how long it took and why it did not read a local copy, through the `restore.*` messages
 * (messages-restore.ts). Sizes and durations as the dashboard prints them (flink-format.ts).
 */
import { formatBytes, formatDuration } from '../dashboard/flink-format.ts';
import type { HandleRow, RestoreRow } from '../dashboard/restore-rows.ts';
import type { Translate } from './fault-text.ts';

export function restoreSourceText(row: RestoreRow, translate: Translate): string {
  return translate(row.source === 'local' ? 'restore.source.local' : 'restore.source.remote');
}

/** "1.23 MB", or "1.23 MB (12.0 KB of it remote)" when only part of it came from remote storage. */
export function restoreReadText(row: RestoreRow, translate: Translate): string {
  const bytes = formatBytes(row.bytes);
  return row.showRemoteBytes ? translate('restore.read.withRemote', { bytes, remote: formatBytes(row.remoteBytes) }) : bytes;
}

export function restoreDurationText(row: RestoreRow): string {
  return formatDuration(row.durationMs);
}

/** Why the row is not a plain local restore; undefined for one (nothing to explain). */
export function restoreReasonText(row: RestoreRow, translate: Translate): string | undefined {
  if (row.reason === null) return undefined;
  return translate(`restore.reason.${row.reason}`, { reason: row.rawReason ?? '' });
}

/**
 * One state handle of a restore: "KeyGroupsStateHandle, key groups 0–15: local, 256 KB" (and "in
 * 12ms" when the record timed its read), with why not local after it for a remote or failed one.
 */
export function restoreHandleText(handle: HandleRow, translate: Translate, kind = restoreHandleClass(handle, translate)): string {
  const params = { handle: restoreHandleName(handle, translate, kind), source: restoreHandleSourceText(handle, translate), bytes: formatBytes(handle.bytes) };
  const line = handle.durationMs === undefined ? translate('restore.handle.line', params) : translate('restore.handle.lineTimed', { ...params, duration: formatDuration(handle.durationMs) });
  const reason = restoreHandleReasonText(handle, translate);
  return reason === undefined ? line : translate('restore.handle.withReason', { line, reason });
}

/** "KeyGroupsStateHandle, key groups 0–15": Flink's class name, and its key groups for a keyed handle. */
export function restoreHandleName(handle: HandleRow, translate: Translate, kind = restoreHandleClass(handle, translate)): string {
  return handle.keyGroups === undefined ? kind : translate('restore.handle.keyGroups', { kind, keyGroups: handle.keyGroups });
}

export function restoreHandleSourceText(handle: HandleRow, translate: Translate): string {
  return translate(`restore.handle.source.${handle.source}`);
}

/** How long the handle's read took; empty when the record does not say. */
export function restoreHandleDurationText(handle: HandleRow): string {
  return handle.durationMs === undefined ? '' : formatDuration(handle.durationMs);
}

/** Why the handle did not come from the local copy; undefined for a local one. */
export function restoreHandleReasonText(handle: HandleRow, translate: Translate): string | undefined {
  return handle.reason === null ? undefined : translate(`restore.reason.${handle.reason}`, { reason: '' });
}

/** The handle's Flink class (KeyGroupsStateHandle), the same in every locale. */
export function restoreHandleClass(handle: HandleRow, translate: Translate): string {
  return translate(`restore.handle.kind.${handle.kind}`);
}

/**
 * The handle's line split around its Flink class, so the page can show the class as one of
 * Flink's names (with its explanation, FlinkName.svelte) inside the sentence of the reader's language.
 */
export function restoreHandleTextAround(handle: HandleRow, translate: Translate): { before: string; after: string } {
  const mark = '\u{F8FF}'; // a private-use character: no message or figure contains it
  const [before = '', after = ''] = restoreHandleText(handle, translate, mark).split(mark);
  return { before, after };
}
