/**
 * The JSON Schema of a scenario's `config` section, generated from the option registry so the two
 * cannot drift. Like the validator it accepts each key flat (`execution.checkpointing.interval`)
 * or nested at any dot (`execution: { checkpointing: { interval: … } }`): every prefix of a key
 * gets a node listing what may follow it.
 */

import { formatDuration } from '../config/duration.ts';
import { currentKeysFor, DEPRECATED_KEYS, FLINK_OPTIONS, type FlinkOption, type NumericRange } from '../config/flink-options.ts';
import { formatMemorySize } from '../config/memory-size.ts';
import {
  anyOfWordsPattern,
  BOOLEAN_TEXT_PATTERN,
  DECIMAL_TEXT_PATTERN,
  DURATION_PATTERN,
  INTEGER_TEXT_PATTERN,
  MEMORY_SIZE_PATTERN,
  NON_BLANK_PATTERN,
} from './json-schema-patterns.ts';

export type JsonSchema = Record<string, unknown>;

const ROOT = '';

export function configNodeRef(prefix: string): string {
  return `#/definitions/${configNodeName(prefix)}`;
}

function configNodeName(prefix: string): string {
  return prefix === ROOT ? 'config' : `config-node:${prefix}`;
}

function optionLeafName(key: string): string {
  return `option:${key}`;
}

/** Every definition the `config` section needs: one leaf per key, one node per prefix. */
export function configDefinitions(): Record<string, JsonSchema> {
  const definitions: Record<string, JsonSchema> = {};
  for (const option of FLINK_OPTIONS) definitions[optionLeafName(option.key)] = optionSchema(option);
  for (const key of DEPRECATED_KEYS) definitions[optionLeafName(key)] = deprecatedSchema(key);
  for (const prefix of [ROOT, ...allPrefixes()]) definitions[configNodeName(prefix)] = nodeSchema(prefix);
  return definitions;
}

/** Every key the schema accepts, current and deprecated. */
export function schemaConfigKeys(): string[] {
  return [...FLINK_OPTIONS.map((o) => o.key), ...DEPRECATED_KEYS];
}

function allPrefixes(): string[] {
  const prefixes = schemaConfigKeys().flatMap((key) => {
    const segments = key.split('.');
    return segments.slice(1).map((_, i) => segments.slice(0, i + 1).join('.'));
  });
  return [...new Set(prefixes)].sort();
}

function nodeSchema(prefix: string): JsonSchema {
  const lead = prefix === ROOT ? '' : `${prefix}.`;
  const properties: Record<string, JsonSchema> = {};
  const add = (full: string, schema: JsonSchema) => {
    const name = full.slice(lead.length);
    const existing = properties[name];
    properties[name] = existing ? { anyOf: [existing, schema] } : schema;
  };
  for (const key of schemaConfigKeys().filter((k) => k.startsWith(lead))) add(key, { $ref: `#/definitions/${optionLeafName(key)}` });
  for (const next of allPrefixes().filter((p) => p.startsWith(lead))) add(next, { $ref: configNodeRef(next) });
  const description =
    prefix === ROOT
      ? 'Flink configuration: Flink option keys and Flink value syntax ("10 s", "64mb"), flat or nested at the dots as in Flink\'s config.yaml.'
      : `Options under ${prefix}.`;
  return { type: 'object', description, additionalProperties: false, properties };
}

function deprecatedSchema(key: string): JsonSchema {
  const current = currentKeysFor(key);
  const target = FLINK_OPTIONS.find((o) => o.key === current[0]) as FlinkOption;
  const leaf = optionSchema(target);
  return { ...leaf, description: `Deprecated: use ${current.join(' and ')}. ${String(leaf.description)}` };
}

function optionSchema(option: FlinkOption): JsonSchema {
  return { description: describeOption(option), ...valueSchema(option) };
}

function describeOption(option: FlinkOption): string {
  const shown = option.default === undefined ? undefined : formatDefault(option, option.default);
  const defaultText = option.defaultNote ?? (shown === undefined ? 'none' : shown);
  return `${option.description} Default: ${defaultText}.`;
}

function formatDefault(option: FlinkOption, value: number | string | boolean): string {
  if (typeof value !== 'number') return String(value);
  if (option.type === 'duration') return formatDuration(value);
  if (option.type === 'memory') return formatMemorySize(value);
  return String(value);
}

function valueSchema(option: FlinkOption): JsonSchema {
  switch (option.type) {
    case 'duration':
      return numberOrText('integer', option.range ?? { min: 0 }, DURATION_PATTERN);
    case 'memory':
      return numberOrText('integer', option.range ?? { min: 0 }, MEMORY_SIZE_PATTERN);
    case 'integer':
      return withSentinel(option, numberOrText('integer', option.range ?? { min: 0 }, INTEGER_TEXT_PATTERN));
    case 'double':
      return numberOrText('number', option.range ?? {}, DECIMAL_TEXT_PATTERN);
    case 'boolean':
      return { anyOf: [{ type: 'boolean' }, { type: 'string', pattern: BOOLEAN_TEXT_PATTERN }] };
    case 'enum': {
      const words = [...(option.values ?? []), ...(option.aliases ?? []).map(([alias]) => alias)];
      return { type: 'string', pattern: anyOfWordsPattern(words), examples: [...(option.values ?? [])] };
    }
    case 'string':
      return { type: 'string', pattern: NON_BLANK_PATTERN };
  }
}

/** The range is checked on the number form only; text forms are range-checked by the validator. */
function numberOrText(type: 'integer' | 'number', range: NumericRange, pattern: string): JsonSchema {
  return { anyOf: [{ type, ...rangeKeywords(range) }, { type: 'string', pattern }] };
}

function withSentinel(option: FlinkOption, schema: JsonSchema): JsonSchema {
  if (!option.sentinel) return schema;
  return { anyOf: [{ const: option.sentinel.value }, ...(schema.anyOf as JsonSchema[])] };
}

export function rangeKeywords(range: NumericRange): JsonSchema {
  const keywords: JsonSchema = {};
  if (range.min !== undefined) keywords[range.minExclusive ? 'exclusiveMinimum' : 'minimum'] = range.min;
  if (range.max !== undefined) keywords[range.maxExclusive ? 'exclusiveMaximum' : 'maximum'] = range.max;
  return keywords;
}
