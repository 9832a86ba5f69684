/**
 * The app's first screen mounts in three steps: the run controls (and the header and the lesson
 * around them) first, then the checkpoint timeline, then the job graph's panel, each in a task of
 * its own. In one task, the first mount's script and the first style and layout of everything it
 * built held the main thread for over 50 ms on a loaded machine; the graph panel and the timeline
 * together still took 45–92 ms in one idle callback.
 *
 * In the page's order, top to bottom, so nothing already drawn moves down. Each step comes in the
 * next idle period, or after STEP_WAIT_MS at the latest (a hidden tab draws no frames).
 */
import { whenIdleWhile } from './when-idle.ts';

const STEP_WAIT_MS = 100;

/** The parts of the first screen after the run controls, in the order they mount. */
const STEPS = ['timeline', 'graph'] as const;
export type FirstScreenPart = (typeof STEPS)[number];

export class FirstScreen {
  #mounted = $state(0);

  /** Whether `part` may mount. */
  shows(part: FirstScreenPart): boolean {
    return this.#mounted > STEPS.indexOf(part);
  }

  /** Whether the whole first screen (the job graph's panel and the timeline) may mount. */
  get rest(): boolean {
    return this.#mounted >= STEPS.length;
  }

  /** Lets the other parts mount, one per later task; called once the first step mounted. */
  release(): void {
    whenIdleWhile(() => ++this.#mounted < STEPS.length, STEP_WAIT_MS);
  }
}
