/**
 * A restore row (web/dashboard/restore-rows.ts) in the reader's language: its source, what it
 * read, how long it took and why it did not read a local copy, through the `restore.*` messages
 * (messages-restore.ts). Sizes and durations as the dashboard prints them (flink-format.ts).
 */
import { formatBytes, formatDuration } from '../dashboard/flink-format.ts';
import type { RestoreRow } from '../dashboard/restore-rows.ts';
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
