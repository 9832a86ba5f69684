/**
 * Flink's duration syntax, as `org.apache.flink.util.TimeUtils.parseDuration` reads it: a whole
 * number, optional whitespace, then an optional unit label (case-insensitive). No unit means
 * milliseconds. A plain JSON/YAML number is milliseconds too, because Flink reads a number in its
 * YAML config as the string of its digits.
 *
 * The result is in milliseconds, fractional for µs and ns. Flink itself rejects fractions and
 * negative numbers ("1.5 s", "-1 s"); so do we, but with a message that says what to write instead.
 */

import { quote } from './value-description.ts';

export type DurationResult =
  | { ok: true; ms: number }
  | { ok: false; message: string; allowed: string };

interface TimeUnit {
  /** Flink's first label, used when printing */
  label: string;
  labels: readonly string[];
  /** ms = value * factor / divisor; kept apart so that µs and ns divide exactly once */
  factor: number;
  divisor: number;
}

/**
 * Flink's `TimeUtils.TimeUnit` labels. `us` (ASCII for µs) is the playground's addition, because
 * `µ` is awkward to type; Flink itself only knows `µs`.
 */
const TIME_UNITS: readonly TimeUnit[] = [
  { label: 'd', labels: ['d', 'day', 'days'], factor: 86_400_000, divisor: 1 },
  { label: 'h', labels: ['h', 'hour', 'hours'], factor: 3_600_000, divisor: 1 },
  { label: 'min', labels: ['min', 'm', 'minute', 'minutes'], factor: 60_000, divisor: 1 },
  { label: 's', labels: ['s', 'sec', 'secs', 'second', 'seconds'], factor: 1000, divisor: 1 },
  {
    label: 'ms',
    labels: ['ms', 'milli', 'millis', 'millisecond', 'milliseconds'],
    factor: 1,
    divisor: 1,
  },
  {
    label: 'µs',
    labels: ['µs', 'us', 'micro', 'micros', 'microsecond', 'microseconds'],
    factor: 1,
    divisor: 1000,
  },
  {
    label: 'ns',
    labels: ['ns', 'nano', 'nanos', 'nanosecond', 'nanoseconds'],
    factor: 1,
    divisor: 1_000_000,
  },
];

/** Every unit label the parser accepts (lower case). */
export const DURATION_UNIT_LABELS: readonly string[] = TIME_UNITS.flatMap((u) => u.labels);

/** How a duration is written, for "allowed" texts: `a duration of at least 10 ms, ${DURATION_SYNTAX}`. */
export const DURATION_SYNTAX =
  'such as 500 ms, 10 s or 1 min (a whole number and a unit: ns, µs/us, ms, s, min/m, h, d; no unit = ms)';

export const DURATION_ALLOWED = `a duration ${DURATION_SYNTAX}`;

function fail(message: string): DurationResult {
  return { ok: false, message, allowed: DURATION_ALLOWED };
}

function unitFor(label: string): TimeUnit | undefined {
  return TIME_UNITS.find((u) => u.labels.includes(label));
}

/** Parses a duration given as Flink text or as a number of milliseconds. */
export function parseDuration(input: string | number): DurationResult {
  return typeof input === 'number' ? fromMilliseconds(input) : fromText(input);
}

function fromMilliseconds(value: number): DurationResult {
  if (!Number.isFinite(value)) return fail(`${value} is not a finite duration`);
  if (value < 0) return fail(`durations cannot be negative (got ${value})`);
  if (!Number.isInteger(value)) {
    return fail(`a number is read as whole milliseconds; write "${formatDuration(value)}" instead of ${value}`);
  }
  if (value > Number.MAX_SAFE_INTEGER) return fail(`${value} ms is too large`);
  return { ok: true, ms: value };
}

function fromText(text: string): DurationResult {
  const trimmed = text.trim();
  if (trimmed === '') return fail('empty duration');
  const digits = /^[0-9]*/.exec(trimmed)?.[0] ?? '';
  const unitLabel = trimmed.slice(digits.length).trim().toLowerCase();
  if (digits === '') return fail(/^\.[0-9]/.test(trimmed) ? fractionMessage(trimmed) : notANumberMessage(trimmed));
  if (/^\.[0-9]/.test(unitLabel)) return fail(fractionMessage(trimmed));
  const unit = unitLabel === '' ? unitFor('ms') : unitFor(unitLabel);
  if (unit === undefined) return fail(`unknown time unit ${quote(unitLabel)} in ${quote(trimmed)}`);
  return scaled(Number(digits), unit, trimmed);
}

function scaled(value: number, unit: TimeUnit, text: string): DurationResult {
  const ms = (value * unit.factor) / unit.divisor;
  if (!Number.isSafeInteger(value) || ms > Number.MAX_SAFE_INTEGER) {
    return fail(`${quote(text)} is too large`);
  }
  return { ok: true, ms };
}

function notANumberMessage(text: string): string {
  if (text.startsWith('-')) return `durations cannot be negative (got ${quote(text)})`;
  return `${quote(text)} does not start with a number`;
}

/** Flink only reads whole numbers; say which smaller unit expresses the same time. */
function fractionMessage(text: string): string {
  const match = /^([0-9]*\.[0-9]+)\s*(.*)$/.exec(text);
  const unit = match ? unitFor((match[2] ?? '').toLowerCase() || 'ms') : undefined;
  if (!match || !unit) return `${quote(text)} is not a whole number; Flink durations are whole numbers`;
  const ms = Math.round((Number(match[1]) * unit.factor * 1_000_000) / unit.divisor) / 1_000_000;
  return `${quote(text)} is not a whole number; Flink durations are whole numbers, write "${formatDuration(ms)}"`;
}

/**
 * Prints a duration the way Flink's `TimeUtils.formatWithHighestUnit` does: in the largest unit
 * that divides it exactly ("10 s", "500 ms", "1 min", "90 s", "0 ms").
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return ms > 0 ? '∞' : '-∞';
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (Number.isInteger(ms)) return formatWholeMilliseconds(ms);
  const nanos = Math.round(ms * 1_000_000);
  if (nanos % 1_000_000 === 0) return formatWholeMilliseconds(nanos / 1_000_000);
  return nanos % 1000 === 0 ? `${nanos / 1000} µs` : `${nanos} ns`;
}

function formatWholeMilliseconds(ms: number): string {
  if (ms === 0) return '0 ms';
  const unit = TIME_UNITS.find((u) => u.divisor === 1 && ms % u.factor === 0);
  return unit ? `${ms / unit.factor} ${unit.label}` : `${ms} ms`;
}
