/**
 * The app's first screen mounts in two steps: the run controls (and the header and the lesson
 * around them) first, the checkpoint timeline and the job graph's panel in a task of their own
 * after the first frame. In one task, the first mount's script and the first style and layout of
 * everything it built held the main thread for over 50 ms on a loaded machine.
 *
 * Their step comes in the idle period after the first frame, or after REST_WAIT_MS at the latest
 * (a hidden tab draws no frames).
 */
import { whenIdle } from './when-idle.ts';

const REST_WAIT_MS = 100;

export class FirstScreen {
  #rest = $state(false);

  /** Whether the timeline and the job graph's panel may mount. */
  get rest(): boolean {
    return this.#rest;
  }

  /** Lets the rest mount in a later task; called once the first step mounted. */
  release(): void {
    whenIdle(() => (this.#rest = true), REST_WAIT_MS);
  }
}
