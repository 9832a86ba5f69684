/**
 * The timeline's seeks: the target of the latest one (the playhead shows it while the replay runs)
 * and the problem of the latest one that failed. Seeks supersede each other (dragging and arrow
 * keys fire many): an earlier one's "cancelled" rejection is expected and not shown.
 */
import type { PlaygroundState } from '../playground-state.svelte.ts';

export class SeekControl {
  /** where the latest seek goes, until it arrives */
  target = $state<number | null>(null);
  /** why the latest seek failed */
  problem = $state<string | null>(null);
  readonly #getPlayground: () => PlaygroundState;
  #latest = 0;

  /** A getter, so a component can pass its (reactive) prop. */
  constructor(playground: () => PlaygroundState) {
    this.#getPlayground = playground;
  }

  get #playground(): PlaygroundState {
    return this.#getPlayground();
  }

  /** Where the playhead is drawn: the pending target, else the run's time. */
  get head(): number {
    return this.target ?? this.#playground.nowMs;
  }

  seek(time: number, branch?: number): void {
    const call = ++this.#latest;
    this.target = time;
    this.problem = null;
    this.#playground.seek(time, branch).then(
      () => {
        if (call === this.#latest) this.target = null;
      },
      (error: unknown) => {
        if (call !== this.#latest) return; // superseded by a later seek
        this.target = null;
        const message = error instanceof Error ? error.message : String(error);
        // Cancelled by a pause, a run or an operation the user chose: nothing went wrong.
        if (!/ was cancelled by /.test(message)) this.problem = message;
      },
    );
  }

  /** Stops the seek in flight: the run stays where it is. */
  cancel(): void {
    this.#latest++;
    this.target = null;
    this.#playground.pause('user');
  }
}
