/**
 * The exactly-once oracle of a live run: a failure-free Simulation of the same scenario and seed
 * (no fault schedule, no operations from the page), followed as far as the live sources have got.
 *
 * What is comparable. Live time is the wall clock: records cross real workers with real latencies
 * and checkpoints take as long as real IndexedDB takes, so the live sink at job time t has not
 * written what the simulated sink has at virtual time t, and a two-phase-commit sink commits when
 * its checkpoints happen to complete. What both runs do agree on is the input: sources read
 * replayable splits (record i of a split is always the same record), so a source subtask at
 * offset n has read the same records in both. So:
 * - the reference is matched to the live run by source offsets: `matchedMs` is the first
 *   reference time at which every source subtask had read at least as far as the live one has
 *   (the highest offset the live run reported so far: a restore rewinds the sources, and records
 *   not re-produced yet count as missing, as in the sim driver);
 * - duplicates: records the live sink wrote more often than the reference had by
 *   `matchedMs + slack` (a commit that merely landed at another moment is not a duplicate);
 * - missing: records the reference had written by `matchedMs - slack` that the live sink has not
 *   (in-flight records and uncommitted transactions are not missing yet);
 * - slack is three checkpoint cycles (interval or min pause), at least 1 s, at most 1 min;
 * - once the live job FINISHED, both sides compare the complete outputs, as the CLI does.
 * The outputs are compared as multisets of (key, value) (OutputOracle), which is exact for the
 * playground's operators: their outputs do not depend on how inputs interleave.
 */
import type { LsmStorageFactory } from '../../../engine/state/state-backend-factory.ts';
import type { StreamRecord } from '../../../engine/protocol.ts';
import type { SinkOutputLog } from '../../../engine/run/sink-output-log.ts';
import type { Scenario } from '../../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../../engine/sim/simulation.ts';
import { OutputOracle } from './output-oracle.ts';

/** Virtual ms the reference advances between checks of its progress and of the frame's deadline. */
const SLICE_MS = 20;
const SLACK_MIN_MS = 1000;
const SLACK_MAX_MS = 60_000;
const SLACK_CHECKPOINT_CYCLES = 3;

/** Where each source subtask (`vertex#index`) is in its split: the offset of its next record. */
export type SourceOffsets = ReadonlyMap<string, number>;

/** Calls `listener` with every batch of records the log writes (a plain sink's writes and a two-phase-commit sink's commits both go through `write`). */
export function tapSinkWrites(log: SinkOutputLog, listener: (records: readonly StreamRecord[]) => void): void {
  const write = log.write.bind(log);
  log.write = (records: readonly StreamRecord[]) => {
    write(records);
    if (records.length > 0) listener(records);
  };
}

export function sourceOffsetsOf(subtasks: readonly { vertexId: string; subtaskIndex: number; sourceOffset?: number }[]): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const s of subtasks) if (s.sourceOffset !== undefined) offsets.set(`${s.vertexId}#${s.subtaskIndex}`, s.sourceOffset);
  return offsets;
}

/**
 * The scenario with keyed state on the heap, for a reference without wa-sqlite: the sink's output
 * does not depend on where keyed state lives (the live rocksdb run keeps it in its workers).
 */
function onTheHeap(scenario: Scenario): Scenario {
  if (scenario.config['state.backend.type'] !== 'rocksdb') return scenario;
  const config: Scenario['config'] = { ...scenario.config, 'state.backend.type': 'hashmap' };
  delete config['execution.checkpointing.incremental'];
  return { ...scenario, config };
}

export class LiveOutputReference {
  readonly oracle = new OutputOracle();
  readonly #reference: Simulation;
  readonly #slackMs: number;
  /** the reference's writes, with their virtual time, not yet handed to the oracle as "now" */
  #journal: { time: number; records: readonly StreamRecord[] }[] = [];
  #journalStart = 0;
  /** the reference's source offsets after each slice, oldest first, from `#progressStart` */
  #progress: { time: number; offsets: Map<string, number> }[] = [];
  #progressStart = 0;
  /** the highest offset the live run reported per source subtask */
  readonly #liveOffsets = new Map<string, number>();
  /** reference time matched to the live sources (see the file comment); -1 before any match */
  matchedMs = -1;
  #complete = false;

