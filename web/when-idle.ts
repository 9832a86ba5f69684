/**
 * Runs `callback` in the browser's next idle period, or after `timeoutMs` at the latest, so
 * background work (prefetches, deferred mounts) does not land inside a busy frame.
 */
export function whenIdle(callback: () => void, timeoutMs: number): void {
  // Safari has no requestIdleCallback: a task of its own is the next best thing.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(callback, { timeout: timeoutMs });
  else setTimeout(callback, 0);
}
