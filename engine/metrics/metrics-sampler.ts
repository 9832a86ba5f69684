import type { StreamTask } from '../task/stream-task.ts';
import type { ExecutionState } from '../task/task-lifecycle.ts';

/** Figures of one subtask, named as Flink's task metrics. */
export interface SubtaskMetrics {
  vertexId: string;
  subtaskIndex: number;
  status: ExecutionState;
  numRecordsIn: number;
  numRecordsOut: number;
  numBytesIn: number;
  numBytesOut: number;
  /** over the last sampled second: ms busy, backpressured and idle (they add up to about 1000) */
  busyTimeMsPerSecond: number;
  backPressuredTimeMsPerSecond: number;
  idleTimeMsPerSecond: number;
  /** buffers queued at the subtask's inputs (inPoolUsage in Flink's terms, as a count) */
  inputQueueLength: number;
  /** buffers waiting for credit at its outputs */
  outputQueueLength: number;
  stateSizeBytes: number;
  /** source subtasks: the offset in the split (next record) */
  sourceOffset?: number;
  /**
   * source subtasks: Flink's standard source metric (FLIP-33), the records its split made
   * available by now that it has not emitted yet: the backlog, like a Kafka partition's consumer lag
   */
  pendingRecords?: number;
  /** rocksdb backends: RocksDB's native metrics by property name (state.backend.rocksdb.metrics.*) */
  rocksdb?: Record<string, number>;
}

export interface VertexMetrics {
  numRecordsIn: number;
  numRecordsOut: number;
  /** the highest of the subtasks, as the Flink UI shows a vertex's backpressure */
  backPressuredTimeMsPerSecond: number;
  busyTimeMsPerSecond: number;
  /** source vertices: the pendingRecords of their subtasks, summed */
  pendingRecords?: number;
}

export interface JobMetrics {
  /** virtual time of the snapshot, ms */
  time: number;
  vertices: Record<string, VertexMetrics>;
  subtasks: SubtaskMetrics[];
}

/**
 * The job's metrics from its subtasks' figures (the sim's tasks, or what live TaskManagers send
 * with their heartbeats): per vertex, records add up and the busiest / most backpressured
 * subtask speaks for the vertex, as the Flink UI shows it.
 */
export function jobMetricsOf(subtasks: readonly SubtaskMetrics[], time: number): JobMetrics {
  const vertices: Record<string, VertexMetrics> = {};
  for (const s of subtasks) {
    const v = (vertices[s.vertexId] ??= { numRecordsIn: 0, numRecordsOut: 0, backPressuredTimeMsPerSecond: 0, busyTimeMsPerSecond: 0 });
    v.numRecordsIn += s.numRecordsIn;
    v.numRecordsOut += s.numRecordsOut;
    v.backPressuredTimeMsPerSecond = Math.max(v.backPressuredTimeMsPerSecond, s.backPressuredTimeMsPerSecond);
    v.busyTimeMsPerSecond = Math.max(v.busyTimeMsPerSecond, s.busyTimeMsPerSecond);
    if (s.pendingRecords !== undefined) v.pendingRecords = (v.pendingRecords ?? 0) + s.pendingRecords;
  }
  return { time, vertices, subtasks: [...subtasks] };
}

interface Sample {
  time: number;
  busy: number;
  backpressured: number;
  idle: number;
}

/**
 * Turns the tasks' cumulative busy / backpressured / idle times into per-second figures, the way
 * Flink's TimerGauges report them: at each sample, the share of the last interval.
 */
export class MetricsSampler {
  #previous = new Map<StreamTask, Sample>();
  #rates = new Map<StreamTask, { busy: number; backpressured: number; idle: number }>();

  sample(tasks: readonly StreamTask[], now: number): void {
    for (const task of tasks) {
      task.metrics.settle(now);
      const m = task.metrics;
      const prev = this.#previous.get(task) ?? { time: 0, busy: 0, backpressured: 0, idle: 0 };
      const span = now - prev.time;
      if (span > 0) {
        const scale = 1000 / span;
        this.#rates.set(task, {
          busy: Math.round((m.busyMs - prev.busy) * scale),
          backpressured: Math.round((m.backpressuredMs - prev.backpressured) * scale),
          idle: Math.round((m.idleMs - prev.idle) * scale),
        });
      }
      this.#previous.set(task, { time: now, busy: m.busyMs, backpressured: m.backpressuredMs, idle: m.idleMs });
    }
  }

  snapshot(tasks: readonly StreamTask[], now: number): JobMetrics {
    return jobMetricsOf(tasks.map((t) => this.#subtask(t, now)), now);
  }

  #subtask(t: StreamTask, now: number): SubtaskMetrics {
    const rate = this.#rates.get(t) ?? { busy: 0, backpressured: 0, idle: 0 };
    const m = t.metrics;
    const s: SubtaskMetrics = {
      vertexId: t.id.vertexId,
      subtaskIndex: t.id.subtaskIndex,
      status: t.lifecycle.state,
      numRecordsIn: m.numRecordsIn,
      numRecordsOut: m.numRecordsOut,
      numBytesIn: m.numBytesIn,
      numBytesOut: m.numBytesOut,
      busyTimeMsPerSecond: rate.busy,
      backPressuredTimeMsPerSecond: rate.backpressured,
      idleTimeMsPerSecond: rate.idle,
      inputQueueLength: t.gates.reduce((n, g) => n + g.queuedBuffers, 0),
      outputQueueLength: t.router.subpartitions.reduce((n, p) => n + p.backlog, 0),
      stateSizeBytes: t.keyedState?.stateSizeBytes() ?? 0,
    };
    if (t.sourceOffset !== undefined) s.sourceOffset = t.sourceOffset;
    const pending = t.sourcePendingRecords(now);
    if (pending !== undefined) s.pendingRecords = pending;
    const native = t.keyedState?.nativeMetrics?.();
    if (native) s.rocksdb = native;
    return s;
  }
}