  constructor(scenario: Scenario, seed: number, lsmStorage?: LsmStorageFactory) {
    this.#reference = new Simulation({ ...(lsmStorage ? scenario : onTheHeap(scenario)), faults: [] }, { seed, ...(lsmStorage ? { lsmStorage } : {}) });
    const { checkpointInterval, minPause } = this.#reference.config;
    const cycle = checkpointInterval === undefined ? 0 : Math.max(checkpointInterval, minPause);
    this.#slackMs = Math.min(SLACK_MAX_MS, Math.max(SLACK_MIN_MS, SLACK_CHECKPOINT_CYCLES * cycle));
    tapSinkWrites(this.#reference.sinkOutput, (records) => {
      this.oracle.ahead(records);
      this.#journal.push({ time: this.#reference.now, records: records.slice() });
    });
  }

  /** The failure-free run's virtual time. */
  get referenceMs(): number {
    return this.#reference.now;
  }

  /**
   * Moves the reference along with the live sources (`offsets`, from the TaskManagers' last
   * heartbeats), stopping at the wall-clock `deadline` (performance.now() ms) so a frame never
   * freezes the page; the next call goes on. `liveFinished`: the live job FINISHED, compare all.
   */
  follow(offsets: SourceOffsets, liveFinished: boolean, deadline: number): void {
    if (this.#complete) return;
    for (const [key, offset] of offsets) this.#liveOffsets.set(key, Math.max(offset, this.#liveOffsets.get(key) ?? 0));
    if (liveFinished) {
      this.#reference.runToEnd();
      this.#complete = true;
      this.#handOver(Infinity);
      return;
    }
    const reference = this.#reference;
    for (;;) {
      this.#match();
      // Before the first heartbeat there is nothing to follow; before the first match, run until one.
      const wanted = this.#liveOffsets.size === 0 ? reference.now : this.matchedMs < 0 ? Infinity : this.matchedMs + this.#slackMs;
      if (reference.job.isTerminal || reference.now >= wanted || performance.now() >= deadline) break;
      reference.runUntil(reference.now + SLICE_MS);
      this.#progress.push({ time: reference.now, offsets: sourceOffsetsOf(reference.metrics().subtasks) });
    }
    if (this.matchedMs >= 0) this.#handOver(this.matchedMs - this.#slackMs);
  }

  /** Advances `matchedMs` to the first reference time whose offsets cover the live offsets. */
  #match(): void {
    if (this.#liveOffsets.size === 0) return;
    const covers = (offsets: Map<string, number>) => [...this.#liveOffsets].every(([key, offset]) => (offsets.get(key) ?? Infinity) >= offset);
    // Live offsets only grow: a reference point that does not cover them now never will.
    while (this.#progressStart < this.#progress.length && !covers(this.#progress[this.#progressStart]!.offsets)) this.#progressStart++;
    const first = this.#progress[this.#progressStart];
    if (first) this.matchedMs = Math.max(this.matchedMs, first.time);
    // A reference that finished has read everything there is.
    else if (this.#reference.job.isTerminal) this.matchedMs = Math.max(this.matchedMs, this.#reference.now);
    if (this.#progressStart > 1024) {
      this.#progress = this.#progress.slice(this.#progressStart);
      this.#progressStart = 0;
    }
  }

  /** Hands the oracle the reference's writes up to `time` as what the live run should have by now. */
  #handOver(time: number): void {
    while (this.#journalStart < this.#journal.length) {
      const entry = this.#journal[this.#journalStart]!;
      if (entry.time > time) break;
      this.oracle.now(entry.records);
      this.#journalStart++;
    }
    if (this.#journalStart > 1024 && this.#journalStart * 2 > this.#journal.length) {
      this.#journal = this.#journal.slice(this.#journalStart);
      this.#journalStart = 0;
    }
  }
}
