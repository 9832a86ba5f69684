/**
 * Reads the job's edges and settles each one's partitioning the way Flink's DataStream API does:
 * `hash` into a keyed operator (keyBy), `forward` between equal parallelisms, `rebalance`
 * otherwise. An explicit `forward` across different parallelisms is rejected, as Flink rejects it
 * ("Forward partitioning does not allow change of parallelism").
 */

import { quote } from '../config/value-description.ts';
import { didYouMean } from './did-you-mean.ts';
import { type Issues, type ListItem, ObjectReader } from './field-reader.ts';
import type { EdgeSpec, Partitioning } from './scenario-types.ts';
import { EDGE_FIELDS, KEYED_VERTEX_TYPES, PARTITIONINGS, type VertexType } from './scenario-vocabulary.ts';
import type { VertexEntry } from './vertex-reader.ts';
import { message } from '../messages/engine-message.ts';

/** An edge as read; endpoints are undefined when they name no vertex. */
export interface EdgeEntry {
  path: string;
  from: VertexEntry | undefined;
  to: VertexEntry | undefined;
  spec: EdgeSpec | undefined;
}

export function isKeyed(type: VertexType | undefined): boolean {
  return (KEYED_VERTEX_TYPES as readonly (VertexType | undefined)[]).includes(type);
}

export function readEdges(issues: Issues, items: ListItem[], vertices: VertexEntry[]): EdgeEntry[] {
  return items.map((item) => readEdge(issues, item, vertices));
}

function readEdge(issues: Issues, item: ListItem, vertices: VertexEntry[]): EdgeEntry {
  const edge = ObjectReader.of(issues, item.path, item.value, 'an edge');
  if (!edge) return { path: item.path, from: undefined, to: undefined, spec: undefined };
  edge.rejectUnknown(EDGE_FIELDS);
  const from = endpoint(edge, 'from', vertices);
  const to = endpoint(edge, 'to', vertices);
  const explicit = edge.oneOf('partitioning', PARTITIONINGS, { what: 'partitioning' });
  const partitioning = from && to ? settlePartitioning(edge, from, to, explicit) : undefined;
  const spec = from?.id && to?.id && partitioning ? { from: from.id, to: to.id, partitioning } : undefined;
  return { path: item.path, from, to, spec };
}

function endpoint(edge: ObjectReader, key: 'from' | 'to', vertices: VertexEntry[]): VertexEntry | undefined {
  const ids = vertices.map((v) => v.id).filter((id): id is string => id !== undefined);
  const id = edge.string(key, { required: true, allowed: message('phrase', { text: 'the id of a vertex' }) });
  if (id === undefined) return undefined;
  const vertex = vertices.find((v) => v.id === id);
  if (vertex) return vertex;
  const suggestion = didYouMean(id, ids);
  edge.issues.error(edge.pathOf(key), message('graph.unknown-vertex', { id: quote(id) }), {
    allowed: ids.length > 0 ? message('names', { names: ids }) : message('phrase', { text: 'the id of a vertex' }),
    ...(suggestion === undefined ? {} : { suggestion }),
  });
  return undefined;
}

function settlePartitioning(
  edge: ObjectReader,
  from: VertexEntry,
  to: VertexEntry,
  explicit: Partitioning | undefined,
): Partitioning | undefined {
  if (explicit === undefined && edge.has('partitioning')) return undefined;
  const chosen = explicit ?? defaultPartitioning(from, to);
  if (chosen === undefined) return undefined;
  return explicit === undefined || explicitIsValid(edge, from, to, explicit) ? chosen : undefined;
}

function defaultPartitioning(from: VertexEntry, to: VertexEntry): Partitioning | undefined {
  if (isKeyed(to.type)) return 'hash';
  if (from.parallelism === undefined || to.parallelism === undefined) return undefined;
  return from.parallelism === to.parallelism ? 'forward' : 'rebalance';
}

function explicitIsValid(edge: ObjectReader, from: VertexEntry, to: VertexEntry, explicit: Partitioning): boolean {
  const path = edge.pathOf('partitioning');
  if (isKeyed(to.type) && explicit !== 'hash') {
    edge.issues.error(path, message('graph.keyed-needs-hash', { id: String(to.id), type: String(to.type) }), {
      allowed: message('names', { names: ['hash'] }),
    });
    return false;
  }
  const differ = from.parallelism !== undefined && to.parallelism !== undefined && from.parallelism !== to.parallelism;
  if (explicit === 'forward' && differ) {
    edge.issues.error(
      path,
      message('graph.forward-rescale', { from: String(from.id), fromParallelism: from.parallelism!, to: String(to.id), toParallelism: to.parallelism! }),
      { allowed: message('allowed.other-partitionings', { names: PARTITIONINGS.filter((p) => p !== 'forward') }) },
    );
    return false;
  }
  return true;
}
