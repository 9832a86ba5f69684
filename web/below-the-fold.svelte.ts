/**
 * The app's views below its first screen (the checkpoint dashboard, Break things and the cluster,
 * the charts, the sink output, the reproduce panel, the configuration editor) mount after the
 * run's first checkpoint is on the timeline, one per idle period, in that order: mounting them all
 * at load held the first frames of the run (and so its first checkpoint) back by main-thread
 * tasks of up to half a second.
 *
 * A page whose run does not take a checkpoint soon (paused, a link to a scenario without periodic
 * checkpoints) mounts them once its first scenario is in, or after FIRST_CHECKPOINT_WAIT_MS.
 */
import type { EventHub } from './playground/api/event-hub.ts';
import { whenIdleWhile } from './when-idle.ts';

/** The longest the page keeps its lower views back waiting for a first checkpoint. */
const FIRST_CHECKPOINT_WAIT_MS = 2_500;
/** An idle period is waited for at most this long per view, so a busy run cannot hold them back. */
const IDLE_TIMEOUT_MS = 100;

export class BelowTheFold {
  /**
   * How many of the lower views (in the order they mount) may; all of them once `defer` is undone.
   * None from the start: `defer` is called from the app's onMount, after the first mount built the
   * page, and views released until then began their chunks' imports inside the first mount's task
   * (a dozen fetches and await blocks) only to be torn down by `defer`.
   */
  #released = $state(0);
  #releasing = false;

  /** Whether the lower view at `index` (0-based, in the order they mount) may mount. */
  shows(index: number): boolean {
    return this.#released > index;
  }

  /**
   * Holds the lower views back until the run's first checkpoint completed, the page's first
   * scenario is in without a running run (`settled`), or the wait ran out. Returns the clean-up.
   */
  defer(hub: EventHub, settled: Promise<unknown>, running: () => boolean, onReleased?: () => void): () => void {
    this.#released = 0;
    const release = () => this.#release(onReleased);
    const off = hub.on('checkpoint-completed', release);
    const wait = setTimeout(release, FIRST_CHECKPOINT_WAIT_MS);
    void settled.finally(() => {
      if (!running()) release();
    });
    return () => {
      off();
      clearTimeout(wait);
      this.#released = Number.MAX_SAFE_INTEGER;
    };
  }

  #release(onReleased?: () => void): void {
    if (this.#releasing) return;
    this.#releasing = true;
    // for tests and devtools: the lower views start to mount (the first checkpoint, or the wait ran out)
    performance.mark('lower-views-released');
    whenIdleWhile(() => {
      if (this.#released === Number.MAX_SAFE_INTEGER) return false;
      this.#released++;
      if (this.#released < LOWER_VIEWS) return true;
      this.#released = Number.MAX_SAFE_INTEGER;
      onReleased?.();
      return false;
    }, IDLE_TIMEOUT_MS);
  }
}

/** The dashboard, Break things and the cluster, the charts, the sink output, the reproduce panel, the configuration editor. */
const LOWER_VIEWS = 6;

