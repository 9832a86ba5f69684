/** Records the first chunk holds; each next chunk is twice the last, up to MAX_CHUNK. */
const FIRST_CHUNK = 256;
/** 65,536 records (768 kB of columns): past it chunks stay this size. */
const MAX_CHUNK = 1 << 16;

/**
 * Every value a sink wrote, in write order, each with the index of its key: two typed columns
 * kept in chunks. One flat log rather than a growing array per key: a sink writes every record of
 * the job here, and a store into a typed array is far cheaper than a push onto one of thousands of
 * JS arrays, each of which copies itself as it grows and which the young-generation GC copies
 * again while they are young. Chunks rather than one array that doubles: a full chunk is never
 * copied again (doubling columns cost the live page's main thread about 200 MB of allocation and
 * copying for 6M records, most of its time). Grouping by key is left to whoever asks
 * (SinkOutputLog.compareTo), once.
 */
export class KeyedValueLog {
  /** full chunks, oldest first */
  readonly #full: Array<{ keys: Uint32Array; values: Float64Array }> = [];
  #keys = new Uint32Array(FIRST_CHUNK);
  #values = new Float64Array(FIRST_CHUNK);
  /** records in the current chunk */
  #fill = 0;

  append(key: number, value: number): void {
    if (this.#fill === this.#values.length) this.#nextChunk();
    const at = this.#fill++;
    this.#keys[at] = key;
    this.#values[at] = value;
  }

  /**
   * The values of each key index below `keyCount`, in write order: views into one new array, so
   * the caller may sort them in place.
   */
  groupByKey(keyCount: number): Float64Array[] {
    const chunks = this.#chunks();
    // Counting sort: each key's count, then where its run starts, then every value into its run.
    const next = new Uint32Array(keyCount + 1);
    for (const [keys, , length] of chunks) for (let i = 0; i < length; i++) next[keys[i]! + 1]!++;
    for (let k = 0; k < keyCount; k++) next[k + 1]! += next[k]!;
    const starts = next.slice();
    const grouped = new Float64Array(chunks.reduce((n, [, , length]) => n + length, 0));
    for (const [keys, values, length] of chunks) for (let i = 0; i < length; i++) grouped[next[keys[i]!]!++] = values[i]!;
    return Array.from({ length: keyCount }, (_, k) => grouped.subarray(starts[k]!, starts[k + 1]!));
  }

  /** Each chunk's key and value columns with the records it holds, oldest first. */
  #chunks(): Array<[Uint32Array, Float64Array, number]> {
    const full = this.#full.map(({ keys, values }): [Uint32Array, Float64Array, number] => [keys, values, keys.length]);
    return [...full, [this.#keys, this.#values, this.#fill]];
  }

  #nextChunk(): void {
    this.#full.push({ keys: this.#keys, values: this.#values });
    const size = Math.min(MAX_CHUNK, this.#values.length * 2);
    this.#keys = new Uint32Array(size);
    this.#values = new Float64Array(size);
    this.#fill = 0;
  }
}
