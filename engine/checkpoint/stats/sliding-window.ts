/**
 * The last `capacity` values added, oldest overwritten first: the circular array behind Flink's
 * DescriptiveStatisticsHistogram (a fixed window, so old checkpoints drop out of the percentiles).
 */
export class SlidingWindow {
  readonly #values: number[] = [];
  #next = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`window capacity must be a positive integer, got ${capacity}`);
    }
  }

  add(value: number): void {
    if (this.#values.length < this.capacity) {
      this.#values.push(value);
      return;
    }
    this.#values[this.#next] = value;
    this.#next = (this.#next + 1) % this.capacity;
  }

  /** The values in the window, in no particular order (percentiles sort them anyway). */
  values(): number[] {
    return [...this.#values];
  }
}
