/**
 * Drives a CheckpointCoordinator by hand: a fake planner returning a fixed CheckpointPlan, a fake
 * random, and a tiny loop that keeps a clock and the timers the coordinator asked for
 * ('schedule' effects) and fires the due ones in order.
 */
import { CheckpointCoordinator, type CheckpointPlan, type TriggerKind } from '../../engine/checkpoint/checkpoint-coordinator.ts';
import type { CheckpointFailureReason } from '../../engine/checkpoint/checkpoint-failure-reason.ts';
import type { TaskAcknowledgeResult } from '../../engine/checkpoint/pending-checkpoint.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import type { CheckpointBarrier, CoordinatorEffect, CoordinatorTimer, SubtaskId, TaskStateSnapshot } from '../../engine/protocol.ts';
import type { ConfigValue } from '../../engine/scenario/scenario-types.ts';

export const SOURCE = 'source';
export const SINK = 'sink';
export const SRC0: SubtaskId = { vertexId: SOURCE, subtaskIndex: 0 };
export const SINK0: SubtaskId = { vertexId: SINK, subtaskIndex: 0 };
export const VERTICES = [
  { vertexId: SOURCE, parallelism: 1 },
  { vertexId: SINK, parallelism: 1 },
];
const PARALLELISM = { [SOURCE]: 1, [SINK]: 1 };

export function snapshotOf(subtask: SubtaskId, finished = false): TaskStateSnapshot {
  return { subtask, stateSize: 100, checkpointedSize: 40, ...(finished ? { finished: true } : {}) };
}

/** Both subtasks run: the source is triggered, both must acknowledge. */
export function runningPlan(): CheckpointPlan {
  return { ok: true, tasksToTrigger: [SRC0], tasksToAck: [SRC0, SINK0], finishedTasks: [], parallelism: { ...PARALLELISM } };
}

/** The source finished: the sink (whose inputs all ended) is triggered and acknowledges alone. */
export function sourceFinishedPlan(): CheckpointPlan {
  return { ok: true, tasksToTrigger: [SINK0], tasksToAck: [SINK0], finishedTasks: [snapshotOf(SRC0, true)], parallelism: { ...PARALLELISM } };
}

/** Every subtask finished: nothing to trigger, nothing to wait for. */
export function allFinishedPlan(): CheckpointPlan {
  return { ok: true, tasksToTrigger: [], tasksToAck: [], finishedTasks: [snapshotOf(SRC0, true), snapshotOf(SINK0, true)], parallelism: { ...PARALLELISM } };
}

export function fakeRandom(x: number): { nextFloat: () => number } {
  return { nextFloat: () => x };
}

/** As close to 1 as a float in [0, 1) gets in practice. */
export const ALMOST_ONE = 0.999_999_9;

type Status = Extract<CoordinatorEffect, { type: 'checkpoint-status' }>;

export interface HarnessOptions {
  /** Flink option keys, read with `readConfig` */
  config?: Record<string, ConfigValue>;
  random?: number;
  plan?: CheckpointPlan;
  /** the driver writes `_metadata` and reports back (the live runtime) */
  finalizeAsync?: boolean;
}

export class CoordinatorHarness {
  now = 0;
  plan: CheckpointPlan;
  readonly coordinator: CheckpointCoordinator;
  /** every effect so far, with the time of the call that returned it */
  readonly log: Array<{ at: number; effect: CoordinatorEffect }> = [];
  #timers: Array<{ at: number; seq: number; timer: CoordinatorTimer }> = [];
  #seq = 0;

  constructor(options: HarnessOptions = {}) {
    this.plan = options.plan ?? runningPlan();
    this.coordinator = new CheckpointCoordinator(
      readConfig(options.config ?? {}),
      () => this.plan,
      fakeRandom(options.random ?? 0),
      VERTICES,
      { finalizeAsync: options.finalizeAsync ?? false },
    );
  }

  /** Runs one coordinator call at `now`, records its effects and keeps its timers. */
  call(fn: (effects: CoordinatorEffect[], now: number) => void): CoordinatorEffect[] {
    const effects: CoordinatorEffect[] = [];
    fn(effects, this.now);
    for (const effect of effects) {
      this.log.push({ at: this.now, effect });
      if (effect.type === 'schedule') this.#timers.push({ at: effect.at, seq: this.#seq++, timer: effect.timer });
    }
    return effects;
  }

  start(): CoordinatorEffect[] {
    return this.call((e, now) => this.coordinator.startScheduler(now, e));
  }

  stop(): CoordinatorEffect[] {
    return this.call((e, now) => this.coordinator.stopScheduler(now, e));
  }

  trigger(kind: TriggerKind = 'checkpoint'): CoordinatorEffect[] {
    return this.call((e, now) => this.coordinator.trigger(kind, now, e));
  }

  /** One subtask acknowledges; returns the coordinator's answer and the effects. */
  ack(checkpointId: number, subtask: SubtaskId): { result: TaskAcknowledgeResult; effects: CoordinatorEffect[] } {
    let result: TaskAcknowledgeResult = 'unknown';
    const effects = this.call((e, now) => {
      result = this.coordinator.receiveAcknowledge(checkpointId, subtask, snapshotOf(subtask), metricsAt(now), now, e);
    });
    return { result, effects };
  }

