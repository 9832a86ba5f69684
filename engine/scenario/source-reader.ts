/**
 * Reads a source vertex's `source` map: which records it replays, how fast, and how many.
 * A source with a `count` is bounded; without one it runs until the scenario's run ends.
 */

import type { ObjectReader } from './field-reader.ts';
import { DEFAULT_RANDOM_SOURCE } from './scenario-defaults.ts';
import type { SourceSpec } from './scenario-types.ts';
import { SOURCE_FIELDS, SOURCE_KINDS } from './scenario-vocabulary.ts';
import { MAX_SOURCE_KEYS, MAX_SOURCE_RATE_PER_S } from './workload-limits.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

export function readSource(vertex: ObjectReader): SourceSpec | undefined {
  const source = vertex.object('source', 'a source description', { required: true });
  if (!source) return undefined;
  const kind = source.oneOf('kind', SOURCE_KINDS, { required: true, what: 'source kind' });
  if (kind === undefined) {
    source.rejectUnknown([...new Set(Object.values(SOURCE_FIELDS).flat())]);
    return undefined;
  }
  source.rejectUnknown(SOURCE_FIELDS[kind], (key) => belongsToOtherKind(key, kind));
  if (kind === 'sequence') return readSequence(source);
  if (kind === 'random') return readRandom(source);
  return readLines(source);
}

function belongsToOtherKind(key: string, kind: SourceSpec['kind']): EngineMessage | undefined {
  const owners = SOURCE_KINDS.filter((k) => SOURCE_FIELDS[k].includes(key));
  return owners.length === 0 ? undefined : message('field.of-other-source', { name: key, kind, owners });
}

interface Common {
  rate_per_s: number | undefined;
  count: number | undefined;
  countGiven: boolean;
}

function readCommon(source: ObjectReader): Common {
  return {
    rate_per_s: source.number('rate_per_s', { required: true, min: 0, above: true, max: MAX_SOURCE_RATE_PER_S }),
    count: source.integer('count', { min: 0 }),
    countGiven: source.has('count'),
  };
}

/** `count` is optional in the type: absent means unbounded, so it is only set when given. */
function withCount<T extends object>(spec: T, common: Common): T & { count?: number } {
  return common.count === undefined ? spec : { ...spec, count: common.count };
}

function complete(common: Common, ...others: unknown[]): boolean {
  const countOk = !common.countGiven || common.count !== undefined;
  return countOk && common.rate_per_s !== undefined && others.every((v) => v !== undefined);
}

function readSequence(source: ObjectReader): SourceSpec | undefined {
  const keys = source.integer('keys', { required: true, min: 1, max: MAX_SOURCE_KEYS });
  const common = readCommon(source);
  if (!complete(common, keys)) return undefined;
  return withCount({ kind: 'sequence' as const, keys: keys!, rate_per_s: common.rate_per_s! }, common);
}

function readRandom(source: ObjectReader): SourceSpec | undefined {
  const keys = source.integer('keys', { required: true, min: 1, max: MAX_SOURCE_KEYS });
  const common = readCommon(source);
  const skew = source.number('skew', { min: 0, default: DEFAULT_RANDOM_SOURCE.skew });
  const valueMin = source.integer('value_min', { default: DEFAULT_RANDOM_SOURCE.value_min });
  const valueMax = source.integer('value_max', { default: DEFAULT_RANDOM_SOURCE.value_max });
  if (valueMin !== undefined && valueMax !== undefined && valueMax < valueMin) {
    source.issues.error(source.pathOf('value_max'), message('source.value-range', { max: valueMax, min: valueMin }), {
      allowed: message('allowed.integer', { range: message('bounds', { bounds: [{ word: 'at least', value: `${valueMin}` }] }) }),
    });
    return undefined;
  }
  if (!complete(common, keys, skew, valueMin, valueMax)) return undefined;
  const spec = { kind: 'random' as const, keys: keys!, rate_per_s: common.rate_per_s! };
  return withCount({ ...spec, skew: skew!, value_min: valueMin!, value_max: valueMax! }, common);
}

function readLines(source: ObjectReader): SourceSpec | undefined {
  const items = source.list('lines', 'strings', { required: true, nonEmpty: true });
  const lines = items?.map((item) => {
    if (typeof item.value === 'string') return item.value;
    source.issues.error(item.path, message('source.line-not-string'));
    return undefined;
  });
  const common = readCommon(source);
  if (!lines || lines.some((l) => l === undefined) || !complete(common)) return undefined;
  return withCount({ kind: 'lines' as const, lines: lines as string[], rate_per_s: common.rate_per_s! }, common);
}
