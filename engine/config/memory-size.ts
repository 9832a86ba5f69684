/**
 * Flink's memory size syntax, as `org.apache.flink.configuration.MemorySize.parseBytes` reads it:
 * a whole number, optional whitespace, then an optional unit (case-insensitive). Units are powers
 * of 1024; no unit means bytes; a plain JSON/YAML number is bytes.
 */

import { quote } from './value-description.ts';

export type MemorySizeResult =
  | { ok: true; bytes: number }
  | { ok: false; message: string; allowed: string };

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

/** How a memory size is written, for "allowed" texts. */
export const MEMORY_SIZE_SYNTAX =
  'such as 64mb or 32 kb (a whole number and a unit: b, kb, mb, gb, tb, in powers of 1024; no unit = bytes)';

export const MEMORY_SIZE_ALLOWED = `a memory size ${MEMORY_SIZE_SYNTAX}`;

function fail(message: string): MemorySizeResult {
  return { ok: false, message, allowed: MEMORY_SIZE_ALLOWED };
}

/** Parses a memory size given as Flink text or as a number of bytes. */
export function parseMemorySize(input: string | number): MemorySizeResult {
  return typeof input === 'number' ? fromBytes(input) : fromText(input);
}

function fromBytes(value: number): MemorySizeResult {
  if (!Number.isFinite(value)) return fail(`${value} is not a finite memory size`);
  if (value < 0) return fail(`memory sizes cannot be negative (got ${value})`);
  if (!Number.isInteger(value)) return fail(`a number is read as whole bytes; got ${value}`);
  if (value > Number.MAX_SAFE_INTEGER) return fail(`${value} bytes is too large`);
  return { ok: true, bytes: value };
}

function fromText(text: string): MemorySizeResult {
  const trimmed = text.trim();
  if (trimmed === '') return fail('empty memory size');
  const digits = /^[0-9]*/.exec(trimmed)?.[0] ?? '';
  const label = trimmed.slice(digits.length).trim().toLowerCase();
  if (digits === '') {
    const why = trimmed.startsWith('-') ? 'memory sizes cannot be negative' : 'it does not start with a number';
    return fail(`${quote(trimmed)} is not a memory size: ${why}`);
  }
  if (/^\.[0-9]/.test(label)) return fail(`${quote(trimmed)} is not a whole number; use a smaller unit`);
  const unit = label === '' ? MEMORY_UNITS[0] : MEMORY_UNITS.find((u) => u.labels.includes(label));
  if (unit === undefined) return fail(`unknown memory unit ${quote(label)} in ${quote(trimmed)}`);
  const bytes = Number(digits) * unit.multiplier;
  if (bytes > Number.MAX_SAFE_INTEGER) return fail(`${quote(trimmed)} is too large`);
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
