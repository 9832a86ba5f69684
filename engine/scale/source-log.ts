/**
 * The sources' input as a replayable log (a Kafka topic): records arrive at the sources' rate
 * whatever the job does; the job reads them at its pace. `pendingRecords` (FLIP-33's source
 * metric) is what arrived and was not read yet. Reading is a fluid: at the input rate once caught
 * up, at the job's capacity while behind, not at all while the job is down; a restore rewinds
 * the read position to the checkpoint's offset, and the backlog is worked off with the spare
 * capacity (capacity − input rate), never when there is none.
 */
export class SourceLog {
  /** records per second arriving, all source subtasks together */
  readonly ratePerS: number;
  #time = 0;
  #produced = 0;
  #consumed = 0;
  #reading = false;
  /** records per second the job can read at most (its capacity, measured at the sources) */
  #capacityPerS: number;

  constructor(ratePerS: number, capacityPerS: number) {
    this.ratePerS = ratePerS;
    this.#capacityPerS = capacityPerS;
  }

  /** Records read so far: the position a checkpoint's sources record as their offsets. */
  get consumed(): number {
    return this.#consumed;
  }

  get pendingRecords(): number {
    return this.#produced - this.#consumed;
  }

  /** Whether the job reads at its capacity (behind its input), so its queues are full. */
  get saturated(): boolean {
    return this.#reading && (this.pendingRecords > 0 || this.#capacityPerS < this.ratePerS);
  }

  /** Records per second the job reads now. */
  get readRatePerS(): number {
    if (!this.#reading) return 0;
    return this.pendingRecords > 0 ? this.#capacityPerS : Math.min(this.ratePerS, this.#capacityPerS);
  }

  /** Moves the log to `time` (ms), reading as the job does meanwhile. */
  advance(time: number): void {
    const dt = (time - this.#time) / 1000;
    if (dt <= 0) return;
    this.#time = time;
    this.#produced += this.ratePerS * dt;
    if (!this.#reading) return;
    const behind = this.#produced - this.ratePerS * dt - this.#consumed;
    const canRead = this.#capacityPerS * dt;
    // While behind, the job reads at capacity; once the backlog is gone it keeps pace with the input.
    this.#consumed = Math.min(this.#produced, this.#consumed + (behind > 0 ? canRead : Math.min(canRead, this.ratePerS * dt)));
    if (this.#capacityPerS >= this.ratePerS && this.#produced - this.#consumed < 1e-6 * this.ratePerS) this.#consumed = this.#produced;
  }

  /** When the backlog will be gone at the current pace (ms), or Infinity: the next time worth stopping at. */
  caughtUpAt(): number {
    const pending = this.pendingRecords;
    if (!this.#reading || pending <= 0 || this.#capacityPerS <= this.ratePerS) return Infinity;
    return this.#time + (pending / (this.#capacityPerS - this.ratePerS)) * 1000;
  }

  /** The job reads (true) or is down (false), from the current time. */
  setReading(reading: boolean): void {
    this.#reading = reading;
  }

  setCapacity(capacityPerS: number): void {
    this.#capacityPerS = capacityPerS;
  }

  /** A restore: the sources go back to the checkpoint's offsets. */
  rewindTo(consumed: number): void {
    this.#consumed = Math.min(consumed, this.#produced);
  }
}