  /** Every subtask the plan waits for acknowledges. */
  ackAll(checkpointId: number, subtasks: readonly SubtaskId[] = this.plan.ok ? this.plan.tasksToAck : []): CoordinatorEffect[] {
    return subtasks.flatMap((s) => this.ack(checkpointId, s).effects);
  }

  /** Triggers a manual checkpoint and acknowledges it at once; returns its id. */
  checkpointNow(): number {
    const id = statuses(this.trigger()).find((s) => s.status === 'triggered')?.checkpointId;
    if (id == null) throw new Error('the checkpoint did not start');
    this.ackAll(id);
    return id;
  }

  /**
   * Steps the clock by `step` ms up to `until`, firing timers; every pending checkpoint is fully
   * acknowledged `ackAfter` ms after it was triggered (on a step).
   */
  runAcking(until: number, ackAfter: number, step = 10): void {
    for (let t = this.now; t <= until; t += step) {
      this.advanceTo(t);
      for (const pending of this.coordinator.pendingCheckpoints) {
        if (pending.triggerTimestamp + ackAfter <= t) this.ackAll(pending.id);
      }
    }
  }

  /** The driver's `_metadata` write of `checkpointId` succeeded (true) or failed (false). */
  finalized(checkpointId: number, written: boolean): CoordinatorEffect[] {
    return this.call((e, now) =>
      written ? this.coordinator.onCheckpointFinalized(checkpointId, now, e) : this.coordinator.onCheckpointFinalizeFailed(checkpointId, now, e),
    );
  }

  decline(checkpointId: number, reason: CheckpointFailureReason = 'CHECKPOINT_DECLINED'): CoordinatorEffect[] {
    return this.call((e, now) => this.coordinator.receiveDecline(checkpointId, reason, now, e));
  }

  /** Moves the clock to `time`, firing every due timer in time order (ties: in the order asked). */
  advanceTo(time: number): CoordinatorEffect[] {
    const effects: CoordinatorEffect[] = [];
    for (;;) {
      const next = this.#nextDue(time);
      if (next === undefined) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.now = next.at;
      effects.push(...this.call((e, now) => this.coordinator.onTimer(next.timer, now, e)));
    }
    this.now = time;
    return effects;
  }

  #nextDue(time: number): { at: number; seq: number; timer: CoordinatorTimer } | undefined {
    let next: { at: number; seq: number; timer: CoordinatorTimer } | undefined;
    for (const t of this.#timers) {
      if (t.at <= time && (next === undefined || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
    }
    return next;
  }

  advanceBy(ms: number): CoordinatorEffect[] {
    return this.advanceTo(this.now + ms);
  }

  /** Times at which a checkpoint (not a savepoint) was triggered, with its id. */
  triggers(): Array<{ at: number; id: number | null }> {
    return this.log
      .filter(({ effect }) => effect.type === 'checkpoint-status' && effect.status === 'triggered')
      .map(({ at, effect }) => ({ at, id: (effect as Status).checkpointId }));
  }

  get pendingIds(): number[] {
    return this.coordinator.pendingCheckpoints.map((p) => p.id);
  }

  get stats() {
    return this.coordinator.stats.checkpointingStatistics();
  }

  /** The history entry of one checkpoint. */
  historyEntry(id: number) {
    const entry = this.stats.history.find((h) => h.id === id);
    if (entry === undefined) throw new Error(`checkpoint ${id} is not in the history`);
    return entry;
  }
}

export function metricsAt(now: number) {
  return {
    startDelayMs: 1,
    alignmentDurationMs: 0,
    syncDurationMs: 1,
    asyncDurationMs: 2,
    processedDataBytes: 0,
    persistedDataBytes: 0,
    unalignedCheckpoint: false,
    syncEndTime: now,
    ackTimestamp: now,
  };
}

export function statuses(effects: readonly CoordinatorEffect[]): Status[] {
  return effects.filter((e): e is Status => e.type === 'checkpoint-status');
}

export function ofType<T extends CoordinatorEffect['type']>(effects: readonly CoordinatorEffect[], type: T): Array<Extract<CoordinatorEffect, { type: T }>> {
  return effects.filter((e): e is Extract<CoordinatorEffect, { type: T }> => e.type === type);
}

/** Periodic 'schedule' effects: when the periodic trigger was asked to fire. */
export function periodicAts(effects: readonly CoordinatorEffect[]): number[] {
  return ofType(effects, 'schedule')
    .filter((e) => e.timer.kind === 'periodic')
    .map((e) => e.at);
}

export function barriers(effects: readonly CoordinatorEffect[]): CheckpointBarrier[] {
  return ofType(effects, 'trigger-task').map((e) => e.barrier);
}

export function failJobMessages(effects: readonly CoordinatorEffect[]): string[] {
  return ofType(effects, 'fail-job').map((e) => e.message);
}
