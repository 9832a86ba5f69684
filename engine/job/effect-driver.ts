import type { JobMasterEffect } from './job-master-effect.ts';

/**
 * How a runtime carries out the JobMaster's effects: in order, and those that the JobMaster's
 * further calls add while one is carried out (a TaskManager lost fails the job over, whose
 * restart is scheduled) join the same queue rather than running in the middle of another effect.
 */
export class EffectDriver {
  readonly #apply: (effect: JobMasterEffect, effects: JobMasterEffect[]) => void;
  #queue: JobMasterEffect[] | undefined;

  constructor(apply: (effect: JobMasterEffect, effects: JobMasterEffect[]) => void) {
    this.#apply = apply;
  }

  /**
   * Calls the JobMaster and carries out what it asks, in order, those its further calls add too.
   * Returns whether this call carried the queue out (false: it joined one already under way).
   */
  drive(call: (effects: JobMasterEffect[]) => void): boolean {
    if (this.#queue) {
      call(this.#queue);
      return false;
    }
    const queue: JobMasterEffect[] = (this.#queue = []);
    try {
      call(queue);
      for (let i = 0; i < queue.length; i++) this.#apply(queue[i]!, queue);
    } finally {
      this.#queue = undefined;
    }
    return true;
  }
}
