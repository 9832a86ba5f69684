/**
 * Reads what a vertex does. In the file the operator's fields sit beside the vertex's own
 * (`{ id: count, type: keyed-aggregate, aggregate: count }`); the parsed `VertexSpec` nests them
 * under `operator`.
 */

import type { ObjectReader } from './field-reader.ts';
import { readSource } from './source-reader.ts';
import { DEFAULT_SINK } from './scenario-defaults.ts';
import type { FilterSpec, OperatorSpec } from './scenario-types.ts';
import {
  AGGREGATES,
  FILTER_FIELDS,
  FILTER_FUNCTIONS,
  MAP_FUNCTIONS,
  SINK_KINDS,
  type VertexType,
} from './scenario-vocabulary.ts';

export function readOperator(vertex: ObjectReader, type: VertexType): OperatorSpec | undefined {
  switch (type) {
    case 'source': {
      const source = readSource(vertex);
      return source && { type, source };
    }
    case 'map': {
      const fn = vertex.oneOf('fn', MAP_FUNCTIONS, { required: true, what: 'map function' });
      return fn && { type, fn };
    }
    case 'filter': {
      const filter = readFilter(vertex);
      return filter && { type, filter };
    }
    case 'keyed-aggregate': {
      const aggregate = vertex.oneOf('aggregate', AGGREGATES, { required: true, what: 'aggregate' });
      return aggregate && { type, aggregate };
    }
    case 'window':
      return readWindow(vertex);
    case 'window-join': {
      const size = readWindowSize(vertex);
      return size === undefined ? undefined : { type, size_ms: size };
    }
    case 'sink': {
      const sink = vertex.oneOf('sink', SINK_KINDS, { default: DEFAULT_SINK, what: 'sink kind' });
      return sink && { type, sink };
    }
  }
}

function readWindowSize(vertex: ObjectReader): number | undefined {
  return vertex.duration('size', { required: true, min: 0, above: true });
}

function readWindow(vertex: ObjectReader): OperatorSpec | undefined {
  const size = readWindowSize(vertex);
  const aggregate = vertex.oneOf('aggregate', AGGREGATES, { required: true, what: 'aggregate' });
  if (size === undefined || aggregate === undefined) return undefined;
  return { type: 'window', size_ms: size, aggregate };
}

function readFilter(vertex: ObjectReader): FilterSpec | undefined {
  const filter = vertex.object('filter', 'a filter description', { required: true });
  if (!filter) return undefined;
  const fn = filter.oneOf('fn', FILTER_FUNCTIONS, { required: true, what: 'filter function' });
  if (fn === undefined) {
    filter.rejectUnknown([...new Set(Object.values(FILTER_FIELDS).flat())]);
    return undefined;
  }
  filter.rejectUnknown(FILTER_FIELDS[fn]);
  if (fn === 'value-at-least') {
    const value = filter.number('value', { required: true });
    return value === undefined ? undefined : { fn, value };
  }
  if (fn === 'key-prefix') {
    const prefix = filter.string('prefix', { required: true });
    return prefix === undefined ? undefined : { fn, prefix };
  }
  const n = filter.integer('n', { required: true, min: 1 });
  return n === undefined ? undefined : { fn, n };
}
