/**
 * Flink's memory size syntax, as `org.apache.flink.configuration.MemorySize.parseBytes` reads it:
 * a whole number, optional whitespace, then an optional unit (case-insensitive). Units are powers
 * of 1024; no unit means bytes; a plain JSON/YAML number is bytes.
 */

import { message, renderEnglish } from '../messages/engine-message.ts';
import { MEMORY_SIZE_SYNTAX } from '../messages/english-messages.ts';
import type { EngineMessage } from '../messages/message-codes.ts';
import { quote } from './value-description.ts';

export { MEMORY_SIZE_SYNTAX };

export type MemorySizeResult =
  | { ok: true; bytes: number }
  | { ok: false; problem: EngineMessage; /** English renderings of `problem` and of what is allowed */ message: string; allowed: string };

interface MemoryUnit {
  labels: readonly string[];
  /** Flink prints the second label ("bytes", "kb", "mb", ...) */
  printed: string;
  multiplier: number;
}

/** Flink's `MemorySize.MemoryUnit`, smallest first. */
const MEMORY_UNITS: readonly MemoryUnit[] = [
  { labels: ['b', 'bytes'], printed: 'bytes', multiplier: 1 },
  { labels: ['k', 'kb', 'kibibytes'], printed: 'kb', multiplier: 1024 },
  { labels: ['m', 'mb', 'mebibytes'], printed: 'mb', multiplier: 1024 ** 2 },
  { labels: ['g', 'gb', 'gibibytes'], printed: 'gb', multiplier: 1024 ** 3 },
  { labels: ['t', 'tb', 'tebibytes'], printed: 'tb', multiplier: 1024 ** 4 },
];

/** Every unit label the parser accepts (lower case). */
export const MEMORY_UNIT_LABELS: readonly string[] = MEMORY_UNITS.flatMap((u) => u.labels);

const ALLOWED = renderEnglish(message('allowed.memory', {}));

function fail(problem: EngineMessage): MemorySizeResult {
  return { ok: false, problem, message: renderEnglish(problem), allowed: ALLOWED };
}

/** Parses a memory size given as Flink text or as a number of bytes. */
export function parseMemorySize(input: string | number): MemorySizeResult {
  return typeof input === 'number' ? fromBytes(input) : fromText(input);
}

function fromBytes(value: number): MemorySizeResult {
  if (!Number.isFinite(value)) return fail(message('memory.not-finite', { value: String(value) }));
  if (value < 0) return fail(message('memory.negative', { value: String(value) }));
  if (!Number.isInteger(value)) return fail(message('memory.fraction-bytes', { value: String(value) }));
  if (value > Number.MAX_SAFE_INTEGER) return fail(message('memory.too-large-bytes', { value: String(value) }));
  return { ok: true, bytes: value };
}

function fromText(text: string): MemorySizeResult {
  const trimmed = text.trim();
  if (trimmed === '') return fail(message('memory.empty'));
  const digits = /^[0-9]*/.exec(trimmed)?.[0] ?? '';
  const label = trimmed.slice(digits.length).trim().toLowerCase();
  if (digits === '') {
    const why = trimmed.startsWith('-') ? 'memory sizes cannot be negative' : 'it does not start with a number';
    return fail(message('memory.not-a-size', { text: quote(trimmed), why: message('phrase', { text: why }) }));
  }
  if (/^\.[0-9]/.test(label)) return fail(message('memory.fraction', { text: quote(trimmed) }));
  const unit = label === '' ? MEMORY_UNITS[0] : MEMORY_UNITS.find((u) => u.labels.includes(label));
  if (unit === undefined) return fail(message('memory.unknown-unit', { unit: quote(label), text: quote(trimmed) }));
  const bytes = Number(digits) * unit.multiplier;
  if (bytes > Number.MAX_SAFE_INTEGER) return fail(message('memory.too-large', { text: quote(trimmed) }));
  return { ok: true, bytes };
}

/**
 * Prints a size the way Flink's `MemorySize.toString` does: in the largest unit that divides it
 * exactly ("64 mb", "32 kb", "100 bytes").
 */
export function formatMemorySize(bytes: number): string {
  if (!Number.isFinite(bytes)) return bytes > 0 ? '∞' : '-∞';
  if (bytes < 0) return `-${formatMemorySize(-bytes)}`;
  if (!Number.isInteger(bytes)) return `${bytes} bytes`;
  const unit = [...MEMORY_UNITS].reverse().find((u) => bytes % u.multiplier === 0 && bytes !== 0);
  return unit ? `${bytes / unit.multiplier} ${unit.printed}` : '0 bytes';
}
