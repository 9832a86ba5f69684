/**
 * What the scale run's worker does, apart from the worker itself so that Node tests drive it with
 * their own clock: it owns the ScaleRuntime, moves its job clock with the wall clock times the
 * page's speed, and posts the run's progress (scale-run-protocol.ts).
 *
 * The runtime jumps from one interesting moment to the next, and one moment can be heavy (a
 * checkpoint's 3,000 acknowledgements, a restore planned for every subtask), so the job clock is
 * advanced in slices of at most SLICE_BUDGET_MS of wall time, yielding between them: a speed
 * change or an operation from the page is read between two slices. When the machine cannot keep
 * up, the job clock falls behind instead of piling up a debt it would later rush through.
 */
import { checkpointConfigDocument } from '../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import type { JobOperation } from '../engine/job/job-operation.ts';
import type { ScheduledOperation } from '../engine/job/scheduled-operation.ts';
import type { Scenario } from '../engine/scenario/scenario-types.ts';
import { ScaleRuntime } from '../engine/scale/scale-runtime.ts';
import { expectationInputs, runReport } from '../engine/run/run-report.ts';
import type { JobEvent } from '../engine/run/job-events.ts';
import type { ScaleProgress, ScaleRunReply, ScaleRunRequest, TaskSummary } from './scale-run-protocol.ts';
import { scaleTopology } from './scale-topology.ts';

/** Wall ms one slice of the job may take before the worker yields. */
const SLICE_BUDGET_MS = 30;
/**
 * Wall ms between two progress messages while the job runs: the page re-reads and redraws its
 * views at about this rate, and a loaded machine's main thread has other work too.
 */
const PROGRESS_MS = 400;

export interface SessionClock {
  /** wall-clock ms (performance.now in the worker) */
  now(): number;
  /** runs `next` soon, after messages that came meanwhile (setTimeout 0 in the worker) */
  later(next: () => void): void;
}

/** A restore event as sent: its record's subtasks travel once, in `restoresAdded`. */
function withoutRestoredSubtasks(event: JobEvent): JobEvent {
  return event.type === 'restore' ? { ...event, restore: { ...event.restore, subtasks: [] } } : event;
}

export class ScaleRunSession {
  readonly #post: (reply: ScaleRunReply) => void;
  readonly #clock: SessionClock;
  #runtime: ScaleRuntime | null = null;
  #speed = 0;
  /** the job time and wall time the clock counts from since the last speed change */
  #jobAt = 0;
  #wallAt = 0;
  #ticking = false;
  #lastProgress = -Infinity;
  #eventsSent = 0;
  #restoresSent = 0;
  #catchUpsKey = '';
  #topologyKey = '';
  #failed = false;
  /** checkpoints whose operator summaries were sent (once a checkpoint ended, they do not change) */
  readonly #summariesSent = new Set<number>();

  constructor(post: (reply: ScaleRunReply) => void, clock: SessionClock) {
    this.#post = post;
    this.#clock = clock;
  }

