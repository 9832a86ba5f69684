/**
 * Reads one object of untrusted input field by field. Every problem becomes a `ScenarioError`
 * with the field's path; a reader never throws, whatever the input. A typed read returns the
 * value, the default when the field is absent, or `undefined` when it is missing or wrong, so
 * later checks can skip what is already reported instead of piling up follow-on errors.
 */

import { formatDuration, parseDuration } from '../config/duration.ts';
import { parseMemorySize } from '../config/memory-size.ts';
import { describeValue, quote } from '../config/value-description.ts';
import { message, renderEnglish } from '../messages/engine-message.ts';
import type { Bound, EngineMessage, ListItems, Phrase } from '../messages/message-codes.ts';
import { didYouMean } from './did-you-mean.ts';
import { fieldPath, itemPath, scenarioError, type ScenarioError } from './scenario-error.ts';

/** Errors and notes collected while reading a whole scenario. */
export class Issues {
  readonly errors: ScenarioError[] = [];
  /** the notes in English, as the CLI and the Playground API give them */
  readonly notes: string[] = [];
  readonly noteMessages: EngineMessage[] = [];

  error(path: string, problem: EngineMessage, extra: { allowed?: EngineMessage; suggestion?: string } = {}): void {
    this.errors.push(scenarioError(path, problem, extra));
  }

  note(note: EngineMessage): void {
    this.notes.push(renderEnglish(note));
    this.noteMessages.push(note);
  }
}

