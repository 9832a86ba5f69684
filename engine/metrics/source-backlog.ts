import type { JobMetrics } from './metrics-sampler.ts';

/** The sources' summed pendingRecords at one moment of job time. */
export interface BacklogSample {
  time: number;
  pendingRecords: number;
}

/**
 * The sources' backlog over the run, one sample per metrics sample (the sim's each second, the
 * live runtime's each heartbeat), so a restore's catch-up time can be read off afterwards
 * (engine/run/catch-up-time.ts) as a learner reads it off the pendingRecords chart.
 */
export class SourceBacklog {
  readonly #samples: BacklogSample[] = [];

  get samples(): readonly BacklogSample[] {
    return this.#samples;
  }

  /**
   * Adds the backlog of `metrics` when all `sourceSubtasks` reported it: a sum over only some of
   * them (live, before every TaskManager of a new attempt answered) would look caught up too early.
   */
  record(metrics: JobMetrics, sourceSubtasks: number): void {
    const reported = metrics.subtasks.filter((s) => s.pendingRecords !== undefined);
    if (reported.length === 0 || reported.length < sourceSubtasks) return;
    this.recordPending(metrics.time, reported.reduce((sum, s) => sum + s.pendingRecords!, 0));
  }

  /** Adds the sources' summed backlog at `time` (the scale runtime knows the sum, not a row per subtask). */
  recordPending(time: number, pendingRecords: number): void {
    const last = this.#samples.at(-1);
    // One sample per moment: a later reading at the same time replaces the earlier one.
    if (last?.time === time) last.pendingRecords = pendingRecords;
    else this.#samples.push({ time, pendingRecords });
  }
}
