/**
 * The job's keyed state as a flow: its size grows at `state_growth_per_s` while the job
 * processes, and `state_churn_per_s` of it is rewritten, which with `compaction_per_s` makes the
 * new SST files an incremental checkpoint uploads (what changed since the last checkpoint that
 * completed: Flink's RocksDB backend re-uses the files that checkpoint confirmed). A full
 * snapshot uploads the whole state; a restore brings back the checkpoint's.
 */
import type { ScaleSpec } from '../scenario/scenario-types.ts';

export interface StateAtSnapshot {
  /** bytes of the whole job's keyed state */
  stateBytes: number;
  /** bytes changed since the last completed checkpoint, at most the state */
  dirtyBytes: number;
  /** processing time (ms) the job had when the snapshot was taken */
  activeMs: number;
}

export class KeyedStateFlow {
  readonly #spec: ScaleSpec;
  #bytes: number;
  /** job time spent processing so far, ms: state changes only while the job runs */
  #activeMs = 0;
  /** processing time at the snapshot of the last completed checkpoint (or the restore) */
  #cleanAtMs = 0;
  #processingSince: number | undefined;

  constructor(spec: ScaleSpec) {
    this.#spec = spec;
    this.#bytes = spec.state_size_bytes;
  }

  /** The job processes (true) or not (false) from `now`. */
  setProcessing(processing: boolean, now: number): void {
    this.#settle(now);
    this.#processingSince = processing ? now : undefined;
  }

  bytes(now: number): number {
    this.#settle(now);
    return this.#bytes;
  }

  snapshot(now: number): StateAtSnapshot {
    this.#settle(now);
    const changedPerS = this.#spec.state_churn_bytes_per_s + this.#spec.state_growth_bytes_per_s + this.#spec.compaction_bytes_per_s;
    const dirtyBytes = Math.min(this.#bytes, (changedPerS * (this.#activeMs - this.#cleanAtMs)) / 1000);
    return { stateBytes: this.#bytes, dirtyBytes, activeMs: this.#activeMs };
  }

  /** A checkpoint completed: its files are confirmed, the next incremental one uploads only what changed since its snapshot. */
  confirmed(snapshot: StateAtSnapshot): void {
    this.#cleanAtMs = Math.max(this.#cleanAtMs, snapshot.activeMs);
  }

  /** A restore: the state is the checkpoint's again, and all of it is in checkpoint storage. */
  restored(snapshot: StateAtSnapshot, now: number): void {
    this.#settle(now);
    this.#bytes = snapshot.stateBytes;
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
