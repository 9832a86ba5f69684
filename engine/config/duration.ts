/**
 * Flink's duration syntax, as `org.apache.flink.util.TimeUtils.parseDuration` reads it: a whole
 * number, optional whitespace, then an optional unit label (case-insensitive). No unit means
 * milliseconds. A plain JSON/YAML number is milliseconds too, because Flink reads a number in its
 * YAML config as the string of its digits.
 *
 * The result is in milliseconds, fractional for µs and ns. Flink itself rejects fractions and
 * negative numbers ("1.5 s", "-1 s"); so do we, but with a message that says what to write instead.
 */

import { message, renderEnglish } from '../messages/engine-message.ts';
import { DURATION_SYNTAX } from '../messages/english-messages.ts';
import type { EngineMessage } from '../messages/message-codes.ts';
import { quote } from './value-description.ts';

export { DURATION_SYNTAX };

export type DurationResult =
  | { ok: true; ms: number }
  | { ok: false; problem: EngineMessage; /** English renderings of `problem` and of what is allowed */ message: string; allowed: string };

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

export const DURATION_ALLOWED: EngineMessage = message('allowed.duration', {});

const ALLOWED = renderEnglish(DURATION_ALLOWED);

function fail(problem: EngineMessage): DurationResult {
  return { ok: false, problem, message: renderEnglish(problem), allowed: ALLOWED };
}

function unitFor(label: string): TimeUnit | undefined {
  return TIME_UNITS.find((u) => u.labels.includes(label));
}

/** Parses a duration given as Flink text or as a number of milliseconds. */
export function parseDuration(input: string | number): DurationResult {
  return typeof input === 'number' ? fromMilliseconds(input) : fromText(input);
}

function fromMilliseconds(value: number): DurationResult {
  if (!Number.isFinite(value)) return fail(message('duration.not-finite', { value: String(value) }));
  if (value < 0) return fail(message('duration.negative', { value: String(value) }));
  if (!Number.isInteger(value)) {
    return fail(message('duration.fraction-ms', { good: formatDuration(value), value: String(value) }));
  }
  if (value > Number.MAX_SAFE_INTEGER) return fail(message('duration.too-large-ms', { value: String(value) }));
  return { ok: true, ms: value };
}

function fromText(text: string): DurationResult {
  const trimmed = text.trim();
  if (trimmed === '') return fail(message('duration.empty'));
  const digits = /^[0-9]*/.exec(trimmed)?.[0] ?? '';
  const unitLabel = trimmed.slice(digits.length).trim().toLowerCase();
  if (digits === '') return fail(/^\.[0-9]/.test(trimmed) ? fractionMessage(trimmed) : notANumberMessage(trimmed));
  if (/^\.[0-9]/.test(unitLabel)) return fail(fractionMessage(trimmed));
  const unit = unitLabel === '' ? unitFor('ms') : unitFor(unitLabel);
  if (unit === undefined) return fail(message('duration.unknown-unit', { unit: quote(unitLabel), text: quote(trimmed) }));
  return scaled(Number(digits), unit, trimmed);
}

function scaled(value: number, unit: TimeUnit, text: string): DurationResult {
  const ms = (value * unit.factor) / unit.divisor;
  if (!Number.isSafeInteger(value) || ms > Number.MAX_SAFE_INTEGER) {
    return fail(message('duration.too-large', { text: quote(text) }));
  }
  return { ok: true, ms };
}

function notANumberMessage(text: string): EngineMessage {
  if (text.startsWith('-')) return message('duration.negative', { value: quote(text) });
  return message('duration.no-number', { text: quote(text) });
}

/** Flink only reads whole numbers; say which smaller unit expresses the same time. */
function fractionMessage(text: string): EngineMessage {
  const match = /^([0-9]*\.[0-9]+)\s*(.*)$/.exec(text);
  const unit = match ? unitFor((match[2] ?? '').toLowerCase() || 'ms') : undefined;
  if (!match || !unit) return message('duration.fraction', { text: quote(text) });
  const ms = Math.round((Number(match[1]) * unit.factor * 1_000_000) / unit.divisor) / 1_000_000;
  return message('duration.fraction-write', { text: quote(text), good: formatDuration(ms) });
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
