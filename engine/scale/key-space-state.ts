/**
 * The keyed state of a records scenario run in the scale runtime, derived from its keys as the
 * record-level runtime builds it (key-space.ts): a keyed aggregate fed over a hash edge straight
 * from a `sequence` or `random` source holds one entry per key its records have carried, so its
 * state is a function of how far the sources have read, per subtask by Flink's key groups. A
 * snapshot taken when the sources had read `consumed` records holds the entries of the keys seen
 * by then; an incremental one uploads the entries written since the last completed checkpoint's
 * snapshot (a key written many times is one entry in the flushed memtable); a restore rewinds the
 * sources, and the state is the checkpoint's again with it.
 *
 * What it cannot derive it says (`stateDerivation`): a keyed vertex whose keys come from the
 * data (after a map, from `lines`), whose state is windows and timers rather than one entry per
 * key, or that joins two inputs. Such a vertex holds no modelled state.
 */
import type { Scenario, VertexSpec } from '../scenario/scenario-types.ts';
import { computeOperatorIndexForKeyGroup } from '../keys/key-group-assignment.ts';
import { KEYED_VERTEX_TYPES } from '../scenario/scenario-vocabulary.ts';
import { hasKnownKeys, KeySpace, type KeyedSource } from './key-space.ts';
import type { KeyedStateModel, StateAtSnapshot } from './keyed-state-model.ts';
import type { JobFlows } from './vertex-flows.ts';
import { windowStateKey } from '../operators/tumbling-window.ts';
import { KeyedAggregateOperator } from '../operators/keyed-aggregate-operator.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import { entrySizeBytes } from '../state/state-size.ts';

/** What the key space needs of the execution graph. */
export interface JobGraphView {
  readonly vertices: readonly VertexSpec[];
  maxParallelismOf(vertexId: string): number;
}

/** Why a keyed vertex's state cannot be derived from the scenario's keys. */
export type UnderivedState = 'two-inputs' | 'keys-from-data';

/** `windowMs`: a tumbling window's size, whose state is per key and open window, with a timer each. */
export type StateDerivation = { vertex: string; derived: true; sourceVertex: string; source: KeyedSource; windowMs?: number } | { vertex: string; derived: false; reason: UnderivedState };

/** For every keyed vertex of the job: the source its keys come from, or why there is none. */
export function stateDerivation(scenario: Scenario): StateDerivation[] {
  const byId = new Map(scenario.job.vertices.map((v) => [v.id, v]));
  return scenario.job.vertices
    .filter((v) => (KEYED_VERTEX_TYPES as readonly string[]).includes(v.operator.type))
    .map((v): StateDerivation => {
      if (v.operator.type === 'window-join') return { vertex: v.id, derived: false, reason: 'two-inputs' };
      const inputs = scenario.job.edges.filter((e) => e.to === v.id);
      const from = inputs.length === 1 && inputs[0]!.partitioning === 'hash' ? byId.get(inputs[0]!.from) : undefined;
      if (from?.operator.type !== 'source' || !hasKnownKeys(from.operator.source)) return { vertex: v.id, derived: false, reason: 'keys-from-data' };
      const windowMs = v.operator.type === 'window' ? { windowMs: v.operator.size_ms } : {};
      return { vertex: v.id, derived: true, sourceVertex: from.id, source: from.operator.source, ...windowMs };
    });
}

/**
 * One key's state: a count or sum; in a window, the (key, window end) entry and its event-time
 * timer (end − 1), as the window operator writes them, sized for the first window's end.
 */
function entryBytesOf({ windowMs }: StateDerivation & { derived: true }): (key: string) => number {
  if (windowMs === undefined) return (key) => entrySizeBytes(key, 0);
  return (key) => entrySizeBytes(windowStateKey(key, windowMs), 0) + entrySizeBytes(`${windowMs - 1}\u0000${key}`, 0);
}

export class KeySpaceState implements KeyedStateModel {
  readonly #derivations: Map<string, Extract<StateDerivation, { derived: true }>>;
  readonly #graph: () => JobGraphView;
  /** per keyed vertex and parallelism (a rescale changes which subtask holds a key) */
  readonly #spaces = new Map<string, KeySpace>();
  /** records the sources had read at the last completed checkpoint's snapshot (or the restore) */
  #cleanAt = 0;

  /** how far the watermark trails the records (`pipeline.auto-watermark-interval`): a window stays open that long after its end */
  readonly #watermarkLagMs: number;
  /** `graph`: the job's vertices as deployed now (a rescale changes their parallelism) and their max parallelism */
  /** full snapshots are snappy-compressed per key group (snapshot-compression, and no incremental RocksDB) */
  readonly #compressed: boolean;

