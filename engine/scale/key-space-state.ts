/**
 * The keyed state of a records scenario run in the scale runtime, derived from its keys as the
 * record-level runtime builds it (key-space.ts). A keyed operator fed over hash edges by sources
 * whose keys are known holds, per subtask by Flink's key groups:
 *
 * - a keyed aggregate: one entry per key its records have carried;
 * - a tumbling window: one entry per key and open window, with its event-time timer (the record's
 *   event time is its offset over the rate; the window before stays open while the watermark,
 *   `pipeline.auto-watermark-interval` behind, has not passed its end);
 * - a window join: a window count per input side, and one timer per key and window seen on either.
 *
 * So the state is a function of how far the sources have read. A snapshot taken when the sources
 * had read `consumed` records holds the entries of the keys seen by then; an incremental one
 * uploads the entries written since the last completed checkpoint's snapshot (a key written many
 * times is one entry in the flushed memtable); a restore rewinds the sources, and the state is the
 * checkpoint's again with it.
 *
 * The keys are a `sequence` or `random` source's, or the words a `split-words` map makes of a
 * `lines` source. What it cannot derive it says (`stateDerivation`): a keyed vertex whose keys
 * come from other data (another map, a filter, a keyed operator upstream). Such a vertex holds no
 * modelled state.
 */
import type { FlinkConfig } from '../config/flink-config.ts';
import { computeOperatorIndexForKeyGroup } from '../keys/key-group-assignment.ts';
import { KeyedAggregateOperator } from '../operators/keyed-aggregate-operator.ts';
import { windowStateKey } from '../operators/tumbling-window.ts';
import type { Scenario, VertexSpec } from '../scenario/scenario-types.ts';
import { KEYED_VERTEX_TYPES } from '../scenario/scenario-vocabulary.ts';
import { entrySizeBytes } from '../state/state-size.ts';
import { hasKnownKeys, KeySpace, type KeyedSource } from './key-space.ts';
import type { KeyedStateModel, StateAtSnapshot } from './keyed-state-model.ts';
import type { JobFlows, VertexFlow } from './vertex-flows.ts';

/** What the key space needs of the execution graph. */
export interface JobGraphView {
  readonly vertices: readonly VertexSpec[];
  maxParallelismOf(vertexId: string): number;
}

/** Why a keyed vertex's state cannot be derived from the scenario's keys. */
export type UnderivedState = 'keys-from-data';

export interface KeyedInput {
  sourceVertex: string;
  source: KeyedSource;
}

/** `windowMs`: a tumbling window's (or window join's) size; `inputs`: one per input edge (two for a join). */
export type StateDerivation = { vertex: string; derived: true; operator: 'keyed-aggregate' | 'window' | 'window-join'; inputs: KeyedInput[]; windowMs?: number } | { vertex: string; derived: false; reason: UnderivedState };

type Derived = Extract<StateDerivation, { derived: true }>;

/** For every keyed vertex of the job: the sources its keys come from, or why there are none. */
export function stateDerivation(scenario: Scenario): StateDerivation[] {
  const byId = new Map(scenario.job.vertices.map((v) => [v.id, v]));
  return scenario.job.vertices
    .filter((v) => (KEYED_VERTEX_TYPES as readonly string[]).includes(v.operator.type))
    .map((v): StateDerivation => {
      const inputs = scenario.job.edges.filter((e) => e.to === v.id).map((e) => (e.partitioning === 'hash' ? keyedInput(scenario, byId, e.from) : undefined));
      const keyed = inputs.flatMap((input) => (input ? [input] : []));
      if (keyed.length === 0 || keyed.length !== inputs.length) return { vertex: v.id, derived: false, reason: 'keys-from-data' };
      const operator = v.operator.type as Derived['operator'];
      const windowMs = v.operator.type === 'window' || v.operator.type === 'window-join' ? { windowMs: v.operator.size_ms } : {};
      return { vertex: v.id, derived: true, operator, inputs: keyed, ...windowMs };
    });
}

/**
 * The keys a hash edge from `from` carries, where known: a `sequence` or `random` source's, or the
 * words a `split-words` map makes of the lines a `lines` source sends it over a forward edge.
 */
function keyedInput(scenario: Scenario, byId: ReadonlyMap<string, VertexSpec>, from: string): KeyedInput | undefined {
  const vertex = byId.get(from)!;
  if (vertex.operator.type === 'source') return hasKnownKeys(vertex.operator.source) ? { sourceVertex: vertex.id, source: vertex.operator.source } : undefined;
  if (vertex.operator.type !== 'map' || vertex.operator.fn !== 'split-words') return undefined;
  const feeding = scenario.job.edges.filter((e) => e.to === vertex.id);
  const lines = feeding.length === 1 && feeding[0]!.partitioning === 'forward' ? byId.get(feeding[0]!.from) : undefined;
  if (lines?.operator.type !== 'source' || lines.operator.source.kind !== 'lines') return undefined;
  return { sourceVertex: lines.id, source: { kind: 'words', lines: lines.operator.source.lines, rate_per_s: lines.operator.source.rate_per_s } };
}

