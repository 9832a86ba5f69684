/**
 * Flink's polymorphic DTOs carry their subtype as the first property: `@class` up to 1.14,
 * `className` from 1.15 (FLINK-25808: "@class" made swagger clients uncompilable).
 */
import type { JsonObjectReader } from './json-object-reader.ts';

/**
 * The subtype named by `className` or `@class`; a document that names neither (hand-trimmed)
 * gets `inferred` (from its status), and only a missing subtype with no status to go by is reported.
 */
export function readClassName<T extends string>(entry: JsonObjectReader, allowed: readonly T[], inferred: T | undefined): T | undefined {
  if (entry.has('className')) {
    entry.reading.observe('className', true);
    return entry.oneOf('className', allowed, 'not-a-class-name');
  }
  if (entry.has('@class')) {
    entry.reading.observe('className', false);
    return entry.oneOf('@class', allowed, 'not-a-class-name');
  }
  if (inferred === undefined && entry.has('status')) return undefined;
  if (inferred === undefined) entry.reading.report({ code: 'missing-field', path: entry.pathOf('className'), params: { expected: 'string' } });
  return inferred;
}
