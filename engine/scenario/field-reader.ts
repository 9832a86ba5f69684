/**
 * Reads one object of untrusted input field by field. Every problem becomes a `ScenarioError`
 * with the field's path; a reader never throws, whatever the input. A typed read returns the
 * value, the default when the field is absent, or `undefined` when it is missing or wrong, so
 * later checks can skip what is already reported instead of piling up follow-on errors.
 */

import { DURATION_SYNTAX, formatDuration, parseDuration } from '../config/duration.ts';
import { MEMORY_SIZE_ALLOWED, parseMemorySize } from '../config/memory-size.ts';
import { describeValue, quote } from '../config/value-description.ts';
import { didYouMean } from './did-you-mean.ts';
import { fieldPath, itemPath, type ScenarioError } from './scenario-error.ts';

/** Errors and notes collected while reading a whole scenario. */
export class Issues {
  readonly errors: ScenarioError[] = [];
  readonly notes: string[] = [];

  error(path: string, message: string, extra: { allowed?: string; suggestion?: string } = {}): void {
    const error: ScenarioError = { path, message };
    if (extra.allowed !== undefined) error.allowed = extra.allowed;
    if (extra.suggestion !== undefined) error.suggestion = extra.suggestion;
    this.errors.push(error);
  }

  note(text: string): void {
    this.notes.push(text);
  }
}

export interface NumberBounds {
  min?: number;
  max?: number;
  /** min itself is not allowed */
  above?: boolean;
}

interface Presence<T> {
  required?: boolean;
  default?: T;
}