/** The bytes of a key's entry: a count or sum, or one side's window count (its timer is counted apart). */
function entryBytesOf({ windowMs }: Derived): (key: string) => number {
  if (windowMs === undefined) return (key) => entrySizeBytes(key, 0);
  return (key) => entrySizeBytes(windowStateKey(key, windowMs), 0);
}

/** The bytes of a key's event-time timer for the window ending at `windowMs` (end − 1), sized for the first window. */
function timerBytes(key: string, windowMs: number): number {
  return entrySizeBytes(`${windowMs - 1}\u0000${key}`, 0);
}

export class KeySpaceState implements KeyedStateModel {
  readonly #derivations: Map<string, Derived>;
  readonly #graph: () => JobGraphView;
  /** per keyed vertex, parallelism and input (a rescale changes which subtask holds a key) */
  readonly #spaces = new Map<string, KeySpace>();
  /** records the sources had read at the last completed checkpoint's snapshot (or the restore) */
  #cleanAt = 0;
  /** how far the watermark trails the records (`pipeline.auto-watermark-interval`): a window stays open that long after its end */
  readonly #watermarkLagMs: number;
  /** full snapshots are snappy-compressed per key group (snapshot-compression, and no incremental RocksDB) */
  readonly #compressed: boolean;
  /** incremental RocksDB: what changed is uploaded as the SST files of the memtable flushes, one per write buffer filled */
  readonly #writeBufferBytes: number | undefined;

  /** `graph`: the job's vertices as deployed now (a rescale changes their parallelism) and their max parallelism */
  constructor(scenario: Scenario, graph: () => JobGraphView, config: Pick<FlinkConfig, 'autoWatermarkInterval' | 'snapshotCompression' | 'stateBackend' | 'incremental' | 'rocksdbWriteBufferSizeBytes'>) {
    this.#derivations = new Map(stateDerivation(scenario).flatMap((d) => (d.derived ? [[d.vertex, d]] : [])));
    this.#graph = graph;
    this.#watermarkLagMs = config.autoWatermarkInterval;
    this.#compressed = config.snapshotCompression && !(config.stateBackend === 'rocksdb' && config.incremental);
    this.#writeBufferBytes = config.stateBackend === 'rocksdb' && config.incremental ? config.rocksdbWriteBufferSizeBytes : undefined;
  }

  /** Each subtask's share of a keyed vertex's records, from its keys (undefined where not derived, or fed by two sources). */
  recordShare(vertexId: string, parallelism: number): number[] | undefined {
    const derivation = this.#derivations.get(vertexId);
    return derivation?.inputs.length === 1 ? this.#space(derivation, parallelism, 0).recordShare : undefined;
  }

  setProcessing(): void {
    // The state follows the sources' offsets, not the time.
  }

  snapshot(_now: number, consumed: number, flows: JobFlows): StateAtSnapshot {
    const snapshot: StateAtSnapshot = { activeMs: 0, consumed, keyedBytes: [], dirtyBytes: [], timers: [] };
    for (const f of flows.vertices) {
      const derivation = this.#derivations.get(f.vertex.id);
      const vertex = derivation && flows.sourceRatePerS > 0 ? this.#vertexState(derivation, f, flows, consumed) : { keyed: [], dirty: [], timers: [] };
      snapshot.keyedBytes.push(vertex.keyed);
      snapshot.dirtyBytes.push(vertex.dirty);
      snapshot.timers.push(vertex.timers);
    }
    return snapshot;
  }

  confirmed(snapshot: StateAtSnapshot): void {
    this.#cleanAt = Math.max(this.#cleanAt, snapshot.consumed);
  }

  restored(snapshot: StateAtSnapshot): void {
    this.#cleanAt = snapshot.consumed;
  }

