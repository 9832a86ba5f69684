import type {
  AlignmentType,
  CheckpointBarrier,
  DataBuffer,
  EventBuffer,
  PollOutcome,
  StreamRecord,
  TaskEffect,
  TaskStateSnapshot,
} from '../../engine/protocol.ts';
import type { OperatorSpec, Partitioning } from '../../engine/scenario/scenario-types.ts';
import type { KeyedStateSnapshot, StateValue } from '../../engine/state/keyed-state-backend.ts';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import { StreamTask, type TaskRestore } from '../../engine/task/stream-task.ts';
import type { TaskDeployment } from '../../engine/task/task-deployment.ts';
import type { CheckpointingMode } from '../../engine/config/flink-config.ts';

/** Channel ids the harness uses: inputs 10, 11, …; outputs 100, 101, … */
export const IN_A = 10;
export const IN_B = 11;
export const OUT = 100;

const RECORD_BYTES = 100;
const MAX_PARALLELISM = 128;

export interface DeploymentOptions {
  operator: OperatorSpec;
  /** one gate per entry, each the channel ids of that input */
  inputGates?: number[][];
  /** output channels of one edge */
  outputChannels?: number[];
  partitioning?: Partitioning;
  recordsPerBuffer?: number;
  creditsPerChannel?: number;
  recordCostUs?: number;
  checkpointingMode?: CheckpointingMode;
  /** execution.checkpointing.checkpoints-after-tasks-finish (default on, as in Flink) */
  checkpointsAfterTasksFinish?: boolean;
  /** periodic checkpointing on (default off: a task whose input ended finishes at once) */
  checkpointingEnabled?: boolean;
}

/** A TaskDeployment built by hand: one subtask (index 0, all key groups) of a vertex "task". */
export function deployment(options: DeploymentOptions): TaskDeployment {
  const outputs = options.outputChannels ?? [OUT];
  return {
    vertex: { id: 'task', name: 'task', parallelism: 1, record_cost_us: options.recordCostUs ?? 1000, operator: options.operator },
    subtaskIndex: 0,
    maxParallelism: MAX_PARALLELISM,
    keyGroupRange: { start: 0, end: MAX_PARALLELISM - 1 },
    inputGates: options.inputGates ?? [],
    outputs: outputs.length === 0 ? [] : [{ partitioning: options.partitioning ?? 'forward', channelIds: outputs, downstreamParallelism: outputs.length, downstreamMaxParallelism: MAX_PARALLELISM }],
    recordsPerBuffer: options.recordsPerBuffer ?? 4,
    recordSizeBytes: RECORD_BYTES,
    creditsPerChannel: options.creditsPerChannel ?? 8,
    bufferTimeout: 100_000,
    autoWatermarkInterval: 100_000,
    seed: 1,
    attempt: 0,
    incrementalCheckpoints: false,
    snapshotCompression: false,
    checkpointingMode: options.checkpointingMode ?? 'EXACTLY_ONCE',
    checkpointsAfterTasksFinish: options.checkpointsAfterTasksFinish ?? true,
    checkpointingEnabled: options.checkpointingEnabled ?? false,
  };
}

/** A one-input keyed count whose gate has two channels, A and B. */
export const keyedCountTwoChannels = (o: Partial<DeploymentOptions> = {}) =>
  deployment({ operator: { type: 'keyed-aggregate', aggregate: 'count' }, inputGates: [[IN_A, IN_B]], ...o });

/** A two-input window join: gate 0 (left) has channel A, gate 1 (right) channel B. */
export const windowJoin = (o: Partial<DeploymentOptions> = {}) =>
  deployment({ operator: { type: 'window-join', size_ms: 1000 }, inputGates: [[IN_A], [IN_B]], ...o });

export function data(key: string, count: number, timestamp = 0): DataBuffer {
  const records: StreamRecord[] = Array.from({ length: count }, () => ({ key, value: 1, timestamp }));
  return { kind: 'data', records, sizeBytes: count * RECORD_BYTES };
}

export function barrierOf(id: number, o: { timestamp?: number; alignment?: AlignmentType; alignedTimeoutAt?: number } = {}): CheckpointBarrier {
  const alignment = o.alignment ?? 'ALIGNED';
  const barrier: CheckpointBarrier = {
    kind: 'barrier',
    checkpointId: id,
    timestamp: o.timestamp ?? 0,
    checkpointKind: alignment === 'UNALIGNED' || o.alignedTimeoutAt !== undefined ? 'UNALIGNED_CHECKPOINT' : 'CHECKPOINT',
    alignment,
  };
  if (o.alignedTimeoutAt !== undefined) barrier.alignedTimeoutAt = o.alignedTimeoutAt;
  return barrier;
}

