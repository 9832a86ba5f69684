/**
 * The job's keyed state as a flow, as a `scale` section describes it: its size grows at
 * `state_growth_per_s` while the job processes, and `state_churn_per_s` of it is rewritten, which
 * with `compaction_per_s` makes the new SST files an incremental checkpoint uploads (what changed
 * since the last checkpoint that completed: Flink's RocksDB backend re-uses the files that
 * checkpoint confirmed). The state is spread evenly over every keyed subtask. A full snapshot
 * uploads the whole state; a restore brings back the checkpoint's.
 */
import type { ScaleSpec } from '../scenario/scenario-types.ts';
import type { KeyedStateModel, StateAtSnapshot } from './keyed-state-model.ts';
import type { JobFlows } from './vertex-flows.ts';

export class KeyedStateFlow implements KeyedStateModel {
  readonly #spec: ScaleSpec;
  #bytes: number;
  /** job time spent processing so far, ms: state changes only while the job runs */
  #activeMs = 0;
  /** processing time at the snapshot of the last completed checkpoint (or the restore) */
  #cleanAtMs = 0;
  #processingSince: number | undefined;
  /** the whole job's keyed state at each snapshot, for the restore to bring back */
  readonly #jobBytes = new WeakMap<StateAtSnapshot, number>();

  constructor(spec: ScaleSpec) {
    this.#spec = spec;
    this.#bytes = spec.state_size_bytes;
  }

  setProcessing(processing: boolean, now: number): void {
    this.#settle(now);
    this.#processingSince = processing ? now : undefined;
  }

  bytes(now: number): number {
    this.#settle(now);
    return this.#bytes;
  }

  snapshot(now: number, consumed: number, flows: JobFlows): StateAtSnapshot {
    this.#settle(now);
    const changedPerS = this.#spec.state_churn_bytes_per_s + this.#spec.state_growth_bytes_per_s + this.#spec.compaction_bytes_per_s;
    const dirty = Math.min(this.#bytes, (changedPerS * (this.#activeMs - this.#cleanAtMs)) / 1000);
    const keyedSubtasks = flows.vertices.reduce((n, v) => n + (v.keyed ? v.vertex.parallelism : 0), 0);
    const even = (total: number) => flows.vertices.map((f) => (f.keyed ? new Array<number>(f.vertex.parallelism).fill(total / keyedSubtasks) : []));
    const snapshot = { activeMs: this.#activeMs, consumed, keyedBytes: even(this.#bytes), dirtyBytes: even(dirty), timers: [] };
    this.#jobBytes.set(snapshot, this.#bytes);
    return snapshot;
  }

  confirmed(snapshot: StateAtSnapshot): void {
    this.#cleanAtMs = Math.max(this.#cleanAtMs, snapshot.activeMs);
  }

  restored(snapshot: StateAtSnapshot, now: number): void {
    this.#settle(now);
    this.#bytes = this.#jobBytes.get(snapshot) ?? this.#bytes;
    this.#cleanAtMs = this.#activeMs;
  }

  #settle(now: number): void {
    if (this.#processingSince === undefined || now <= this.#processingSince) return;
    const dt = now - this.#processingSince;
    this.#activeMs += dt;
    this.#bytes += (this.#spec.state_growth_bytes_per_s * dt) / 1000;
    this.#processingSince = now;
  }
}
