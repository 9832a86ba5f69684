/**
 * Reads one JSON object field by field, naming each problem by its JSON path, and noting which
 * versioned fields were there. A reader never throws on bad input: a field that is missing or of
 * the wrong type is reported and read as a placeholder, and the caller discards the document when
 * any problem was reported, so a half-read document is never shown.
 */
import type { JacksonDouble } from '../checkpoint/stats/rest-document-types.ts';
import type { FeatureObservation, VersionedFeature } from './flink-versions.ts';
import { describeJsonValue, indexPath, memberPath, type ExpectedKind, type FlinkImportProblem } from './flink-import-problem.ts';

const JACKSON_NON_FINITE = ['NaN', 'Infinity', '-Infinity'] as const;

/**
 * Problems after which lists are no longer read: a file of 100,000 broken history entries has
 * said what is wrong long before, and reading on took 8 s. The CLI prints the first 20.
 */
export const MAX_PROBLEMS_READ = 1000;

/** What reading one document found: its problems and its versioned fields. */
export class DocumentReading {
  readonly problems: FlinkImportProblem[] = [];
  readonly observations: FeatureObservation[] = [];

  /** True once MAX_PROBLEMS_READ problems were found: list readers stop there. */
  get full(): boolean {
    return this.problems.length >= MAX_PROBLEMS_READ;
  }

  report(problem: FlinkImportProblem): void {
    this.problems.push(problem);
  }

  observe(feature: VersionedFeature, present: boolean): void {
    if (!this.observations.some((o) => o.feature === feature && o.present === present)) this.observations.push({ feature, present });
  }
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class JsonObjectReader {
  private constructor(
    readonly value: Record<string, unknown>,
    readonly path: string,
    readonly reading: DocumentReading,
  ) {}

  /** A reader for `value`, or undefined (reported) when it is not an object. */
  static of(value: unknown, path: string, reading: DocumentReading): JsonObjectReader | undefined {
    if (isJsonObject(value)) return new JsonObjectReader(value, path, reading);
    reading.report({ code: 'wrong-type', path, params: { expected: 'object', actual: describeJsonValue(value) } });
    return undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.value, key) && this.value[key] !== undefined;
  }

  pathOf(key: string): string {
    return memberPath(this.path, key);
  }

  /** The field's value, or undefined (reported as missing). */
  required(key: string, expected: ExpectedKind): unknown {
    if (this.has(key)) return this.value[key];
    this.reading.report({ code: 'missing-field', path: this.pathOf(key), params: { expected } });
    return undefined;
  }

  #wrongType(key: string, expected: ExpectedKind, value: unknown): void {
    this.reading.report({ code: 'wrong-type', path: this.pathOf(key), params: { expected, actual: describeJsonValue(value) } });
  }

  /**
   * A Java long or int: an integer (Long.MAX_VALUE reaches JavaScript as 2^63, which is one).
   * Flink's checkpoint figures are all longs but the percentiles (see double()).
   */
  integer(key: string): number {
    const value = this.required(key, 'integer');
    if (value === undefined) return 0;
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    this.#wrongType(key, 'integer', value);
    return 0;
  }

  /** A number that older releases did not write: `fallback` when absent, and the absence noted. */
  integerSince(key: string, feature: VersionedFeature, fallback: number): number {
    this.reading.observe(feature, this.has(key));
    return this.has(key) ? this.integer(key) : fallback;
  }

  /** A Java double as Jackson writes it: a number, or "NaN" / "Infinity" / "-Infinity". */
  double(key: string): JacksonDouble {
    const value = this.required(key, 'double');
    if (value === undefined) return 0;
    if (typeof value === 'number') return value;
    if ((JACKSON_NON_FINITE as readonly unknown[]).includes(value)) return value as JacksonDouble;
    this.#wrongType(key, 'double', value);
    return 0;
  }

  boolean(key: string): boolean {
    const value = this.required(key, 'boolean');
    if (value === undefined) return false;
    if (typeof value === 'boolean') return value;
    this.#wrongType(key, 'boolean', value);
    return false;
  }

  /** A boolean some releases did not write: `fallback` when absent. */
  optionalBoolean(key: string, fallback: boolean): boolean {
    return this.has(key) ? this.boolean(key) : fallback;
  }

  string(key: string): string {
    const value = this.required(key, 'string');
    if (value === undefined) return '';
    if (typeof value === 'string') return value;
    this.#wrongType(key, 'string', value);
    return '';
  }

  optionalString(key: string, fallback: string): string {
    return this.has(key) ? this.string(key) : fallback;
  }

  /** A `@Nullable` string: Jackson writes null rather than leaving it out. */
  nullableString(key: string): string | null {
    const value = this.required(key, 'string-or-null');
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return value;
    this.#wrongType(key, 'string-or-null', value);
    return null;
  }

  /** One of `allowed`, or undefined (reported with `code`). */
  oneOf<T extends string>(key: string, allowed: readonly T[], code: 'not-a-checkpoint-status' | 'not-an-allowed-value' | 'not-a-class-name'): T | undefined {
    const value = this.required(key, 'string');
    if (value === undefined) return undefined;
    if ((allowed as readonly unknown[]).includes(value)) return value as T;
    if (typeof value !== 'string') {
      this.#wrongType(key, 'string', value);
      return undefined;
    }
    this.reading.report({ code, path: this.pathOf(key), params: { value, allowed: allowed.join(', ') } });
    return undefined;
  }

  object(key: string): JsonObjectReader | undefined {
    const value = this.required(key, 'object');
    return value === undefined ? undefined : JsonObjectReader.of(value, this.pathOf(key), this.reading);
  }

  /** An object some releases did not write: undefined when absent, the absence not reported. */
  optionalObject(key: string): JsonObjectReader | undefined {
    return this.has(key) ? this.object(key) : undefined;
  }

  /** A `@Nullable` object; an absent one reads as null too (Jackson writes null, hand-made files leave it out). */
  nullableObject(key: string): JsonObjectReader | null {
    const value = this.value[key];
    if (value === undefined || value === null) return null;
    return JsonObjectReader.of(value, this.pathOf(key), this.reading) ?? null;
  }

  /** The array's items with their paths, or [] (reported) when it is missing or not an array. */
  items(key: string): { value: unknown; path: string }[] {
    const value = this.required(key, 'array');
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      this.#wrongType(key, 'array', value);
      return [];
    }
    return value.map((item, index) => ({ value: item, path: indexPath(this.pathOf(key), index) }));
  }

  /** Reads each item of the array with `read`, until the reading is full of problems (holes skipped, as map does). */
  readItems<T>(key: string, read: (item: JsonObjectReader) => T): T[] {
    return this.items(key).flatMap(({ value, path }) => {
      if (this.reading.full) return [];
      const item = JsonObjectReader.of(value, path, this.reading);
      return item ? [read(item)] : [];
    });
  }

  /** A map's entries (vertex id → statistics) as readers, in the document's order. */
  entries(key: string): [string, JsonObjectReader][] {
    const map = this.object(key);
    if (map === undefined) return [];
    const readers: [string, JsonObjectReader][] = [];
    for (const [name, value] of Object.entries(map.value)) {
      const reader = JsonObjectReader.of(value, map.pathOf(name), this.reading);
      if (reader) readers.push([name, reader]);
    }
    return readers;
  }
}
