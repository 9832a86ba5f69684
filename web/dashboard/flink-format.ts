/**
 * How the Flink dashboard prints values: byte sizes in binary units, durations as "53ms",
 * "1s 250ms", "2m 5s", and "n/a" for Flink's "not known yet" (-1). Times are the playground's
 * virtual clock (ms since the job started), printed as m:ss.SSS.
 */
import { formatVirtualTime } from '../virtual-time.ts';

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

export const NOT_AVAILABLE = 'n/a';

/** 0 → "0 B", 1536 → "1.50 KB", 801730 → "783 KB", 1289330 → "1.23 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return NOT_AVAILABLE;
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** 53 → "53ms", 1000 → "1s", 1250 → "1s 250ms", 125000 → "2m 5s", 3723000 → "1h 2m"; negative (Flink's -1) → "n/a". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return NOT_AVAILABLE;
  const whole = Math.round(ms);
  if (whole < 1000) return `${whole}ms`;
  const seconds = Math.floor(whole / 1000);
  if (seconds < 60) return joined(`${seconds}s`, whole % 1000, 'ms');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return joined(`${minutes}m`, seconds % 60, 's');
  return joined(`${Math.floor(minutes / 60)}h`, minutes % 60, 'm');
}

/** "1s" rather than "1s 0ms". */
function joined(head: string, rest: number, unit: string): string {
  return rest === 0 ? head : `${head} ${rest}${unit}`;
}

/**
 * From here on a timestamp is Flink's (ms since 1970, as an imported job's documents carry them):
 * the playground's virtual clock starts at 0 and would take three years to get here.
 */
const EPOCH_TIMESTAMPS_FROM_MS = 1e11;

/**
 * A timestamp of the virtual clock, or an imported job's wall-clock time in UTC
 * ("2019-12-27 01:12:49.695"); Flink's -1 (no acknowledgement yet) → "n/a".
 */
export function formatTimestamp(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return NOT_AVAILABLE;
  if (ms >= EPOCH_TIMESTAMPS_FROM_MS) return new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
  return formatVirtualTime(ms);
}

/** "Processed (persisted) in-flight data": both sizes in one cell, as Flink's dashboard writes them. */
export function formatInFlight(processed: number, persisted: number): string {
  return `${formatBytes(processed)} (${formatBytes(persisted)})`;
}

/** A Jackson double: a number, or "NaN" when there were no values yet. */
export function formatStatDuration(value: number | string): string {
  return typeof value === 'number' ? formatDuration(value) : NOT_AVAILABLE;
}

export function formatStatBytes(value: number | string): string {
  return typeof value === 'number' ? formatBytes(value) : NOT_AVAILABLE;
}

/** Short seconds for axis ticks: 0 → "0s", 1500 → "1.5s", 90000 → "1m 30s". */
export function formatAxisTime(ms: number): string {
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1))}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes}m` : `${minutes}m ${seconds}s`;
}
