/**
 * Reads the fault schedule. Each fault names a time (`at`, Flink duration syntax) and what breaks;
 * whatever it names must exist: a vertex and one of its subtasks, a TaskManager `tm-<n>` with n
 * from 0 to hosts × task_managers_per_host − 1, or a host `host-<n>` with n below hosts.
 */

import { quote } from '../config/value-description.ts';
import { didYouMean } from './did-you-mean.ts';
import { type Issues, type ListItem, ObjectReader } from './field-reader.ts';
import type { ClusterSpec, FaultSpec } from './scenario-types.ts';
import { CHECKPOINT_TRIGGER_TYPES, FAULT_FIELDS, FAULT_TYPES } from './scenario-vocabulary.ts';
import type { VertexEntry } from './vertex-reader.ts';
import { MAX_SLOWDOWN_FACTOR } from './workload-limits.ts';
import { message } from '../messages/engine-message.ts';

export interface FaultContext {
  issues: Issues;
  vertices: VertexEntry[];
  cluster: ClusterSpec | undefined;
}

export function readFaults(context: FaultContext, items: ListItem[]): FaultSpec[] | undefined {
  const faults = items.map((item) => readFault(context, item));
  return faults.every((f) => f !== undefined) ? (faults as FaultSpec[]) : undefined;
}

function readFault(context: FaultContext, item: ListItem): FaultSpec | undefined {
  const fault = ObjectReader.of(context.issues, item.path, item.value, 'a fault');
  if (!fault) return undefined;
  const type = fault.oneOf('type', FAULT_TYPES, { required: true, what: 'fault type' });
  const at = fault.duration('at', { required: true, min: 0 });
  fault.rejectUnknown(type === undefined ? [...new Set(Object.values(FAULT_FIELDS).flat())] : FAULT_FIELDS[type]);
  if (type === undefined) return undefined;
  const rest = readFaultTarget(context, fault, type);
  return at === undefined || rest === undefined ? undefined : ({ at_ms: at, type, ...rest } as FaultSpec);
}

type FaultTarget = Record<string, string | number | boolean>;

/** What a fault of `type` names (its vertex, subtask, TaskManager or host), each checked to exist; a session's recorded faults are read with it too. */
export function readFaultTarget(context: FaultContext, fault: ObjectReader, type: FaultSpec['type']): FaultTarget | undefined {
  switch (type) {
    case 'fail-task':
      return readSubtask(context, fault);
    case 'slow-operator': {
      const vertex = readVertexId(context, fault);
      const factor = fault.number('factor', { required: true, min: 0, above: true, max: MAX_SLOWDOWN_FACTOR });
      return vertex === undefined || factor === undefined ? undefined : { vertex: vertex.id!, factor };
    }
    case 'slow-remote-storage': {
      const factor = fault.number('factor', { required: true, min: 0, above: true, max: MAX_SLOWDOWN_FACTOR });
      return factor === undefined ? undefined : { factor };
    }
    case 'fail-remote-storage':
    case 'heal-remote-storage':
      return {};
    case 'stall-task-manager':
    case 'kill-task-manager': {
      const count = context.cluster && context.cluster.hosts * context.cluster.task_managers_per_host;
      const name = readNumberedName(fault, 'task_manager', 'tm', count);
      return name === undefined ? undefined : { task_manager: name };
    }
    case 'lose-host': {
      const name = readNumberedName(fault, 'host', 'host', context.cluster?.hosts);
      return name === undefined ? undefined : { host: name };
    }
    case 'trigger-checkpoint': {
      const checkpointType = fault.oneOf('checkpoint_type', CHECKPOINT_TRIGGER_TYPES, { what: 'checkpoint type' });
      return checkpointType === undefined ? (fault.has('checkpoint_type') ? undefined : {}) : { checkpoint_type: checkpointType };
    }
    case 'trigger-savepoint':
      return {};
    case 'stop-with-savepoint': {
      const drain = fault.boolean('drain');
      return drain === undefined ? (fault.has('drain') ? undefined : {}) : { drain };
    }
    case 'corrupt-local-copy':
    case 'delete-local-copy': {
      const host = readNumberedName(fault, 'host', 'host', context.cluster?.hosts);
      const subtask = readSubtask(context, fault);
      const run = fault.string('run', { allowed: message('phrase', { text: 'the name of a shared run of the subtask (from the host disk listing)' }) });
      const keyGroup = fault.integer('key_group', { min: 0 });
      if (host === undefined || subtask === undefined) return undefined;
      return { host, ...subtask, ...(run === undefined ? {} : { run }), ...(keyGroup === undefined ? {} : { key_group: keyGroup }) };
    }
  }
}

function readVertexId(context: FaultContext, fault: ObjectReader): VertexEntry | undefined {
  const ids = context.vertices.map((v) => v.id).filter((id): id is string => id !== undefined);
  const id = fault.string('vertex', { required: true, allowed: message('phrase', { text: 'the id of a vertex' }) });
  if (id === undefined) return undefined;
  const vertex = context.vertices.find((v) => v.id === id);
  if (vertex) return vertex;
  const suggestion = didYouMean(id, ids);
  fault.issues.error(fault.pathOf('vertex'), message('graph.unknown-vertex', { id: quote(id) }), {
    allowed: ids.length > 0 ? message('names', { names: ids }) : message('phrase', { text: 'the id of a vertex' }),
    ...(suggestion === undefined ? {} : { suggestion }),
  });
  return undefined;
}

/** A vertex id and a subtask index of it, both checked against the job (faults and the restore-source expectation name subtasks so). */
export function readSubtask(context: FaultContext, fault: ObjectReader): FaultTarget | undefined {
  const vertex = readVertexId(context, fault);
  const subtask = fault.integer('subtask', { required: true, min: 0 });
  if (vertex === undefined || subtask === undefined || vertex.parallelism === undefined) return undefined;
  if (subtask >= vertex.parallelism) {
    fault.issues.error(
      fault.pathOf('subtask'),
      message('graph.no-subtask', { id: vertex.id!, parallelism: vertex.parallelism, subtask }),
      { allowed: message('allowed.subtask-index', { last: vertex.parallelism - 1 }) },
    );
    return undefined;
  }
  return { vertex: vertex.id!, subtask };
}

/** `tm-3`, `host-0`: the prefix and an index below `count` (unchecked when the cluster is invalid). */
function readNumberedName(fault: ObjectReader, key: string, prefix: string, count: number | undefined): string | undefined {
  const allowed = count === undefined ? message('allowed.numbered-name', { prefix }) : message('names', { names: [namesUpTo(prefix, count)] });
  const name = fault.string(key, { required: true, pattern: new RegExp(`^${prefix}-(0|[1-9][0-9]*)$`), allowed });
  if (name === undefined) return undefined;
  const index = Number(name.slice(prefix.length + 1));
  if (count === undefined || index < count) return name;
  fault.issues.error(fault.pathOf(key), message('cluster.no-such', { name }), { allowed });
  return undefined;
}

function namesUpTo(prefix: string, count: number): string {
  return count === 1 ? `${prefix}-0` : `${prefix}-0 … ${prefix}-${count - 1}`;
}
