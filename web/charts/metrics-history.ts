/**
 * The figures the charts plot over the run, sampled from the driver once per virtual second
 * (throughput, backpressure, the sources' pendingRecords), once per completed checkpoint (duration, checkpointed and full
 * size, alignment, start delay) and once per restore (duration from local copies and from remote
 * storage). Plain columns of numbers, as uPlot takes them; `version` changes whenever one grew.
 *
 * The sim driver samples after every slice of virtual time, so a fast-forward still yields one
 * point per second. A restart resets the tasks' counters: a rate never goes below zero.
 */
import type { CheckpointStatisticsDocument, TaskCheckpointStatisticsWithSubtaskDetailsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import type { Topology } from '../../engine/job/topology.ts';
import type { JobMetrics } from '../../engine/metrics/metrics-sampler.ts';
import type { JobEvent, RestoreRecord } from '../../engine/run/job-events.ts';

/** What the history reads: the sim driver satisfies it. */
export interface HistorySource {
  readonly now: number;
  readonly events: readonly JobEvent[];
  readonly restores: readonly RestoreRecord[];
  metrics(): JobMetrics;
  topology(): Topology;
  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined;
  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined;
}

/** Per virtual second. */
export interface SecondSeries {
  /** virtual time, seconds */
  time: number[];
  /** records per second out of the sources, and into the sinks */
  sourceOut: number[];
  sinkIn: number[];
  /** per vertex: the highest backPressuredTimeMsPerSecond of its subtasks (as Flink's UI shows a vertex) */
  backpressure: Record<string, number[]>;
  /**
   * the sources' pendingRecords (Flink's FLIP-33 source metric: records available but not read
   * yet), all source subtasks together; null when none reported (live, between attempts)
   */
  pendingRecords: (number | null)[];
  /** rocksdb backends, all subtasks together: flushes, compactions, write stalls and block cache misses in each second */
  rocksdb: { flushes: number[]; compactions: number[]; writeStalls: number[]; blockCacheMisses: number[] };
}

/** The RocksDB counters the charts follow, by property name (SubtaskMetrics.rocksdb). */
const ROCKSDB_COUNTERS = {
  flushes: 'lsm.flush.count',
  compactions: 'lsm.compaction.count',
  writeStalls: 'lsm.write-stall.count',
  blockCacheMisses: 'rocksdb.block.cache.miss',
} as const;
type RocksDbCounter = keyof typeof ROCKSDB_COUNTERS;

/** Per completed checkpoint, at its completion time. */
export interface CheckpointSeries {
  time: number[];
  id: number[];
  durationMs: number[];
  checkpointedBytes: number[];
  fullBytes: number[];
  /** the longest alignment and start delay of any subtask */
  alignmentMs: number[];
  startDelayMs: number[];
}

/** Per restore: the slowest subtask that read a local copy, and the slowest that read remote storage (null: none did). */
export interface RestoreSeries {
  time: number[];
  checkpointId: number[];
  localMs: (number | null)[];
  remoteMs: (number | null)[];
}

const SAMPLE_MS = 1000;
/** An hour of seconds; older points are dropped. */
const MAX_POINTS = 3600;

export class MetricsHistory {
  version = 0;
  vertices: { id: string; name: string }[] = [];
  readonly seconds: SecondSeries = { time: [], sourceOut: [], sinkIn: [], backpressure: {}, pendingRecords: [], rocksdb: { flushes: [], compactions: [], writeStalls: [], blockCacheMisses: [] } };
  /** some subtask reported RocksDB metrics (state.backend.type: rocksdb) */
  hasRocksDb = false;
  readonly checkpoints: CheckpointSeries = { time: [], id: [], durationMs: [], checkpointedBytes: [], fullBytes: [], alignmentMs: [], startDelayMs: [] };
  readonly restores: RestoreSeries = { time: [], checkpointId: [], localMs: [], remoteMs: [] };

  #nextSampleAt = SAMPLE_MS;
  #lastTime = 0;
  #lastSourceOut = 0;
  #lastSinkIn = 0;
  /** each rocksdb subtask's counters at the last sample */
  #lastRocksDb = new Map<string, Record<RocksDbCounter, number>>();
  #eventsSeen = 0;
  #restoresSeen = 0;
  #sources = new Set<string>();
  #sinks = new Set<string>();

  constructor(topology: Topology) {
    this.vertices = topology.vertices.map((v) => ({ id: v.id, name: v.name }));
    for (const v of topology.vertices) {
      if (v.type === 'source') this.#sources.add(v.id);
      if (v.type === 'sink') this.#sinks.add(v.id);
      this.seconds.backpressure[v.id] = [];
    }
  }

  /** Called after every advance of the clock; samples what is due. */
  sample(source: HistorySource): void {
    let grew = this.#takeCheckpoints(source);
    grew = this.#takeRestores(source) || grew;
    if (source.now >= this.#nextSampleAt) {
      this.#sampleSecond(source);
      this.#nextSampleAt = (Math.floor(source.now / SAMPLE_MS) + 1) * SAMPLE_MS;
      grew = true;
    }
    if (grew) this.version++;
  }

  #sampleSecond(source: HistorySource): void {
    const metrics = source.metrics();
    let sourceOut = 0;
    let sinkIn = 0;
    let pendingRecords: number | null = null;
    const backpressure = new Map<string, number>();
    for (const s of metrics.subtasks) {
      if (this.#sources.has(s.vertexId)) sourceOut += s.numRecordsOut;
      if (this.#sinks.has(s.vertexId)) sinkIn += s.numRecordsIn;
      if (s.pendingRecords !== undefined) pendingRecords = (pendingRecords ?? 0) + s.pendingRecords;
      backpressure.set(s.vertexId, Math.max(backpressure.get(s.vertexId) ?? 0, s.backPressuredTimeMsPerSecond));
    }
    const span = (source.now - this.#lastTime) / 1000;
    // A counter that went down was restarted (a restore builds new tasks): all of it is new.
    const rate = (now: number, before: number) => (span > 0 ? Math.max(0, now >= before ? now - before : now) / span : 0);
    const rocksdb = this.#rocksDbIncrements(metrics.subtasks);
    if (rocksdb) this.hasRocksDb = true;
    const seconds = this.seconds;
    seconds.time.push(source.now / 1000);
    seconds.sourceOut.push(Math.round(rate(sourceOut, this.#lastSourceOut)));
    seconds.sinkIn.push(Math.round(rate(sinkIn, this.#lastSinkIn)));
    seconds.pendingRecords.push(pendingRecords);
    for (const v of this.vertices) seconds.backpressure[v.id]!.push(backpressure.get(v.id) ?? 0);
    for (const counter of Object.keys(ROCKSDB_COUNTERS) as RocksDbCounter[]) {
      seconds.rocksdb[counter].push(span > 0 ? Math.round(((rocksdb?.[counter] ?? 0) / span) * 100) / 100 : 0);
    }
    this.#lastTime = source.now;
    this.#lastSourceOut = sourceOut;
    this.#lastSinkIn = sinkIn;
    if (seconds.time.length > MAX_POINTS) {
      const drop = seconds.time.length - MAX_POINTS;
      for (const column of [seconds.time, seconds.sourceOut, seconds.sinkIn, seconds.pendingRecords, ...Object.values(seconds.backpressure), ...Object.values(seconds.rocksdb)]) column.splice(0, drop);
    }
  }

  /**
   * What the rocksdb subtasks' counters grew by since the last sample, summed; undefined when no
   * subtask reports them. A counter below its last value belongs to a new task (a restore): all
   * of it is new.
   */
  #rocksDbIncrements(subtasks: JobMetrics['subtasks']): Record<RocksDbCounter, number> | undefined {
    let increments: Record<RocksDbCounter, number> | undefined;
    for (const s of subtasks) {
      if (!s.rocksdb) continue;
      increments ??= { flushes: 0, compactions: 0, writeStalls: 0, blockCacheMisses: 0 };
      const key = `${s.vertexId}#${s.subtaskIndex}`;
      const before = this.#lastRocksDb.get(key);
      const now = { flushes: 0, compactions: 0, writeStalls: 0, blockCacheMisses: 0 };
      for (const counter of Object.keys(ROCKSDB_COUNTERS) as RocksDbCounter[]) {
        now[counter] = s.rocksdb[ROCKSDB_COUNTERS[counter]] ?? 0;
        const last = before?.[counter] ?? 0;
        increments[counter] += now[counter] >= last ? now[counter] - last : now[counter];
      }
      this.#lastRocksDb.set(key, now);
    }
    return increments;
  }

  #takeCheckpoints(source: HistorySource): boolean {
    const events = source.events;
    let grew = false;
    for (; this.#eventsSeen < events.length; this.#eventsSeen++) {
      const event = events[this.#eventsSeen]!;
      if (event.type !== 'checkpoint-completed') continue;
      const details = source.checkpointDetails(event.checkpointId);
      if (!details) continue;
      let alignment = 0;
      let startDelay = 0;
      for (const vertex of this.vertices) {
        const task = source.taskCheckpointStatistics(event.checkpointId, vertex.id);
        if (!task) continue;
        alignment = Math.max(alignment, task.summary.alignment.duration.max);
        startDelay = Math.max(startDelay, task.summary.start_delay.max);
      }
      const c = this.checkpoints;
      c.time.push(event.time / 1000);
      c.id.push(event.checkpointId);
      c.durationMs.push(details.end_to_end_duration);
      c.checkpointedBytes.push(details.checkpointed_size);
      c.fullBytes.push(details.state_size);
      c.alignmentMs.push(alignment);
      c.startDelayMs.push(startDelay);
      grew = true;
    }
    return grew;
  }

  #takeRestores(source: HistorySource): boolean {
    const restores = source.restores;
    let grew = false;
    for (; this.#restoresSeen < restores.length; this.#restoresSeen++) {
      const restore = restores[this.#restoresSeen]!;
      let local: number | null = null;
      let remote: number | null = null;
      for (const s of restore.subtasks) {
        if (s.bytes === 0) continue;
        if (s.source === 'local') local = Math.max(local ?? 0, s.durationMs);
        else remote = Math.max(remote ?? 0, s.durationMs);
      }
      const r = this.restores;
      r.time.push(restore.time / 1000);
      r.checkpointId.push(restore.checkpointId);
      r.localMs.push(local);
      r.remoteMs.push(remote);
      grew = true;
    }
    return grew;
  }
}
