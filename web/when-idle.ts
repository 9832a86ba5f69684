/**
 * Runs `callback` in the browser's next idle period, or after `timeoutMs` at the latest, so
 * background work (prefetches, deferred mounts) does not land inside a busy frame.
 */
export function whenIdle(callback: () => void, timeoutMs: number): void {
  // Safari has no requestIdleCallback: a task of its own is the next best thing.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(callback, { timeout: timeoutMs });
  else setTimeout(callback, 0);
}

/** Runs `step` in one idle period after another (each within `timeoutMs`) for as long as it returns true: work that mounts in steps, one per idle period. */
export function whenIdleWhile(step: () => boolean, timeoutMs: number): void {
  const next = () => {
    if (step()) whenIdle(next, timeoutMs);
  };
  whenIdle(next, timeoutMs);
}