/** A barrier on the wire: unaligned ones travel as priority events. */
export function barrier(id: number, o: Parameters<typeof barrierOf>[1] = {}): EventBuffer {
  const event = barrierOf(id, o);
  return { kind: 'event', event, sizeBytes: 32, priority: event.alignment === 'UNALIGNED' };
}

export const cancelMarker = (id: number): EventBuffer => ({ kind: 'event', event: { kind: 'cancel-checkpoint', checkpointId: id }, sizeBytes: 16, priority: false });
export const endOfPartition = (): EventBuffer => ({ kind: 'event', event: { kind: 'end-of-partition' }, sizeBytes: 4, priority: false });

type Persist = Extract<TaskEffect, { type: 'persist-snapshot' }>;
type Send = Extract<TaskEffect, { type: 'send' }>;

/**
 * Drives one StreamTask directly, as the sim driver does: deliver buffers, poll at the end of
 * each busy period, and keep every effect in order.
 */
export class TaskHarness {
  readonly task: StreamTask;
  readonly effects: TaskEffect[] = [];
  now = 0;
  last: PollOutcome | undefined;

  constructor(readonly deployment: TaskDeployment, restore?: TaskRestore) {
    this.task = new StreamTask(deployment, 0, (d) => new HeapKeyedStateBackend(d.keyGroupRange));
    this.task.initialize(restore);
    this.task.run();
  }

  /** Delivers buffers on a channel at the current time. */
  deliver(channelId: number, ...buffers: Array<DataBuffer | EventBuffer>): this {
    for (const b of buffers) this.task.receive(channelId, b);
    return this;
  }

  /** Moves the clock forward (never back). */
  at(time: number): this {
    this.now = Math.max(this.now, time);
    return this;
  }

  /** One poll at the current time; returns its effects (also kept in `effects`). */
  poll(): TaskEffect[] {
    const effects: TaskEffect[] = [];
    this.last = this.task.poll(this.now, effects);
    this.effects.push(...effects);
    return effects;
  }

  /** Polls until the task is neither busy nor able to do more right now; returns the effects. */
  run(maxPolls = 1000): TaskEffect[] {
    const effects: TaskEffect[] = [];
    for (let i = 0; i < maxPolls; i++) {
      effects.push(...this.poll());
      if (this.last?.status !== 'busy') return effects;
      this.now = Math.max(this.now, this.last.until);
    }
    throw new Error(`task still busy after ${maxPolls} polls`);
  }
}

export const snapshotsIn = (effects: TaskEffect[]): Persist[] => effects.filter((e): e is Persist => e.type === 'persist-snapshot');
export const sendsIn = (effects: TaskEffect[], channelId?: number): Send[] =>
  effects.filter((e): e is Send => e.type === 'send' && (channelId === undefined || e.channelId === channelId));
export const creditsIn = (effects: TaskEffect[], channelId: number): number =>
  effects.reduce((n, e) => n + (e.type === 'credit' && e.channelId === channelId ? e.credits : 0), 0);
export const declinesIn = (effects: TaskEffect[]) =>
  effects.filter((e): e is Extract<TaskEffect, { type: 'decline-checkpoint' }> => e.type === 'decline-checkpoint');

/** What a sent buffer is, for order checks: 'data', 'barrier 1', 'cancel 1', 'end'. */
export function kindOf(buffer: DataBuffer | EventBuffer): string {
  if (buffer.kind === 'data') return 'data';
  const e = buffer.event;
  if (e.kind === 'barrier') return `${buffer.priority ? 'priority ' : ''}barrier ${e.checkpointId}`;
  return e.kind === 'cancel-checkpoint' ? `cancel ${e.checkpointId}` : 'end';
}

/** One state of a keyed snapshot as key → value. */
export function keyedValues(snapshot: TaskStateSnapshot, state: string): Record<string, StateValue> {
  const out: Record<string, StateValue> = {};
  for (const group of (snapshot.keyedState as KeyedStateSnapshot).keyGroups) {
    for (const [key, value] of group.states[state] ?? []) out[key] = value;
  }
  return out;
}

/** Records per key across buffers. */
export function recordsPerKey(buffers: readonly DataBuffer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const b of buffers) for (const r of b.records) out[r.key] = (out[r.key] ?? 0) + 1;
  return out;
}
