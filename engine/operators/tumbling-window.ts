/** The end (exclusive) of the tumbling event-time window of `size` ms that holds `timestamp`. */
export function tumblingWindowEnd(timestamp: number, size: number): number {
  const start = timestamp - (((timestamp % size) + size) % size);
  return start + size;
}

/** State key of a key's window: the key plus the window end as namespace. */
export function windowStateKey(key: string, windowEnd: number): string {
  return `${key}\u0000${windowEnd}`;
}
