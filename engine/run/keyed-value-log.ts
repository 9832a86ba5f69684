/** Records the log holds room for at first; it doubles when full. */
const INITIAL_CAPACITY = 256;

/**
 * Every value a sink wrote, in write order, each with the index of its key: two typed columns
 * that double when full. One flat log rather than a growing array per key: a sink writes every
 * record of the job here, and a store into a typed array is far cheaper than a push onto one of
 * thousands of JS arrays, each of which copies itself as it grows and which the young-generation
 * GC copies again while they are young. Grouping by key is left to whoever asks
 * (SinkOutputLog.compareTo), once.
 */
export class KeyedValueLog {
  #keys = new Uint32Array(INITIAL_CAPACITY);
  #values = new Float64Array(INITIAL_CAPACITY);
  #length = 0;

  append(key: number, value: number): void {
    const at = this.#length;
    if (at === this.#values.length) this.#grow();
    this.#keys[at] = key;
    this.#values[at] = value;
    this.#length = at + 1;
  }

  /**
   * The values of each key index below `keyCount`, in write order: views into one new array, so
   * the caller may sort them in place.
   */
  groupByKey(keyCount: number): Float64Array[] {
    const length = this.#length;
    const keys = this.#keys;
    const values = this.#values;
    // Counting sort: each key's count, then where its run starts, then every value into its run.
    const next = new Uint32Array(keyCount + 1);
    for (let i = 0; i < length; i++) next[keys[i]! + 1]!++;
    for (let k = 0; k < keyCount; k++) next[k + 1]! += next[k]!;
    const starts = next.slice();
    const grouped = new Float64Array(length);
    for (let i = 0; i < length; i++) grouped[next[keys[i]!]!++] = values[i]!;
    return Array.from({ length: keyCount }, (_, k) => grouped.subarray(starts[k]!, starts[k + 1]!));
  }

  #grow(): void {
    const keys = new Uint32Array(this.#keys.length * 2);
    keys.set(this.#keys);
    this.#keys = keys;
    const values = new Float64Array(this.#values.length * 2);
    values.set(this.#values);
    this.#values = values;
  }
}
