/**
 * User Timing measures of a TaskManager's restore, phase by phase (`restore: <phase> <what>`): a
 * Chromium trace (category blink.user_timing) shows them on each worker's thread, so
 * tests/bench/restore-profile.ts can say where a local or remote restore's time goes (the read of
 * the host's disk, the checksum, the decode, the read of remote storage) without changing it.
 * Each measure is cleared once taken: the trace keeps it, the worker's timeline does not grow.
 */
export function measureRestorePhase(phase: string, what: string, startMs: number, endMs = performance.now()): void {
  const name = `restore: ${phase} ${what}`;
  performance.measure(name, { start: startMs, end: endMs });
  performance.clearMeasures(name);
}

/** `work`, measured as the restore phase `phase` of `what` once it is done (whether or not it failed). */
export async function timeRestorePhase<T>(phase: string, what: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    measureRestorePhase(phase, what, start);
  }
}