  /** One keyed vertex's state per subtask: its entries (bytes, timers included), what changed since the last checkpoint, its timers. */
  #vertexState(derivation: Derived, f: VertexFlow, flows: JobFlows, consumed: number): { keyed: number[]; dirty: number[]; timers: number[] } {
    const p = f.vertex.parallelism;
    const keyed = new Array<number>(p).fill(0);
    const dirty = new Array<number>(p).fill(0);
    /** per open window (oldest first), per input: which keys it holds */
    const windows: Array<Array<{ space: KeySpace; seen: Float64Array }>> = [];
    derivation.inputs.forEach((input, k) => {
      const space = this.#space(derivation, p, k);
      const n = this.#recordsPerSourceSubtask(flows, input.sourceVertex, consumed);
      this.#openRanges(derivation, input.source, n).forEach(([from, to], w) => {
        this.#compress(derivation, space, space.touchedBytes(from, to), n).forEach((b, s) => (keyed[s]! += b));
        if (derivation.windowMs !== undefined) (windows[w] ??= []).push({ space, seen: space.seenPerKey(from, to) });
      });
      const since = this.#recordsPerSourceSubtask(flows, input.sourceVertex, this.#cleanAt);
      (this.#writeBufferBytes === undefined ? space.touchedBytes(since, n) : space.flushedSstBytes(since, n, this.#writeBufferBytes)).forEach((b, s) => (dirty[s]! += b));
    });
    if (derivation.windowMs === undefined) return { keyed, dirty, timers: [] };
    const timers = new Array<number>(p).fill(0);
    for (const window of windows) {
      const held = this.#timers(window, p, derivation.windowMs);
      held.bytes.forEach((b, s) => (keyed[s]! += b));
      held.count.forEach((c, s) => (timers[s]! += c));
    }
    return { keyed, dirty, timers };
  }

  /** One timer per key and open window seen on any input: its probability is that of a key seen on at least one. */
  #timers(inputs: ReadonlyArray<{ space: KeySpace; seen: Float64Array }>, parallelism: number, windowMs: number): { bytes: number[]; count: number[] } {
    const bytes = new Array<number>(parallelism).fill(0);
    const count = new Array<number>(parallelism).fill(0);
    const keys = Math.max(...inputs.map((i) => i.seen.length));
    for (let key = 0; key < keys; key++) {
      const unseen = inputs.reduce((q, i) => q * (1 - (i.seen[key] ?? 0)), 1);
      const owner = inputs.find((i) => key < i.seen.length)!.space.subtaskOfKey(key);
      bytes[owner]! += (1 - unseen) * timerBytes(inputs[0]!.space.keyName(key), windowMs);
      count[owner]! += 1 - unseen;
    }
    return { bytes, count };
  }

  /** A count's full snapshot, compressed as the key space's serialized key groups compress (a window's is left raw). */
  #compress(derivation: Derived, space: KeySpace, bytes: number[], recordsPerSourceSubtask: number): number[] {
    if (!this.#compressed || derivation.operator !== 'keyed-aggregate') return bytes;
    const ratio = space.compressionRatio(KeyedAggregateOperator.STATE, recordsPerSourceSubtask);
    return bytes.map((b, s) => b * ratio[s]!);
  }

  /**
   * The source offsets whose records' keys are still in state, one range per entry they make: all
   * of them for a keyed aggregate; for a tumbling window, each window still open (a record's event
   * time is its offset over the rate): the current one, and the one before while the watermark has
   * not passed its end.
   */
  #openRanges({ windowMs }: Derived, source: KeyedSource, offset: number): Array<[number, number]> {
    if (windowMs === undefined) return [[0, offset]];
    const offsetAt = (eventTime: number) => (eventTime * source.rate_per_s) / 1000;
    const windowStart = Math.floor((offset * 1000) / source.rate_per_s / windowMs) * windowMs;
    const current: [number, number] = [offsetAt(windowStart), offset];
    const previousOpen = windowStart > 0 && (offset * 1000) / source.rate_per_s - windowStart < this.#watermarkLagMs;
    return previousOpen ? [[offsetAt(windowStart - windowMs), offsetAt(windowStart)], current] : [current];
  }

  /** The sources read `consumed` records together; this source read its share, split evenly over its subtasks. */
  #recordsPerSourceSubtask(flows: JobFlows, sourceVertex: string, consumed: number): number {
    const source = flows.vertices.find((v) => v.vertex.id === sourceVertex)!;
    return (consumed * source.inputRatePerS) / flows.sourceRatePerS / source.vertex.parallelism;
  }

  #space(derivation: Derived, parallelism: number, input: number): KeySpace {
    const key = `${derivation.vertex}/${parallelism}/${input}`;
    const known = this.#spaces.get(key);
    if (known) return known;
    const graph = this.#graph();
    const maxParallelism = graph.maxParallelismOf(derivation.vertex);
    const { sourceVertex, source } = derivation.inputs[input]!;
    const sourceParallelism = graph.vertices.find((v) => v.id === sourceVertex)!.parallelism;
    const space = new KeySpace(source, sourceParallelism, maxParallelism, parallelism, (kg) => computeOperatorIndexForKeyGroup(maxParallelism, parallelism, kg), entryBytesOf(derivation));
    this.#spaces.set(key, space);
    return space;
  }
}
