/**
 * A binary min-heap of timed events. Ties on time are broken by insertion order, so the
 * simulation is deterministic: two events scheduled for the same instant run in the order they
 * were scheduled.
 */
export class EventQueue<T> {
  #times: number[] = [];
  #seqs: number[] = [];
  #items: T[] = [];
  #nextSeq = 0;

  get size(): number {
    return this.#items.length;
  }

  push(time: number, item: T): void {
    this.#times.push(time);
    this.#seqs.push(this.#nextSeq++);
    this.#items.push(item);
    this.#siftUp(this.#items.length - 1);
  }

  /** Time of the earliest event, or Infinity when empty. */
  peekTime(): number {
    return this.#items.length === 0 ? Infinity : this.#times[0]!;
  }

  /** Removes the earliest event; the caller reads its time with peekTime() first. */
  pop(): T | undefined {
    const n = this.#items.length;
    if (n === 0) return undefined;
    const top = this.#items[0]!;
    const lastTime = this.#times.pop()!;
    const lastSeq = this.#seqs.pop()!;
    const lastItem = this.#items.pop()!;
    if (n > 1) {
      this.#times[0] = lastTime;
      this.#seqs[0] = lastSeq;
      this.#items[0] = lastItem;
      this.#siftDown(0);
    }
    return top;
  }

  clear(): void {
    this.#times.length = 0;
    this.#seqs.length = 0;
    this.#items.length = 0;
  }

  #less(a: number, b: number): boolean {
    const ta = this.#times[a]!;
    const tb = this.#times[b]!;
    return ta < tb || (ta === tb && this.#seqs[a]! < this.#seqs[b]!);
  }

  #swap(a: number, b: number): void {
    const t = this.#times[a]!;
    this.#times[a] = this.#times[b]!;
    this.#times[b] = t;
    const s = this.#seqs[a]!;
    this.#seqs[a] = this.#seqs[b]!;
    this.#seqs[b] = s;
    const i = this.#items[a]!;
    this.#items[a] = this.#items[b]!;
    this.#items[b] = i;
  }

  #siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const n = this.#items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.#less(l, m)) m = l;
      if (r < n && this.#less(r, m)) m = r;
      if (m === i) return;
      this.#swap(i, m);
      i = m;
    }
  }
}
