/**
 * The exactly-once oracle of a sim run: a failure-free Simulation of the same scenario and seed,
 * run ahead of the run by the reference lead (engine/run/reference-lead.ts), and the two sinks'
 * writes compared as the run's clock passes them (OutputOracle; sim-driver.ts says why ahead).
 *
 * The lead costs as much as running the job for that long: three checkpoint intervals of a busy
 * job are most of a second of the page's main thread. A run the page starts need not pay that in
 * one task before its first frame: with a `deadline` the reference catches up a slice at a time
 * while the run already moves, and the comparison meanwhile stands at the last time both runs
 * cover (`comparedMs`: the run's writes wait in a journal as the reference's do). Once caught up
 * it is the comparison at the run's own time, exactly as without a deadline; the counts are state
 * functions of what was handed over, so the order writes arrive in does not change them.
 */
import type { StreamRecord } from '../../../engine/protocol.ts';
import type { Simulation } from '../../../engine/sim/simulation.ts';
import { OutputOracle } from './output-oracle.ts';

/** Virtual ms the reference advances between looks at the frame's deadline while it catches up. */
const SLICE_MS = 20;
/**
 * The run's first virtual second, in which frames leave the reference where it is. The page's
 * engine code runs cold then (V8 has not optimised it yet: a slice costs five to ten times what
 * it will, the first one most), and the reference's slices in the first frames made them the
 * page's long tasks at start-up (40–145 ms each on a loaded 2-core machine). The run warms the
 * code meanwhile; after it, the reference catches up as below. The comparison waits at 0 ms
 * until then; a pause or the API still catches it up at once.
 */
const COLD_START_MS = 1000;

interface Written {
  time: number;
  records: readonly StreamRecord[];
}

/** Writes with their virtual time, handed on in order up to a time. */
class WriteJournal {
  #entries: Written[] = [];
  #start = 0;

  get empty(): boolean {
    return this.#start === this.#entries.length;
  }

  push(time: number, records: readonly StreamRecord[]): void {
    this.#entries.push({ time, records: records.slice() });
  }

  /** Hands every entry up to `time` to `to`, oldest first. */
  drain(time: number, to: (records: readonly StreamRecord[]) => void): void {
    while (this.#start < this.#entries.length && this.#entries[this.#start]!.time <= time) to(this.#entries[this.#start++]!.records);
    if (this.#start > 1024 && this.#start * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#start);
      this.#start = 0;
    }
  }
}

export class SimOutputReference {
  readonly oracle = new OutputOracle();
  readonly #reference: Simulation;
  readonly #leadMs: number;
  /** the reference's writes not yet handed to the oracle as "now" */
  readonly #referenceWrites = new WriteJournal();
  /** the run's writes the reference has not covered yet (empty while caught up) */
  readonly #runWrites = new WriteJournal();
  #caughtUp = false;
  /** the run's time the comparison stands at */
  comparedMs = 0;

  /** `reference`: the failure-free Simulation; the caller taps both sinks into `ahead` and `written`. */
  constructor(reference: Simulation, leadMs: number) {
    this.#reference = reference;
    this.#leadMs = leadMs;
  }

  /** The failure-free run wrote `records` (at its current time). */
  ahead(records: readonly StreamRecord[]): void {
    this.oracle.ahead(records);
    this.#referenceWrites.push(this.#reference.now, records);
  }

  /** The run wrote `records` at `time`: compared at once while the reference is ahead, else once it is. */
  written(time: number, records: readonly StreamRecord[]): void {
    if (this.#caughtUp && this.#runWrites.empty) this.oracle.mine(records);
    else this.#runWrites.push(time, records);
  }

  /**
   * Whether the reference is short of its lead over the run at `now` and catches up in frames now
   * (not in the run's cold start): the frame's time is to be shared with it.
   */
  behind(now: number): boolean {
    return now >= COLD_START_MS && !this.#reference.job.isTerminal && this.#reference.now < now + this.#leadMs;
  }

  /**
   * Runs the reference to `now` + the lead (to its end once the run `finished` its bounded input)
   * and moves the comparison to `now`. With a `deadline` (performance.now() ms) the reference
   * stops there if it has not caught up, and the comparison stands at the time it covers.
   */
  sync(now: number, finished: boolean, deadline = Infinity): void {
    const reference = this.#reference;
    const target = now + this.#leadMs;
    if (finished) reference.runToEnd();
    else if (deadline === Infinity) reference.runUntil(target);
    else if (now >= COLD_START_MS) this.#catchUp(target, deadline);
    this.#caughtUp = finished || reference.now >= target || reference.job.isTerminal;
    this.comparedMs = finished ? Infinity : this.#caughtUp ? now : Math.max(0, reference.now - this.#leadMs);
    this.#runWrites.drain(this.comparedMs, (records) => this.oracle.mine(records));
    this.#referenceWrites.drain(this.comparedMs, (records) => this.oracle.now(records));
  }

  /**
   * Two slices at least, however late the frame: the run moves a slice a frame, so a page whose
   * frames are always late still closes the gap.
   */
  #catchUp(target: number, deadline: number): void {
    const reference = this.#reference;
    for (let slices = 0; reference.now < target && !reference.job.isTerminal && (slices < 2 || performance.now() < deadline); slices++) {
      reference.runUntil(Math.min(target, reference.now + SLICE_MS));
    }
  }
}
