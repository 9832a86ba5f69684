/**
 * Regular expressions for the JSON Schema that accept exactly the text forms the parsers accept.
 * JSON Schema patterns carry no flags, so case-insensitivity is spelt out per letter (`[sS]`), and
 * they must also compile as Unicode regexps, so only the characters that need it are escaped.
 */

import { DURATION_UNIT_LABELS } from '../config/duration.ts';
import { MEMORY_UNIT_LABELS } from '../config/memory-size.ts';

function escapeLiteral(char: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(char) ? `\\${char}` : char;
}

/** `exactly_once` → `[eE][xX]...`; only ASCII letters fold, as in Java's `toLowerCase(Locale.US)`. */
export function caseInsensitive(text: string): string {
  return [...text]
    .map((char) => (/[a-zA-Z]/.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : escapeLiteral(char)))
    .join('');
}

/** One of `words` in any case; Flink option values may also have whitespace around them. */
export function anyOfWordsPattern(words: readonly string[], options: { trimmed?: boolean } = {}): string {
  const sorted = [...words].sort((a, b) => b.length - a.length);
  const space = options.trimmed === false ? '' : '\\s*';
  return `^${space}(${sorted.map(caseInsensitive).join('|')})${space}$`;
}

function numberWithUnitPattern(labels: readonly string[]): string {
  const sorted = [...labels].sort((a, b) => b.length - a.length);
  return `^\\s*[0-9]+\\s*(${sorted.map(caseInsensitive).join('|')})?\\s*$`;
}

export const DURATION_PATTERN = numberWithUnitPattern(DURATION_UNIT_LABELS);
export const MEMORY_SIZE_PATTERN = numberWithUnitPattern(MEMORY_UNIT_LABELS);
export const INTEGER_TEXT_PATTERN = '^\\s*[+-]?[0-9]+\\s*$';
export const DECIMAL_TEXT_PATTERN = '^\\s*[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?\\s*$';
export const BOOLEAN_TEXT_PATTERN = anyOfWordsPattern(['true', 'false']);
export const NON_BLANK_PATTERN = '\\S';
