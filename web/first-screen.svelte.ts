/**
 * The app's first screen mounts in four steps: the header and the lesson panel first, then the
 * run controls, then the checkpoint timeline, then the job graph's panel, each in a task of its
 * own. In one task, the first mount's script and the first style and layout of everything it
 * built held the main thread for over 50 ms on a loaded machine; the graph panel and the timeline
 * together still took 45–92 ms in one idle callback, and the first mount with the run controls
 * 33–52 ms (their share about a third).
 *
 * In the page's order, top to bottom, so nothing already drawn moves down. Each step comes in the
 * next idle period, or after STEP_WAIT_MS at the latest (a hidden tab draws no frames).
 */
import { whenIdleWhile } from './when-idle.ts';

const STEP_WAIT_MS = 100;

/** The parts of the first screen after the header and the lesson panel, in the order they mount. */
const STEPS = ['controls', 'timeline', 'graph'] as const;
export type FirstScreenPart = (typeof STEPS)[number];

export class FirstScreen {
  #mounted = $state(0);

  /** Whether `part` may mount. */
  shows(part: FirstScreenPart): boolean {
    return this.#mounted > STEPS.indexOf(part);
  }

  /** Whether the whole first screen (the run controls, the timeline and the job graph's panel) may mount. */
  get rest(): boolean {
    return this.#mounted >= STEPS.length;
  }

  /** Lets the other parts mount, one per later task; called once the first step mounted. */
  release(): void {
    whenIdleWhile(() => ++this.#mounted < STEPS.length, STEP_WAIT_MS);
  }
}