  handle(request: ScaleRunRequest): void {
    if (this.#failed) return;
    try {
      if (request.type === 'start') this.#start(request.scenario, request.speed, request.operations);
      else if (request.type === 'speed') this.#setSpeed(request.speed);
      else this.#perform(request.id, request.operation);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** The run reached its run length, or the job ended: nothing more will happen. */
  get ended(): boolean {
    const runtime = this.#runtime;
    return runtime === null || runtime.job.isTerminal || runtime.now >= runtime.scenario.run.until_ms;
  }

  #start(scenario: Scenario, speed: number, operations: readonly ScheduledOperation[]): void {
    const runtime = new ScaleRuntime(scenario, operations.length > 0 ? { operations } : {});
    this.#runtime = runtime;
    this.#post({ type: 'started', seed: runtime.seed, checkpointConfig: checkpointConfigDocument(runtime.config) });
    this.#postProgress();
    this.#setSpeed(speed);
  }

  #setSpeed(speed: number): void {
    const runtime = this.#runtime;
    this.#speed = speed;
    this.#jobAt = runtime?.now ?? 0;
    this.#wallAt = this.#clock.now();
    if (speed > 0) this.#scheduleTick();
  }

  #perform(id: number, operation: JobOperation): void {
    const runtime = this.#runtime;
    if (!runtime) return;
    const problem = runtime.perform(operation);
    this.#post(problem === undefined ? { type: 'performed', id } : { type: 'performed', id, problem });
    // the page shows what the operation did at once, also while the clock is held
    this.#postProgress();
    if (this.#speed > 0) this.#scheduleTick();
  }

  #scheduleTick(): void {
    if (this.#ticking || this.ended) return;
    this.#ticking = true;
    this.#clock.later(() => this.#tick());
  }

  #tick(): void {
    this.#ticking = false;
    const runtime = this.#runtime;
    if (!runtime || this.#speed === 0 || this.#failed) return;
    try {
      const wall = this.#clock.now();
      const target = Math.min(this.#jobAt + (wall - this.#wallAt) * this.#speed, runtime.scenario.run.until_ms);
      if (!this.#advance(runtime, target, wall + SLICE_BUDGET_MS)) {
        // behind the wall clock: count on from where the job is, not from a debt
        this.#jobAt = runtime.now;
        this.#wallAt = this.#clock.now();
      }
      if (this.ended || this.#clock.now() - this.#lastProgress >= PROGRESS_MS) this.#postProgress();
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#scheduleTick();
  }

  /** Runs the job towards `target` until `deadline` (wall); true when it got there. */
  #advance(runtime: ScaleRuntime, target: number, deadline: number): boolean {
    while (!runtime.job.isTerminal && runtime.kernel.nextEventTime <= target) {
      if (this.#clock.now() >= deadline) return false;
      runtime.step();
    }
    if (!runtime.job.isTerminal) runtime.runUntil(target);
    return true;
  }

  #postProgress(): void {
    const runtime = this.#runtime;
    if (!runtime) return;
    this.#lastProgress = this.#clock.now();
    this.#post(this.#progress(runtime));
  }

  #progress(runtime: ScaleRuntime): ScaleProgress {
    // The scale model writes no records: there is no sink to compare with a failure-free run.
    const { checkpoints, checkpointDetails, restores, checkpointConfig: _config, ...report } = runReport(runtime, { duplicates: 0, missing: 0 });
    const { restoredSubtasks: _subtasks, restoreRecords: _records, ...expectations } = expectationInputs(runtime, { duplicates: 0, missing: 0 });
    const events = runtime.events.slice(this.#eventsSent).map(withoutRestoredSubtasks);
    this.#eventsSent = runtime.events.length;
    const progress: ScaleProgress = {
      type: 'progress',
      now: runtime.now,
      jobStatus: runtime.jobStatus,
      restarts: runtime.restarts,
      failureCause: runtime.failureCause,
      isTerminal: runtime.job.isTerminal,
      events,
      taskManagerHealth: runtime.jobMaster.taskManagerHealth(runtime.now),
      remoteStorageFaults: { ...runtime.remoteStorageFaults },
      checkpointing: checkpoints as ScaleProgress['checkpointing'],
      checkpointDetails: checkpointDetails as ScaleProgress['checkpointDetails'],
      taskSummaries: this.#newTaskSummaries(runtime, checkpointDetails as ScaleProgress['checkpointDetails']),
      report,
      expectations,
    };
    if (restores.length > this.#restoresSent) this.#post({ type: 'restored', restores: restores.slice(this.#restoresSent) });
    this.#restoresSent = restores.length;
    const catchUps = restores.map((r) => r.catchUpMs);
    if (catchUps.join() !== this.#catchUpsKey) {
      this.#catchUpsKey = catchUps.join();
      progress.catchUps = catchUps;
    }
    // a restart deploys the subtasks again (a lost host's elsewhere); their state follows the job's, on the page
    const topologyKey = `${runtime.attempt}:${runtime.jobMaster.lostHosts.join()}`;
    if (topologyKey !== this.#topologyKey) {
      this.#topologyKey = topologyKey;
      this.#post({ type: 'placement', topology: scaleTopology(runtime) });
    }
    return progress;
  }

  /** The operator summaries of the checkpoints in the history that ended since they were last looked at. */
  #newTaskSummaries(runtime: ScaleRuntime, details: ScaleProgress['checkpointDetails']): TaskSummary[] {
    const summaries: TaskSummary[] = [];
    for (const detail of Object.values(details)) {
      if (detail.status === 'IN_PROGRESS' || this.#summariesSent.has(detail.id)) continue;
      this.#summariesSent.add(detail.id);
      for (const vertexId of Object.keys(detail.tasks)) {
        const statistics = runtime.coordinator.stats.taskCheckpointStatistics(detail.id, vertexId);
        if (statistics) summaries.push({ checkpointId: detail.id, vertexId, statistics: { ...statistics, subtasks: [] } });
      }
    }
    return summaries;
  }

  #fail(error: unknown): void {
    this.#failed = true;
    this.#post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}