export interface ListItem {
  path: string;
  value: unknown;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ObjectReader {
  private constructor(
    readonly issues: Issues,
    readonly path: string,
    private readonly fields: Readonly<Record<string, unknown>>,
  ) {}

  /** A reader for `value`, or an error naming `what` was expected there. */
  static of(issues: Issues, path: string, value: unknown, what: string): ObjectReader | undefined {
    if (isPlainObject(value)) return new ObjectReader(issues, path, value);
    issues.error(path, `expected ${what} (a map of fields), got ${describeValue(value)}`);
    return undefined;
  }

  keys(): string[] {
    return Object.keys(this.fields);
  }

  has(key: string): boolean {
    return Object.hasOwn(this.fields, key);
  }

  /** The field's raw value; own fields only, so `constructor` or `__proto__` never leak in. */
  raw(key: string): unknown {
    return this.has(key) ? this.fields[key] : undefined;
  }

  pathOf(key: string): string {
    return fieldPath(this.path, key);
  }

  /**
   * 'invalid' for a field written without a value (`description:` in YAML): most likely a slip,
   * so it is reported rather than taken as absent.
   */
  private present<T>(key: string, presence: Presence<T>, allowed: string): 'absent' | 'present' | 'invalid' {
    if (this.has(key)) {
      if (this.raw(key) !== null && this.raw(key) !== undefined) return 'present';
      this.issues.error(this.pathOf(key), 'has no value', { allowed });
      return 'invalid';
    }
    if (presence.required && presence.default === undefined) {
      this.issues.error(this.pathOf(key), 'required field is missing', { allowed });
    }
    return 'absent';
  }

  private wrong(key: string, expected: string, allowed: string): undefined {
    this.issues.error(this.pathOf(key), `expected ${expected}, got ${describeValue(this.raw(key))}`, { allowed });
    return undefined;
  }

  string(key: string, options: Presence<string> & { pattern?: RegExp; allowed?: string } = {}): string | undefined {
    const allowed = options.allowed ?? 'a string';
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string') return this.wrong(key, 'a string', allowed);
    if (options.pattern && !options.pattern.test(value)) {
      this.issues.error(this.pathOf(key), `${quote(value)} is not valid here`, { allowed });
      return undefined;
    }
    return value;
  }

  /** One of a closed list of names; a misspelt name gets the nearest one as a suggestion. */
  oneOf<T extends string>(key: string, values: readonly T[], options: Presence<T> & { what?: string } = {}): T | undefined {
    const allowed = values.join(', ');
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string') return this.wrong(key, options.what ?? 'a name', allowed);
    const match = values.find((v) => v === value);
    if (match !== undefined) return match;
    const suggestion = didYouMean(value, values);
    this.issues.error(this.pathOf(key), `unknown ${options.what ?? 'value'} ${quote(value)}`, {
      allowed,
      ...(suggestion === undefined ? {} : { suggestion }),
    });
    return undefined;
  }

  integer(key: string, options: Presence<number> & NumberBounds = {}): number | undefined {
    const allowed = `an integer${describeBounds(options, String)}`;
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    // Beyond 2^53 a number is not an exact integer any more (1e308 "is" one): refused as not one.
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return this.wrong(key, 'an integer', allowed);
    return this.bounded(key, value, options, allowed, String);
  }

  number(key: string, options: Presence<number> & NumberBounds = {}): number | undefined {
    const allowed = `a number${describeBounds(options, String)}`;
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.wrong(key, 'a number', allowed);
    return this.bounded(key, value, options, allowed, String);
  }

  boolean(key: string, options: Presence<boolean> = {}): boolean | undefined {
    const presence = this.present(key, options, 'true or false');
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    return typeof value === 'boolean' ? value : this.wrong(key, 'true or false', 'true or false');
  }

  /** A duration in Flink syntax ("5 s") or a number of milliseconds; returns milliseconds. */
  duration(key: string, options: Presence<number> & NumberBounds = {}): number | undefined {
    const bounds = options.min === 0 && !options.above && options.max === undefined ? '' : describeBounds(options, formatDuration);
    const allowed = bounds ? `a duration of${bounds}, ${DURATION_SYNTAX}` : `a duration ${DURATION_SYNTAX}`;
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string' && typeof value !== 'number') return this.wrong(key, 'a duration', allowed);
    const parsed = parseDuration(value);
    if (!parsed.ok) {
      this.issues.error(this.pathOf(key), parsed.message, { allowed });
      return undefined;
    }
    return this.bounded(key, parsed.ms, options, allowed, formatDuration);
  }

  /** A memory size in Flink syntax ("1 tb", "64 mb") or a number of bytes; returns bytes. */
  memorySize(key: string, options: Presence<number> = {}): number | undefined {
    const presence = this.present(key, options, MEMORY_SIZE_ALLOWED);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string' && typeof value !== 'number') return this.wrong(key, 'a memory size', MEMORY_SIZE_ALLOWED);
    const parsed = parseMemorySize(value);
    if (parsed.ok) return parsed.bytes;
    this.issues.error(this.pathOf(key), parsed.message, { allowed: parsed.allowed });
    return undefined;
  }

  private bounded(
    key: string,
    value: number,
    bounds: NumberBounds,
    allowed: string,
    show: (n: number) => string,
  ): number | undefined {
    if (withinBounds(value, bounds)) return value;
    this.issues.error(this.pathOf(key), `${show(value)} is out of range`, { allowed });
    return undefined;
  }

  object(key: string, what: string, options: { required?: boolean } = {}): ObjectReader | undefined {
    if (this.present(key, options, what) !== 'present') return undefined;
    return ObjectReader.of(this.issues, this.pathOf(key), this.raw(key), what);
  }

  /** The items of a list field with their paths; absent = `[]` unless required. */
  list(key: string, what: string, options: { required?: boolean; nonEmpty?: boolean } = {}): ListItem[] | undefined {
    const presence = this.present(key, options, `a list of ${what}`);
    if (presence !== 'present') return presence === 'absent' && !options.required ? [] : undefined;
    const value = this.raw(key);
    if (!Array.isArray(value)) return this.wrong(key, `a list of ${what}`, `a list of ${what}`);
    if (options.nonEmpty && value.length === 0) {
      this.issues.error(this.pathOf(key), 'the list is empty', { allowed: `at least one ${what}` });
      return undefined;
    }
    return value.map((item: unknown, i) => ({ path: itemPath(this.pathOf(key), i), value: item }));
  }

  /**
   * Reports every field not in `known`, with the nearest known name. `elsewhere` may explain a
   * field that is valid in another context (e.g. `fn` on a sink vertex).
   */
  rejectUnknown(known: readonly string[], elsewhere?: (key: string) => string | undefined): void {
    for (const key of this.keys()) {
      if (known.includes(key)) continue;
      const suggestion = didYouMean(key, known);
      const message = elsewhere?.(key) ?? `unknown field ${quote(key)}`;
      this.issues.error(this.pathOf(key), message, {
        allowed: known.join(', '),
        ...(suggestion === undefined ? {} : { suggestion }),
      });
    }
  }
}

function withinBounds(value: number, { min, max, above }: NumberBounds): boolean {
  if (min !== undefined && (above ? value <= min : value < min)) return false;
  return max === undefined || value <= max;
}

function describeBounds({ min, max, above }: NumberBounds, show: (n: number) => string): string {
  const lower = min === undefined ? undefined : `${above ? 'greater than' : 'at least'} ${show(min)}`;
  const upper = max === undefined ? undefined : `at most ${show(max)}`;
  const parts = [lower, upper].filter((p) => p !== undefined);
  return parts.length === 0 ? '' : ` ${parts.join(' and ')}`;
}