  constructor(scenario: Scenario, graph: () => JobGraphView, config: Pick<FlinkConfig, 'autoWatermarkInterval' | 'snapshotCompression' | 'stateBackend' | 'incremental'>) {
    this.#derivations = new Map(stateDerivation(scenario).flatMap((d) => (d.derived ? [[d.vertex, d]] : [])));
    this.#graph = graph;
    this.#watermarkLagMs = config.autoWatermarkInterval;
    this.#compressed = config.snapshotCompression && !(config.stateBackend === 'rocksdb' && config.incremental);
  }

  /** Each subtask's share of a keyed vertex's records, from its keys (undefined where not derived). */
  recordShare(vertexId: string, parallelism: number): number[] | undefined {
    return this.#space(vertexId, parallelism)?.recordShare;
  }

  setProcessing(): void {
    // The state follows the sources' offsets, not the time.
  }

  snapshot(_now: number, consumed: number, flows: JobFlows): StateAtSnapshot {
    const perSource = (f: JobFlows['vertices'][number], records: number) => this.#recordsPerSourceSubtask(flows, f, records);
    const space = (f: JobFlows['vertices'][number]) => (flows.sourceRatePerS === 0 ? undefined : this.#space(f.vertex.id, f.vertex.parallelism));
    const held = (f: JobFlows['vertices'][number]) => this.#heldFrom(f.vertex.id, perSource(f, consumed));
    const keyedBytes = flows.vertices.map((f) => {
      const keys = space(f);
      return keys ? this.#compress(f, keys, keys.touchedBytes(held(f), perSource(f, consumed)), perSource(f, consumed)) : [];
    });
    const dirtyBytes = flows.vertices.map((f) => space(f)?.touchedBytes(perSource(f, this.#cleanAt), perSource(f, consumed)) ?? []);
    const timers = flows.vertices.map((f) => (this.#derivations.get(f.vertex.id)?.windowMs === undefined ? [] : (space(f)?.touchedKeys(held(f), perSource(f, consumed)) ?? [])));
    return { activeMs: 0, consumed, keyedBytes, dirtyBytes, timers };
  }

  /** A count's full snapshot, compressed as the key space's serialized key groups compress (a window's is left raw). */
  #compress(f: JobFlows['vertices'][number], space: KeySpace, bytes: number[], recordsPerSourceSubtask: number): number[] {
    if (!this.#compressed || this.#derivations.get(f.vertex.id)?.windowMs !== undefined) return bytes;
    const ratio = space.compressionRatio(KeyedAggregateOperator.STATE, recordsPerSourceSubtask);
    return bytes.map((b, s) => b * ratio[s]!);
  }

  /**
   * The source offset from which the records' keys are still in state: all of them for a keyed
   * aggregate; for a tumbling window, those of the windows still open (the record's event time is
   * its offset over the rate), the one before too while the watermark has not passed its end.
   */
  #heldFrom(vertexId: string, offset: number): number {
    const { windowMs, source } = this.#derivations.get(vertexId)!;
    if (windowMs === undefined) return 0;
    const eventTime = (offset * 1000) / source.rate_per_s;
    const windowStart = Math.floor(eventTime / windowMs) * windowMs;
    const openFrom = eventTime - windowStart < this.#watermarkLagMs ? Math.max(0, windowStart - windowMs) : windowStart;
    return (openFrom * source.rate_per_s) / 1000;
  }

  confirmed(snapshot: StateAtSnapshot): void {
    this.#cleanAt = Math.max(this.#cleanAt, snapshot.consumed);
  }

  restored(snapshot: StateAtSnapshot): void {
    this.#cleanAt = snapshot.consumed;
  }

  /** The sources read `consumed` records together; the vertex's source read its share, split evenly over its subtasks. */
  #recordsPerSourceSubtask(flows: JobFlows, f: JobFlows['vertices'][number], consumed: number): number {
    const source = flows.vertices.find((v) => v.vertex.id === this.#derivations.get(f.vertex.id)!.sourceVertex)!;
    return (consumed * source.inputRatePerS) / flows.sourceRatePerS / source.vertex.parallelism;
  }

  #space(vertexId: string, parallelism: number): KeySpace | undefined {
    const derivation = this.#derivations.get(vertexId);
    if (!derivation) return undefined;
    const key = `${vertexId}/${parallelism}`;
    const known = this.#spaces.get(key);
    if (known) return known;
    const graph = this.#graph();
    const maxParallelism = graph.maxParallelismOf(vertexId);
    const source = graph.vertices.find((v) => v.id === derivation.sourceVertex)!;
    const space = new KeySpace(derivation.source, source.parallelism, maxParallelism, parallelism, (kg) => computeOperatorIndexForKeyGroup(maxParallelism, parallelism, kg), entryBytesOf(derivation));
    this.#spaces.set(key, space);
    return space;
  }
}