const phrase = (text: Phrase | EngineMessage): EngineMessage => (typeof text === 'string' ? message('phrase', { text }) : text);

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
  static of(issues: Issues, path: string, value: unknown, what: Phrase | EngineMessage): ObjectReader | undefined {
    if (isPlainObject(value)) return new ObjectReader(issues, path, value);
    issues.error(path, message('field.expected-map', { what: phrase(what), got: describeValue(value) }));
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
  private present<T>(key: string, presence: Presence<T>, allowed: EngineMessage): 'absent' | 'present' | 'invalid' {
    if (this.has(key)) {
      if (this.raw(key) !== null && this.raw(key) !== undefined) return 'present';
      this.issues.error(this.pathOf(key), message('field.no-value'), { allowed });
      return 'invalid';
    }
    if (presence.required && presence.default === undefined) {
      this.issues.error(this.pathOf(key), message('field.missing'), { allowed });
    }
    return 'absent';
  }

  private wrong(key: string, expected: EngineMessage, allowed: EngineMessage): undefined {
    this.issues.error(this.pathOf(key), message('field.expected', { expected, got: describeValue(this.raw(key)) }), { allowed });
    return undefined;
  }

  string(key: string, options: Presence<string> & { pattern?: RegExp; allowed?: EngineMessage } = {}): string | undefined {
    const allowed = options.allowed ?? phrase('a string');
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string') return this.wrong(key, phrase('a string'), allowed);
    if (options.pattern && !options.pattern.test(value)) {
      this.issues.error(this.pathOf(key), message('field.not-valid-here', { value: quote(value) }), { allowed });
      return undefined;
    }
    return value;
  }

  /** One of a closed list of names; a misspelt name gets the nearest one as a suggestion. */
  oneOf<T extends string>(key: string, values: readonly T[], options: Presence<T> & { what?: Phrase } = {}): T | undefined {
    const allowed = message('names', { names: values });
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string') return this.wrong(key, phrase(options.what ?? 'a name'), allowed);
    const match = values.find((v) => v === value);
    if (match !== undefined) return match;
    const suggestion = didYouMean(value, values);
    this.issues.error(this.pathOf(key), message('field.unknown-name', { what: phrase(options.what ?? 'value'), value: quote(value) }), {
      allowed,
      ...(suggestion === undefined ? {} : { suggestion }),
    });
    return undefined;
  }

  integer(key: string, options: Presence<number> & NumberBounds = {}): number | undefined {
    const allowed = message('allowed.integer', rangeParam(describeBounds(options, String)));
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    // Beyond 2^53 a number is not an exact integer any more (1e308 "is" one): refused as not one.
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return this.wrong(key, phrase('an integer'), allowed);
    return this.bounded(key, value, options, allowed, String);
  }

  number(key: string, options: Presence<number> & NumberBounds = {}): number | undefined {
    const allowed = message('allowed.number', rangeParam(describeBounds(options, String)));
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.wrong(key, phrase('a number'), allowed);
    return this.bounded(key, value, options, allowed, String);
  }

  boolean(key: string, options: Presence<boolean> = {}): boolean | undefined {
    const presence = this.present(key, options, phrase('true or false'));
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    return typeof value === 'boolean' ? value : this.wrong(key, phrase('true or false'), phrase('true or false'));
  }

  /** A duration in Flink syntax ("5 s") or a number of milliseconds; returns milliseconds. */
  duration(key: string, options: Presence<number> & NumberBounds = {}): number | undefined {
    const justNonNegative = options.min === 0 && !options.above && options.max === undefined;
    const allowed = message('allowed.duration', rangeParam(justNonNegative ? undefined : describeBounds(options, formatDuration)));
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string' && typeof value !== 'number') return this.wrong(key, phrase('a duration'), allowed);
    const parsed = parseDuration(value);
    if (!parsed.ok) {
      this.issues.error(this.pathOf(key), parsed.problem, { allowed });
      return undefined;
    }
    return this.bounded(key, parsed.ms, options, allowed, formatDuration);
  }

  /** A memory size in Flink syntax ("1 tb", "64 mb") or a number of bytes; returns bytes. */
  memorySize(key: string, options: Presence<number> = {}): number | undefined {
    const allowed = message('allowed.memory', {});
    const presence = this.present(key, options, allowed);
    if (presence !== 'present') return presence === 'absent' ? options.default : undefined;
    const value = this.raw(key);
    if (typeof value !== 'string' && typeof value !== 'number') return this.wrong(key, phrase('a memory size'), allowed);
    const parsed = parseMemorySize(value);
    if (parsed.ok) return parsed.bytes;
    this.issues.error(this.pathOf(key), parsed.problem, { allowed });
    return undefined;
  }

  private bounded(
    key: string,
    value: number,
    bounds: NumberBounds,
    allowed: EngineMessage,
    show: (n: number) => string,
  ): number | undefined {
    if (withinBounds(value, bounds)) return value;
    this.issues.error(this.pathOf(key), message('field.out-of-range', { value: show(value) }), { allowed });
    return undefined;
  }

  object(key: string, what: Phrase, options: { required?: boolean } = {}): ObjectReader | undefined {
    if (this.present(key, options, phrase(what)) !== 'present') return undefined;
    return ObjectReader.of(this.issues, this.pathOf(key), this.raw(key), what);
  }

  /** The items of a list field with their paths; absent = `[]` unless required. */
  list(key: string, items: ListItems, options: { required?: boolean; nonEmpty?: boolean } = {}): ListItem[] | undefined {
    const listOf = message('allowed.list-of', { items });
    const presence = this.present(key, options, listOf);
    if (presence !== 'present') return presence === 'absent' && !options.required ? [] : undefined;
    const value = this.raw(key);
    if (!Array.isArray(value)) return this.wrong(key, listOf, listOf);
    if (options.nonEmpty && value.length === 0) {
      this.issues.error(this.pathOf(key), message('field.list-empty'), { allowed: message('allowed.at-least-one', { items }) });
      return undefined;
    }
    return value.map((item: unknown, i) => ({ path: itemPath(this.pathOf(key), i), value: item }));
  }

  /**
   * Reports every field not in `known`, with the nearest known name. `elsewhere` may explain a
   * field that is valid in another context (e.g. `fn` on a sink vertex).
   */
  rejectUnknown(known: readonly string[], elsewhere?: (key: string) => EngineMessage | undefined): void {
    for (const key of this.keys()) {
      if (known.includes(key)) continue;
      const suggestion = didYouMean(key, known);
      const problem = elsewhere?.(key) ?? message('field.unknown', { name: quote(key) });
      this.issues.error(this.pathOf(key), problem, {
        allowed: message('names', { names: known }),
        ...(suggestion === undefined ? {} : { suggestion }),
      });
    }
  }
}

function withinBounds(value: number, { min, max, above }: NumberBounds): boolean {
  if (min !== undefined && (above ? value <= min : value < min)) return false;
  return max === undefined || value <= max;
}

/** The bounds as a range message, or undefined when there are none. */
function describeBounds({ min, max, above }: NumberBounds, show: (n: number) => string): EngineMessage | undefined {
  const bounds: Bound[] = [];
  if (min !== undefined) bounds.push({ word: above ? 'greater than' : 'at least', value: show(min) });
  if (max !== undefined) bounds.push({ word: 'at most', value: show(max) });
  return bounds.length === 0 ? undefined : message('bounds', { bounds });
}

function rangeParam(range: EngineMessage | undefined): { range?: EngineMessage } {
  return range === undefined ? {} : { range };
}
