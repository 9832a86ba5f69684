/**
 * What the record-level runtimes can run: a valid scenario that asks for absurd work (a million
 * hosts, parallelism 10,000 on an all-to-all edge, a source that would emit 1e308 records) is
 * refused up front with the figure and the limit, never left to hang or run out of memory.
 *
 * The limits are generous for what the playground teaches (the shipped scenarios use a few
 * hosts and parallelism up to 8) and far below what would exhaust a browser tab: every channel
 * holds network buffers, every subtask its queues, every record costs about 0.3 µs of real time.
 */
import type { Issues } from './field-reader.ts';
import type { ClusterSpec, EdgeSpec, JobSpec, RuntimeKind } from './scenario-types.ts';
import { message } from '../messages/engine-message.ts';

export const MAX_HOSTS = 64;
export const MAX_TASK_MANAGERS_PER_HOST = 32;
export const MAX_SLOTS_PER_TASK_MANAGER = 128;
/** TaskManagers in all (each one a Web Worker in the live runtime) */
export const MAX_TASK_MANAGERS = 256;
/** subtasks of all vertices together */
export const MAX_SUBTASKS = 4096;
/** network channels of all edges together (an all-to-all edge has upstream × downstream) */
export const MAX_CHANNELS = 65_536;
/** distinct keys of a source */
export const MAX_SOURCE_KEYS = 10_000_000;
/** records per second of a source */
export const MAX_SOURCE_RATE_PER_S = 1_000_000_000;
/** records all sources emit in one run (a count, or the rate over `run.until`): about 5 minutes of simulation per hop */
export const MAX_SOURCE_RECORDS = 1_000_000_000;
/** virtual processing time of one record, µs (1,000 s) */
export const MAX_RECORD_COST_US = 1_000_000_000;
/** a slow-operator or slow-remote-storage factor */
export const MAX_SLOWDOWN_FACTOR = 1_000_000;

/**
 * The scale runtime models each subtask by a handful of numbers, never a record or a channel, so
 * it takes production-sized jobs: its limits bound memory (a few numbers per subtask) and the time
 * an hour of job time takes, not the records moved.
 */
export const MAX_SCALE_HOSTS = 10_000;
export const MAX_SCALE_TASK_MANAGERS = 100_000;
export const MAX_SCALE_SUBTASKS = 100_000;

/** The limits of the runtime that runs the scenario. */
export interface WorkloadLimits {
  hosts: number;
  taskManagers: number;
  subtasks: number;
  /** network channels; the scale runtime holds none */
  channels: number;
  /** whether the records the sources emit over the run are bounded (only the record-level runtimes move them) */
  recordsBounded: boolean;
}

export function workloadLimits(runtime: RuntimeKind | undefined): WorkloadLimits {
  return runtime === 'scale'
    ? { hosts: MAX_SCALE_HOSTS, taskManagers: MAX_SCALE_TASK_MANAGERS, subtasks: MAX_SCALE_SUBTASKS, channels: Infinity, recordsBounded: false }
    : { hosts: MAX_HOSTS, taskManagers: MAX_TASK_MANAGERS, subtasks: MAX_SUBTASKS, channels: MAX_CHANNELS, recordsBounded: true };
}

const format = (n: number) => n.toLocaleString('en-US');

/** The channels of one edge between vertices of the given parallelism (forward pairs subtasks up). */
export function edgeChannels(edge: Pick<EdgeSpec, 'partitioning'>, upstream: number, downstream: number): number {
  return edge.partitioning === 'forward' ? Math.max(upstream, downstream) : upstream * downstream;
}

/** Reports the cluster when it has more TaskManagers than the runtimes run. */
export function checkClusterSize(issues: Issues, cluster: ClusterSpec, limits: WorkloadLimits = workloadLimits('records')): void {
  const taskManagers = cluster.hosts * cluster.task_managers_per_host;
  if (taskManagers <= limits.taskManagers) return;
  issues.error('cluster', message('cluster.too-many-task-managers', { count: format(taskManagers), hosts: cluster.hosts, perHost: cluster.task_managers_per_host }), {
    allowed: message('allowed.at-most-task-managers', { count: format(limits.taskManagers) }),
  });
}

/** Reports the job when its subtasks or network channels are more than the runtimes hold. */
export function checkJobSize(issues: Issues, job: JobSpec, limits: WorkloadLimits = workloadLimits('records')): void {
  const parallelism = new Map(job.vertices.map((v) => [v.id, v.parallelism]));
  const subtasks = job.vertices.reduce((n, v) => n + v.parallelism, 0);
  if (subtasks > limits.subtasks) {
    issues.error('job.vertices', message('job.too-many-subtasks', { count: format(subtasks) }), {
      allowed: message('allowed.at-most-subtasks', { count: format(limits.subtasks) }),
    });
  }
  const channels = job.edges.reduce((n, e) => n + edgeChannels(e, parallelism.get(e.from) ?? 1, parallelism.get(e.to) ?? 1), 0);
  if (channels > limits.channels) {
    issues.error('job.edges', message('job.too-many-channels', { count: format(channels) }), {
      allowed: message('allowed.at-most-channels', { count: format(MAX_CHANNELS) }),
    });
  }
}

/** Reports a run whose sources would emit more records than the simulator gets through in minutes. */
export function checkSourceRecords(issues: Issues, job: JobSpec, untilMs: number): void {
  let records = 0;
  for (const v of job.vertices) {
    if (v.operator.type !== 'source') continue;
    // count and rate_per_s are per source subtask (one split each)
    const { count, rate_per_s: rate } = v.operator.source;
    const overRun = untilMs === Infinity ? Infinity : (rate * untilMs) / 1000;
    records += v.parallelism * Math.min(count ?? Infinity, overRun);
  }
  if (records <= MAX_SOURCE_RECORDS) return;
  const figure = Number.isFinite(records) ? format(Math.ceil(records)) : message('phrase', { text: 'unboundedly many' });
  issues.error('run.until', message('run.too-many-records', { figure }), {
    allowed: message('allowed.at-most-records', { count: format(MAX_SOURCE_RECORDS) }),
  });
}
