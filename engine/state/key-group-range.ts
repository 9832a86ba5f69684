import type { KeyGroupRange } from '../keys/key-group-assignment.ts';

export type { KeyGroupRange };

export function keyGroupCount(range: KeyGroupRange): number {
  return range.end - range.start + 1;
}

export function containsKeyGroup(range: KeyGroupRange, keyGroup: number): boolean {
  return keyGroup >= range.start && keyGroup <= range.end;
}

/** The key groups two ranges share, or undefined (Flink's KeyGroupRange.getIntersection). */
export function intersectKeyGroups(a: KeyGroupRange, b: KeyGroupRange): KeyGroupRange | undefined {
  const start = Math.max(a.start, b.start);
  const end = Math.min(a.end, b.end);
  return start <= end ? { start, end } : undefined;
}
