/**
 * Reads the job's vertices: ids, names, parallelism (bounded by Flink's max parallelism), record
 * costs and operators. Ids must be unique, because edges, faults and metrics refer to them.
 */

import type { FlinkConfig } from '../config/flink-config.ts';
import { type Issues, type ListItem, ObjectReader } from './field-reader.ts';
import { readOperator } from './operator-reader.ts';
import { DEFAULT_RECORD_COST_US } from './scenario-defaults.ts';
import { fieldPath } from './scenario-error.ts';
import type { VertexSpec } from './scenario-types.ts';
import {
  OPERATOR_FIELDS,
  VERTEX_BASE_FIELDS,
  VERTEX_ID_ALLOWED,
  VERTEX_ID_PATTERN,
  VERTEX_TYPES,
  type VertexType,
} from './scenario-vocabulary.ts';
import { MAX_RECORD_COST_US } from './workload-limits.ts';
import { message } from '../messages/engine-message.ts';

/** Flink's `UPPER_BOUND_MAX_PARALLELISM` (1 << 15). */
const FLINK_MAX_PARALLELISM = 32_768;

/** A vertex as read, with where it came from; fields that had errors are undefined. */
export interface VertexEntry {
  path: string;
  id: string | undefined;
  type: VertexType | undefined;
  parallelism: number | undefined;
  spec: VertexSpec | undefined;
}

export function readVertices(issues: Issues, items: ListItem[], flink: FlinkConfig): VertexEntry[] {
  const entries = items.map((item) => readVertex(issues, item, flink));
  reportDuplicateIds(issues, entries);
  return entries;
}

function readVertex(issues: Issues, item: ListItem, flink: FlinkConfig): VertexEntry {
  const empty = { path: item.path, id: undefined, type: undefined, parallelism: undefined, spec: undefined };
  const vertex = ObjectReader.of(issues, item.path, item.value, 'a vertex');
  if (!vertex) return empty;
  const id = vertex.string('id', { required: true, pattern: VERTEX_ID_PATTERN, allowed: message('phrase', { text: VERTEX_ID_ALLOWED }) });
  const name = vertex.string('name', { default: id });
  const type = vertex.oneOf('type', VERTEX_TYPES, { required: true, what: 'vertex type' });
  const parallelism = vertex.integer('parallelism', {
    min: 1,
    max: maxParallelismOf(flink),
    default: flink.defaultParallelism,
  });
  checkAgainstMaxParallelism(vertex, parallelism, flink);
  rejectUnknownVertexFields(vertex, type);
  if (type === undefined) return { ...empty, id };
  const recordCost = vertex.number('record_cost_us', { min: 0, max: MAX_RECORD_COST_US, default: DEFAULT_RECORD_COST_US[type] });
  const operator = readOperator(vertex, type);
  const complete = id !== undefined && name !== undefined && parallelism !== undefined && recordCost !== undefined;
  const spec = complete && operator ? { id, name, parallelism, record_cost_us: recordCost, operator } : undefined;
  return { path: item.path, id, type, parallelism, spec };
}

function maxParallelismOf(flink: FlinkConfig): number {
  return flink.maxParallelism === -1 ? FLINK_MAX_PARALLELISM : flink.maxParallelism;
}

/** A default parallelism above the max is reported here too, since no field in the vertex shows it. */
function checkAgainstMaxParallelism(vertex: ObjectReader, parallelism: number | undefined, flink: FlinkConfig): void {
  if (vertex.has('parallelism') || parallelism === undefined) return;
  if (flink.maxParallelism !== -1 && parallelism > flink.maxParallelism) {
    vertex.issues.error(
      vertex.pathOf('parallelism'),
      message('graph.default-parallelism', { parallelism, max: flink.maxParallelism }),
      { allowed: message('allowed.at-most-parallelism', { max: flink.maxParallelism }) },
    );
  }
}

function rejectUnknownVertexFields(vertex: ObjectReader, type: VertexType | undefined): void {
  const operatorFields = type === undefined ? Object.values(OPERATOR_FIELDS).flat() : OPERATOR_FIELDS[type];
  const known = [...new Set([...VERTEX_BASE_FIELDS, ...operatorFields])];
  vertex.rejectUnknown(known, (key) => {
    const owners = VERTEX_TYPES.filter((t) => OPERATOR_FIELDS[t].includes(key));
    return owners.length === 0 || type === undefined
      ? undefined
      : message('field.of-other-vertex', { name: key, type, owners });
  });
}

function reportDuplicateIds(issues: Issues, entries: VertexEntry[]): void {
  entries.forEach((entry, i) => {
    const first = entries.findIndex((e) => e.id !== undefined && e.id === entry.id);
    if (entry.id === undefined || first === i) return;
    issues.error(fieldPath(entry.path, 'id'), message('graph.duplicate-id', { id: entry.id }), {
      allowed: message('allowed.unused-id', { path: fieldPath(entries[first]!.path, 'id') }),
    });
  });
}
