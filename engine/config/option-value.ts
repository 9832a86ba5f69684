/**
 * Reads one Flink option value the way Flink's `Configuration` converts it: Flink text ("10 s",
 * "64mb", "true", "EXACTLY_ONCE") or a YAML/JSON scalar, into the parsed form the engine uses
 * (ms, bytes, boolean, number, enum spelled as Flink prints it). Then checks Flink's range.
 */

import type { ConfigValue } from '../scenario/scenario-types.ts';
import { message, renderEnglish } from '../messages/engine-message.ts';
import type { Bound, EngineMessage, Phrase } from '../messages/message-codes.ts';
import { formatDuration, parseDuration } from './duration.ts';
import type { FlinkOption, NumericRange } from './flink-options.ts';
import { formatMemorySize, parseMemorySize } from './memory-size.ts';
import { describeValue, quote } from './value-description.ts';

export type OptionValueResult =
  | { ok: true; value: ConfigValue }
  | {
      ok: false;
      problem: EngineMessage;
      allowedMessage: EngineMessage;
      /** English renderings of `problem` and `allowedMessage` */
      message: string;
      allowed: string;
    };

export function parseOptionValue(option: FlinkOption, raw: unknown): OptionValueResult {
  const parsed = parseByType(option, raw);
  if (!parsed.ok || typeof parsed.value !== 'number') return parsed;
  return checkNumber(option, parsed.value);
}

function parseByType(option: FlinkOption, raw: unknown): OptionValueResult {
  if (raw === null || raw === undefined) return fail(option, message('option.no-value'));
  switch (option.type) {
    case 'duration':
      return parseDurationValue(option, raw);
    case 'memory':
      return parseMemoryValue(option, raw);
    case 'integer':
      return parseInteger(option, raw);
    case 'double':
      return parseDouble(option, raw);
    case 'boolean':
      return parseBoolean(option, raw);
    case 'enum':
      return parseEnum(option, raw);
    case 'string':
      return parseString(option, raw);
  }
}

function fail(option: FlinkOption, problem: EngineMessage): OptionValueResult {
  const allowedMessage = allowedFor(option);
  return { ok: false, problem, allowedMessage, message: renderEnglish(problem), allowed: renderEnglish(allowedMessage) };
}

function wrongType(option: FlinkOption, raw: unknown): OptionValueResult {
  return fail(option, message('field.expected', { expected: message('phrase', { text: typeNoun(option) }), got: describeValue(raw) }));
}

function parseDurationValue(option: FlinkOption, raw: unknown): OptionValueResult {
  if (typeof raw !== 'string' && typeof raw !== 'number') return wrongType(option, raw);
  const result = parseDuration(raw);
  return result.ok ? { ok: true, value: result.ms } : fail(option, result.problem);
}

function parseMemoryValue(option: FlinkOption, raw: unknown): OptionValueResult {
  if (typeof raw !== 'string' && typeof raw !== 'number') return wrongType(option, raw);
  const result = parseMemorySize(raw);
  return result.ok ? { ok: true, value: result.bytes } : fail(option, result.problem);
}

function parseInteger(option: FlinkOption, raw: unknown): OptionValueResult {
  const value = typeof raw === 'string' && /^\s*[+-]?[0-9]+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) return wrongType(option, raw);
  return { ok: true, value };
}

const DECIMAL = /^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$/;

function parseDouble(option: FlinkOption, raw: unknown): OptionValueResult {
  const value = typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType(option, raw);
  return { ok: true, value };
}

/** Flink reads "true"/"false" in any case, and nothing else. */
function parseBoolean(option: FlinkOption, raw: unknown): OptionValueResult {
  if (typeof raw === 'boolean') return { ok: true, value: raw };
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
  return wrongType(option, raw);
}

/** Flink matches enum names case-insensitively; we store the spelling Flink prints. */
function parseEnum(option: FlinkOption, raw: unknown): OptionValueResult {
  if (typeof raw !== 'string') return wrongType(option, raw);
  const wanted = raw.trim().toLowerCase();
  const value =
    option.values?.find((v) => v.toLowerCase() === wanted) ??
    option.aliases?.find(([alias]) => alias === wanted)?.[1];
  if (value === undefined) return fail(option, message('option.not-allowed', { value: quote(raw) }));
  return { ok: true, value };
}

function parseString(option: FlinkOption, raw: unknown): OptionValueResult {
  if (typeof raw !== 'string') return wrongType(option, raw);
  if (raw.trim() === '') return fail(option, message('option.empty-string'));
  return { ok: true, value: raw };
}

function checkNumber(option: FlinkOption, value: number): OptionValueResult {
  if (option.sentinel?.value === value) return { ok: true, value };
  const range = option.range ?? defaultRange(option);
  const problem = rangeProblem(range, value, option) ?? option.check?.(value, formatValue(option, value));
  return problem === undefined ? { ok: true, value } : fail(option, problem);
}

function defaultRange(option: FlinkOption): NumericRange {
  return option.type === 'double' ? {} : { min: 0 };
}

function rangeProblem(range: NumericRange, value: number, option: FlinkOption): EngineMessage | undefined {
  const { min, max, minExclusive, maxExclusive } = range;
  const belowMin = min !== undefined && (minExclusive ? value <= min : value < min);
  const aboveMax = max !== undefined && (maxExclusive ? value >= max : value > max);
  return belowMin || aboveMax ? message('option.out-of-range', { value: formatValue(option, value), range: describeRange(range, option) }) : undefined;
}

function formatValue(option: FlinkOption, value: number): string {
  if (option.type === 'duration') return formatDuration(value);
  if (option.type === 'memory') return formatMemorySize(value);
  return String(value);
}

function describeRange(range: NumericRange, option: FlinkOption): EngineMessage {
  const show = (n: number) => formatValue(option, n);
  const { min, max, minExclusive, maxExclusive } = range;
  const bounds: Bound[] = [];
  if (min !== undefined) bounds.push({ word: minExclusive ? 'greater than' : 'at least', value: show(min) });
  if (max !== undefined) bounds.push({ word: maxExclusive ? 'less than' : 'at most', value: show(max) });
  return message('bounds', { bounds });
}

/** Durations and sizes cannot be negative anyway, so "at least 0" says nothing. */
function isJustNonNegative(range: NumericRange): boolean {
  return range.min === 0 && !range.minExclusive && range.max === undefined;
}

function typeNoun(option: FlinkOption): Phrase {
  switch (option.type) {
    case 'duration':
      return 'a duration';
    case 'memory':
      return 'a memory size';
    case 'integer':
      return 'an integer';
    case 'double':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'enum':
      return 'one of the allowed values';
    case 'string':
      return 'a string';
  }
}

/** What the option accepts, in words, for error messages and the UI. */
export function allowedFor(option: FlinkOption): EngineMessage {
  const range = option.range && !isJustNonNegative(option.range) ? { range: describeRange(option.range, option) } : {};
  const sentinel = option.sentinel ? { sentinel: { value: String(option.sentinel.value), meaning: option.sentinel.meaning } } : {};
  switch (option.type) {
    case 'duration':
      return message('allowed.duration', range);
    case 'memory':
      return message('allowed.memory', range);
    case 'integer':
      return message('allowed.integer', { ...range, ...sentinel });
    case 'double':
      return message('allowed.number', range);
    case 'boolean':
      return message('phrase', { text: 'true or false' });
    case 'enum':
      return message('names', { names: option.values ?? [] });
    case 'string':
      return message('phrase', { text: 'a non-empty string' });
  }
}
