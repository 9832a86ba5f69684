/**
 * Every invariant checker, attached to one runtime (sim or live: anything that shows its
 * JobMaster through JobRuntime). `attach` subscribes them to the run's events from now on;
 * `verdict` asks each for what it saw, given the run's report and the oracle's output.
 */
import type { JobRuntime } from '../../job/job-runtime.ts';
import type { JobEvent } from '../job-events.ts';
import { AtLeastOnceChecker } from './at-least-once-checker.ts';
import { CheckpointFileChecker } from './checkpoint-file-checker.ts';
import { CheckpointStatsChecker } from './checkpoint-stats-checker.ts';
import { ExactlyOnceChecker } from './exactly-once-checker.ts';
import { FencingChecker } from './fencing-checker.ts';
import type { TaskMessage } from '../../job/task-message.ts';
import type { InvariantChecker, InvariantViolation, RunOutcome } from './invariant-checker.ts';
import { JobStatusTransitionChecker } from './job-status-transition-checker.ts';
import { LivenessChecker } from './liveness-checker.ts';
import { LocalRestoreChecker } from './local-restore-checker.ts';
import { RestoreSourceChecker } from './restore-source-checker.ts';

export interface InvariantCheckerOptions {
  /** the liveness phase: from this job time on no fault is injected; omitted: no liveness check */
  liveness?: { from: number; bounded: boolean };
}

export class InvariantCheckers {
  readonly checkers: InvariantChecker[];

  constructor(runtime: JobRuntime, options: InvariantCheckerOptions = {}) {
    const coordinator = () => runtime.coordinator;
    this.checkers = [
      new ExactlyOnceChecker(),
      new AtLeastOnceChecker(),
      new RestoreSourceChecker(),
      new LocalRestoreChecker({ fromLocal: runtime.config.localRecovery, checkpointParallelism: (id) => runtime.jobMaster.completed(id)?.parallelism }),
      new CheckpointStatsChecker(),
      new JobStatusTransitionChecker(),
      new FencingChecker(),
      new CheckpointFileChecker(() => ({
        registry: coordinator().sharedState,
        retained: coordinator().store.getAllCheckpoints(),
        pendingCheckpoints: coordinator().pendingCheckpoints.length,
      })),
      ...(options.liveness ? [new LivenessChecker(options.liveness)] : []),
    ];
  }

  /**
   * Feeds the checkers every event so far (`past`) and then each new one, and the task messages
   * from now on (`pastMessages`: those a caller kept since the run began, which the JobMaster does
   * not); returns the unsubscribe function.
   */
  attach(runtime: JobRuntime, past: readonly JobEvent[] = runtime.events, pastMessages: readonly TaskMessage[] = []): () => void {
    for (const event of past) this.onEvent(event);
    for (const message of pastMessages) this.onTaskMessage(message);
    const events = runtime.onEvent((event) => this.onEvent(event));
    const messages = runtime.jobMaster.onTaskMessage((message) => this.onTaskMessage(message));
    return () => {
      events();
      messages();
    };
  }

  onEvent(event: JobEvent): void {
    for (const checker of this.checkers) checker.onEvent(event);
  }

  onTaskMessage(message: TaskMessage): void {
    for (const checker of this.checkers) checker.onTaskMessage?.(message);
  }

  verdict(outcome: RunOutcome): InvariantViolation[] {
    return this.checkers.flatMap((c) => c.verdict(outcome));
  }
}
