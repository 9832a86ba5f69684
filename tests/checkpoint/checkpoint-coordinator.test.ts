/**
 * The checkpoint coordinator itself (Flink's CheckpointCoordinator), driven by hand: a fixed plan,
 * a fake random, a clock and the timers it asks for. Each rule of shared/notes/flink-semantics.md
 * §1 is one named behaviour, checked on the effects and on the REST statistics document.
 */
import { describe, expect, it } from 'vitest';
import type { TriggerKind } from '../../engine/checkpoint/checkpoint-coordinator.ts';
import type { CheckpointFailureReason } from '../../engine/checkpoint/checkpoint-failure-reason.ts';
import type { CheckpointBarrier, CoordinatorEffect } from '../../engine/protocol.ts';
import type { ConfigValue } from '../../engine/scenario/scenario-types.ts';
import {
  ALMOST_ONE,
  allFinishedPlan,
  barriers,
  CoordinatorHarness,
  failJobMessages,
  ofType,
  periodicAts,
  runningPlan,
  SINK,
  SINK0,
  SOURCE,
  sourceFinishedPlan,
  SRC0,
  statuses,
} from '../support/coordinator-harness.ts';

const INTERVAL = 'execution.checkpointing.interval';
const MIN_PAUSE = 'execution.checkpointing.min-pause';
const MAX_CONCURRENT = 'execution.checkpointing.max-concurrent-checkpoints';
const TIMEOUT = 'execution.checkpointing.timeout';
const TOLERABLE = 'execution.checkpointing.tolerable-failed-checkpoints';
const NUM_RETAINED = 'execution.checkpointing.num-retained';
const MODE = 'execution.checkpointing.mode';
const UNALIGNED = 'execution.checkpointing.unaligned.enabled';
const ALIGNED_TIMEOUT = 'execution.checkpointing.aligned-checkpoint-timeout';

const EXCEEDED = 'Exceeded checkpoint tolerable failure threshold.';

function periodic(generation: number, at: number): CoordinatorEffect {
  return { type: 'schedule', at, timer: { kind: 'periodic', generation } };
}

function dropped(reason: CheckpointFailureReason, isSavepoint = false): CoordinatorEffect {
  return { type: 'checkpoint-status', status: 'dropped', checkpointId: null, isSavepoint, reason };
}

function failed(checkpointId: number, reason: CheckpointFailureReason, isSavepoint = false): CoordinatorEffect[] {
  return [
    { type: 'checkpoint-status', status: 'failed', checkpointId, isSavepoint, reason },
    { type: 'notify-aborted', checkpointId },
    { type: 'discard-checkpoint', checkpointId },
  ];
}

function completed(checkpointId: number, isSavepoint = false): CoordinatorEffect {
  return { type: 'checkpoint-status', status: 'completed', checkpointId, isSavepoint };
}

function triggered(checkpointId: number, isSavepoint = false): CoordinatorEffect {
  return { type: 'checkpoint-status', status: 'triggered', checkpointId, isSavepoint };
}

describe('periodic scheduling', () => {
  it.each<[string, number, number, number, number]>([
    // name, interval, min-pause, random, expected delay
    ['random 0 waits exactly min-pause', 1000, 200, 0, 200],
    ['random ≈1 waits the whole interval', 1000, 200, ALMOST_ONE, 1000],
    ['random 0.5 waits halfway (Flink nextLong(minPause, base + 1))', 1000, 200, 0.5, 600],
    ['no min-pause and random 0 fires at once', 1000, 0, 0, 0],
    ['min-pause above the interval: base interval = min-pause, random 0', 100, 300, 0, 300],
    ['min-pause above the interval: base interval = min-pause, random ≈1', 100, 300, ALMOST_ONE, 300],
  ])('the first periodic trigger: %s', (_name, interval, minPause, random, delay) => {
    const h = new CoordinatorHarness({ config: { [INTERVAL]: interval, [MIN_PAUSE]: minPause }, random });
    h.now = 50;
    expect(h.start()).toEqual([periodic(0, 50 + delay)]);
    expect(h.coordinator.nextPeriodicTriggerAt).toBe(50 + delay);
    if (delay > 0) expect(h.advanceTo(50 + delay - 1)).toEqual([]);
    h.advanceTo(50 + delay);
    expect(h.triggers()).toEqual([{ at: 50 + delay, id: 1 }]);
  });

  it.each<[string, Record<string, ConfigValue>, number, number, number, number[]]>([
    // name, config, random, checkpoint duration, until, expected trigger times
    ['short checkpoints', { [INTERVAL]: 1000 }, 0.5, 300, 4000, [500, 1500, 2500, 3500]],
    ['checkpoints almost as long as the interval', { [INTERVAL]: 1000 }, 0.5, 900, 4000, [500, 1500, 2500, 3500]],
    ['min-pause above the interval: the period is the min-pause', { [INTERVAL]: 100, [MIN_PAUSE]: 300 }, 0, 0, 1250, [300, 600, 900, 1200]],
  ])('runs at a fixed rate, one interval after the previous due time (%s)', (_name, config, random, duration, until, expected) => {
    const h = new CoordinatorHarness({ config, random });
    h.start();
    h.runAcking(until, duration);
    expect(h.triggers().map((t) => t.at)).toEqual(expected);
    const period = expected[1]! - expected[0]!;
    expect(periodicAts(h.log.map((l) => l.effect))).toEqual([...expected, expected.at(-1)! + period]);
    expect(statuses(h.log.map((l) => l.effect)).filter((s) => s.status === 'dropped')).toEqual([]);
    expect(h.stats.counts).toMatchObject({ total: expected.length, failed: 0 });
  });

  it.each<[string, Record<string, ConfigValue>]>([
    ['not configured', {}],
    ['below 10 ms (Flink MINIMAL_CHECKPOINT_TIME)', { [INTERVAL]: 5 }],
    ['zero', { [INTERVAL]: 0 }],
  ])('with the interval off (%s) startScheduler schedules nothing', (_name, config) => {
    const h = new CoordinatorHarness({ config, random: 0.5 });
    expect(h.start()).toEqual([]);
    expect(h.coordinator.nextPeriodicTriggerAt).toBe(Infinity);
    expect(h.advanceTo(3_600_000)).toEqual([]);
    expect(h.stats.counts.total).toBe(0);
    // manual checkpoints still work
    expect(statuses(h.trigger())).toEqual([triggered(1)]);
  });
});

describe('always checkpointing', () => {
  it('queues periodic requests behind a long checkpoint and starts the next one the moment it completes', () => {
    const h = new CoordinatorHarness({ config: { [INTERVAL]: 100 }, random: ALMOST_ONE });
    h.start();
    h.advanceTo(450); // checkpoint 1 at 100; the triggers at 200, 300, 400 wait
    expect(h.triggers()).toEqual([{ at: 100, id: 1 }]);
    expect(h.pendingIds).toEqual([1]);
    expect(h.coordinator.numQueuedRequests).toBe(3);

    const effects = h.ackAll(1);
    expect(statuses(effects)).toEqual([completed(1), triggered(2)]);
    expect(barriers(effects)).toEqual([expect.objectContaining({ checkpointId: 2, timestamp: 450 })]);
    expect(h.coordinator.numQueuedRequests).toBe(2);

    h.now = 470;
    expect(statuses(h.ackAll(2))).toEqual([completed(2), triggered(3)]);
    expect(h.triggers()).toEqual([
      { at: 100, id: 1 },
      { at: 450, id: 2 },
      { at: 470, id: 3 },
    ]);
    expect(h.stats.counts).toEqual({ restored: 0, total: 3, in_progress: 1, completed: 2, failed: 0 });
  });
});

describe('min-pause', () => {
  it.each<[string, number, number, number, number, number]>([
    // name, interval, min-pause, completion, drop time, re-arm time
    ['min-pause below the interval', 1000, 500, 1800, 2000, 2300],
    ['min-pause above the interval', 1000, 1500, 1600, 3000, 3100],
  ])(
    'drops a periodic request that comes too soon and re-arms the timer at last completion + min-pause (%s)',
    (_name, interval, minPause, completion, dropAt, rearmAt) => {
      const base = Math.max(interval, minPause);
      const h = new CoordinatorHarness({ config: { [INTERVAL]: interval, [MIN_PAUSE]: minPause }, random: ALMOST_ONE });
      h.start();
      h.advanceTo(base);
      expect(h.triggers()).toEqual([{ at: base, id: 1 }]);
      h.advanceTo(completion);
      expect(statuses(h.ackAll(1))).toEqual([completed(1)]);

      expect(h.advanceTo(dropAt)).toEqual([
        periodic(0, dropAt + base), // fixed rate: armed first, as in Flink's ScheduledTrigger
        dropped('MINIMUM_TIME_BETWEEN_CHECKPOINTS'),
        periodic(1, rearmAt), // Flink's rescheduleTrigger(now, lastCompletion + minPause - now)
      ]);
      expect(h.coordinator.nextPeriodicTriggerAt).toBe(rearmAt);
      // a dropped request is neither a failed checkpoint nor a failure for the failure manager
      expect(h.stats.counts).toEqual({ restored: 0, total: 1, in_progress: 0, completed: 1, failed: 0 });
      expect(h.stats.history.map((c) => c.id)).toEqual([1]);
      expect(h.coordinator.continuousFailureCount).toBe(0);

      expect(statuses(h.advanceTo(rearmAt))).toEqual([triggered(2)]);
      // the timer cancelled by the re-arm (dropAt + base) does nothing; the next is one period on
      h.advanceTo(rearmAt + base - 1);
      expect(h.triggers()).toEqual([
        { at: base, id: 1 },
        { at: rearmAt, id: 2 },
      ]);
      expect(h.coordinator.nextPeriodicTriggerAt).toBe(rearmAt + base);
      expect(failJobMessages(h.log.map((l) => l.effect))).toEqual([]);
    },
  );

  it('lets a periodic request start exactly min-pause after the last completion', () => {
    const h = new CoordinatorHarness({ config: { [INTERVAL]: 1000, [MIN_PAUSE]: 500 }, random: ALMOST_ONE });
    h.start();
    h.advanceTo(1500);
    h.ackAll(1);
    expect(statuses(h.advanceTo(2000))).toEqual([triggered(2)]);
  });
});

describe('max-concurrent-checkpoints', () => {
  it.each([1, 2, 3])('with max-concurrent %i, that many are pending at once and the rest wait', (max) => {
    const h = new CoordinatorHarness({ config: { [INTERVAL]: 100, [MAX_CONCURRENT]: max }, random: ALMOST_ONE });
    h.start();
    h.advanceTo(450); // periodic requests at 100, 200, 300, 400
    const started = Array.from({ length: max }, (_, i) => i + 1);
    expect(h.pendingIds).toEqual(started);
    expect(h.triggers().map((t) => t.at)).toEqual(started.map((id) => id * 100));
    expect(h.coordinator.numQueuedRequests).toBe(4 - max);
    expect(h.stats.counts.in_progress).toBe(max);

    h.now = 460;
    expect(statuses(h.ackAll(1))).toEqual([completed(1), triggered(max + 1)]);
    expect(h.pendingIds).toEqual([...started.slice(1), max + 1]);
  });
});

describe('manual checkpoints and savepoints', () => {
  it.each<TriggerKind>(['checkpoint', 'full-checkpoint', 'savepoint'])('a manual %s is not subject to min-pause', (kind) => {
    const h = new CoordinatorHarness({ config: { [MIN_PAUSE]: 10_000 } });
    h.checkpointNow();
    h.now = 20;
    // A FULL checkpoint's status says so, for a recording to replay it as one.
    const full = kind === 'full-checkpoint' ? { checkpointType: 'FULL' } : {};
    expect(statuses(h.trigger(kind))).toEqual([{ ...triggered(2, kind === 'savepoint'), ...full }]);
  });

  it.each<[TriggerKind, boolean, boolean]>([
    // kind, unaligned enabled, starts although max-concurrent is reached
    ['savepoint', false, true],
    ['savepoint', true, false],
    ['checkpoint', false, false],
  ])('a manual %s with unaligned=%s at max-concurrent starts at once: %s', (kind, unaligned, forced) => {
    const h = new CoordinatorHarness({ config: { [UNALIGNED]: unaligned } });
    h.trigger('checkpoint');
    h.now = 10;
    const isSavepoint = kind === 'savepoint';
    const effects = h.trigger(kind);
    if (forced) {
      expect(statuses(effects)).toEqual([triggered(2, isSavepoint)]);
      expect(h.pendingIds).toEqual([1, 2]);
    } else {
      expect(statuses(effects)).toEqual([]);
      expect(h.coordinator.numQueuedRequests).toBe(1);
      h.now = 20;
      expect(statuses(h.ackAll(1))).toEqual([completed(1), triggered(2, isSavepoint)]);
    }
  });

  it('a savepoint completes without notify-complete, stays out of the store and subsumes nothing', () => {
    const h = new CoordinatorHarness({ config: { [NUM_RETAINED]: 1 } });
    expect(h.checkpointNow()).toBe(1);
    h.now = 20;
    h.trigger('savepoint');
    h.now = 30;
    expect(h.ackAll(2)).toEqual([completed(2, true)]);

    expect(h.coordinator.store.getAllCheckpoints().map((c) => c.id)).toEqual([1]);
    expect(h.coordinator.latestCheckpoint()?.id).toBe(1);
    expect(h.coordinator.savepoints.map((s) => [s.id, s.isSavepoint, s.externalPath])).toEqual([[2, true, 'jobmanager://checkpoints/savepoint-2']]);
    // its completion counts for min-pause (Flink sets lastCheckpointCompletionRelativeTime for savepoints too)
    expect(h.coordinator.lastCompletionTime).toBe(30);

    const stats = h.stats;
    expect(stats.latest.completed?.id).toBe(1);
    expect(stats.latest.savepoint).toMatchObject({ id: 2, is_savepoint: true, checkpoint_type: 'SAVEPOINT', savepointFormat: 'CANONICAL' });
    expect(h.historyEntry(1)).toMatchObject({ status: 'COMPLETED', discarded: false });

    // nor does it subsume a pending checkpoint older than itself
    h.now = 40;
    h.trigger('checkpoint'); // 3
    h.now = 50;
    h.trigger('savepoint'); // 4, forced past max-concurrent
    h.now = 60;
    expect(h.ackAll(4)).toEqual([completed(4, true)]);
    expect(h.pendingIds).toEqual([3]);
  });
});

describe('timeout and acknowledgements', () => {
  const config = { [TIMEOUT]: 1000, [TOLERABLE]: 10 };

  it('aborts a checkpoint that does not complete in time with CHECKPOINT_EXPIRED', () => {
    const h = new CoordinatorHarness({ config });
    h.now = 100;
    expect(ofType(h.trigger(), 'schedule')).toEqual([{ type: 'schedule', at: 1100, timer: { kind: 'timeout', checkpointId: 1 } }]);
    h.now = 500;
    expect(h.ack(1, SRC0).result).toBe('success');
    expect(h.advanceTo(1099)).toEqual([]);
    expect(h.advanceTo(1100)).toEqual(failed(1, 'CHECKPOINT_EXPIRED'));

    expect(h.pendingIds).toEqual([]);
    const stats = h.stats;
    expect(stats.counts).toEqual({ restored: 0, total: 1, in_progress: 0, completed: 0, failed: 1 });
    expect(stats.latest.failed).toMatchObject({
      id: 1,
      status: 'FAILED',
      failure_timestamp: 1100,
      failure_message: 'Checkpoint expired before completing.',
      num_acknowledged_subtasks: 1,
    });
    expect(h.coordinator.continuousFailureCount).toBe(1);
  });

  it('ignores the timeout of a checkpoint that already completed', () => {
    const h = new CoordinatorHarness({ config });
    h.checkpointNow();
    expect(h.advanceTo(2000)).toEqual([]);
    expect(h.stats.counts).toMatchObject({ completed: 1, failed: 0 });
  });

  it.each<[string, 'discarded' | 'unknown' | 'duplicate', number, { vertexId: string; subtaskIndex: number }]>([
    ['a late acknowledgement of an expired checkpoint', 'discarded', 1, SINK0],
    ['an acknowledgement for an id never triggered', 'unknown', 7, SRC0],
    ['a second acknowledgement of the same subtask', 'duplicate', 2, SRC0],
    ['an acknowledgement from a subtask outside the plan', 'unknown', 2, { vertexId: 'other', subtaskIndex: 0 }],
  ])('answers %s with %s, changing nothing', (_name, expected, id, subtask) => {
    const h = new CoordinatorHarness({ config });
    h.trigger();
    h.advanceTo(1000); // 1 expires
    h.trigger(); // 2
    h.ack(2, SRC0);
    const before = JSON.stringify(h.stats);
    const { result, effects } = h.ack(id, subtask);
    expect(result).toBe(expected);
    expect(effects).toEqual([]);
    expect(JSON.stringify(h.stats)).toBe(before);
  });
});

describe('tolerable-failed-checkpoints', () => {
  type Failure = (h: CoordinatorHarness) => CoordinatorEffect[];
  const expire: Failure = (h) => {
    h.trigger();
    return h.advanceBy(1000);
  };
  const decline =
    (reason: CheckpointFailureReason): Failure =>
    (h) => {
      const id = statuses(h.trigger()).find((s) => s.status === 'triggered')!.checkpointId!;
      h.now += 10;
      return h.decline(id, reason);
    };

  it.each<[number, string, Failure, string]>([
    [0, 'expired', expire, 'Checkpoint expired before completing.'],
    [1, 'expired', expire, 'Checkpoint expired before completing.'],
    [3, 'expired', expire, 'Checkpoint expired before completing.'],
    [0, 'declined', decline('CHECKPOINT_DECLINED'), 'Checkpoint was declined.'],
    [1, 'declined', decline('CHECKPOINT_DECLINED'), 'Checkpoint was declined.'],
    [3, 'declined', decline('CHECKPOINT_DECLINED'), 'Checkpoint was declined.'],
  ])('with tolerable %i, the next consecutive %s checkpoint fails the job', (tolerable, _kind, fail, reasonMessage) => {
    const h = new CoordinatorHarness({ config: { [TIMEOUT]: 1000, [TOLERABLE]: tolerable } });
    for (let i = 1; i <= tolerable; i++) {
      expect(failJobMessages(fail(h))).toEqual([]);
      expect(h.coordinator.continuousFailureCount).toBe(i);
    }
    const messages = failJobMessages(fail(h));
    expect(messages).toHaveLength(1);
    expect(messages[0]!.startsWith(EXCEEDED)).toBe(true);
    expect(messages[0]).toContain(reasonMessage);
    expect(h.stats.counts.failed).toBe(tolerable + 1);
  });

  it.each<[CheckpointFailureReason, Failure]>([
    ['CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER', decline('CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER')],
    ['CHECKPOINT_DECLINED_SUBSUMED', decline('CHECKPOINT_DECLINED_SUBSUMED')],
    [
      'CHECKPOINT_COORDINATOR_SUSPEND',
      (h) => {
        h.trigger();
        h.now += 10;
        return h.stop();
      },
    ],
    [
      'NOT_ALL_REQUIRED_TASKS_RUNNING',
      (h) => {
        h.plan = { ok: false };
        const effects = h.trigger();
        h.plan = runningPlan();
        return effects;
      },
    ],
  ])('%s never counts against the threshold', (reason, fail) => {
    const h = new CoordinatorHarness({ config: { [TOLERABLE]: 1 } });
    for (let i = 0; i < 3; i++) {
      const effects = fail(h);
      expect(statuses(effects).map((s) => s.reason)).toEqual([reason]);
      expect(failJobMessages(effects)).toEqual([]);
      expect(h.coordinator.continuousFailureCount).toBe(0);
    }
    // the threshold is intact: one counted failure is tolerated, the second is not
    expect(failJobMessages(decline('CHECKPOINT_DECLINED')(h))).toEqual([]);
    expect(failJobMessages(decline('CHECKPOINT_DECLINED')(h))).toHaveLength(1);
  });

  it.each<[string, number | 'never']>([
    // F = a declined checkpoint, S = a completed one; tolerable 1
    ['FF', 2],
    ['FSF', 'never'],
    ['FSFF', 4],
    ['FSFSF', 'never'],
    ['SFFSF', 3],
  ])('a success in between resets the count (tolerable 1): %s fails the job at step %s', (sequence, failsAt) => {
    const h = new CoordinatorHarness({ config: { [TOLERABLE]: 1 } });
    const failJobSteps: number[] = [];
    [...sequence].forEach((step, i) => {
      h.now += 100;
      const effects = step === 'F' ? decline('CHECKPOINT_DECLINED')(h) : h.ackAll(statuses(h.trigger())[0]!.checkpointId!);
      if (failJobMessages(effects).length > 0) failJobSteps.push(i + 1);
    });
    expect(failJobSteps).toEqual(failsAt === 'never' ? [] : [failsAt]);
  });
});

describe('completion', () => {
  it('completes and notifies once every subtask of the plan has acknowledged', () => {
    const h = new CoordinatorHarness();
    const barrier: CheckpointBarrier = { kind: 'barrier', checkpointId: 1, timestamp: 0, checkpointKind: 'CHECKPOINT', alignment: 'ALIGNED' };
    expect(h.trigger()).toEqual([
      triggered(1),
      { type: 'schedule', at: 600_000, timer: { kind: 'timeout', checkpointId: 1 } },
      { type: 'trigger-task', subtask: SRC0, barrier },
    ]);
    h.now = 10;
    expect(h.ack(1, SRC0)).toEqual({ result: 'success', effects: [] });
    expect(h.historyEntry(1)).toMatchObject({ status: 'IN_PROGRESS', num_subtasks: 2, num_acknowledged_subtasks: 1 });
    h.now = 25;
    expect(h.ack(1, SINK0)).toEqual({ result: 'success', effects: [completed(1), { type: 'notify-complete', checkpointId: 1 }] });

    const stats = h.stats;
    expect(stats.counts).toEqual({ restored: 0, total: 1, in_progress: 0, completed: 1, failed: 0 });
    expect(stats.latest.completed).toMatchObject({
      id: 1,
      status: 'COMPLETED',
      external_path: 'jobmanager://checkpoints/chk-1',
      num_acknowledged_subtasks: 2,
      latest_ack_timestamp: 25,
      end_to_end_duration: 25,
      state_size: 200,
      checkpointed_size: 80,
      discarded: false,
    });
    const latest = h.coordinator.latestCheckpoint()!;
    expect([latest.id, latest.triggerTimestamp, latest.completionTimestamp]).toEqual([1, 0, 25]);
    expect([...latest.taskStates.keys()].sort()).toEqual([`${SINK}#0`, `${SOURCE}#0`]);
  });

  it('counts finished subtasks of the plan as acknowledged', () => {
    const h = new CoordinatorHarness({ plan: sourceFinishedPlan() });
    h.now = 5;
    const effects = h.trigger();
    expect(ofType(effects, 'trigger-task').map((e) => e.subtask)).toEqual([SINK0]);
    // Flink's reportFinishedTasks: finished subtasks show as acknowledged when the checkpoint starts
    expect(h.historyEntry(1)).toMatchObject({ status: 'IN_PROGRESS', num_subtasks: 2, num_acknowledged_subtasks: 1, latest_ack_timestamp: 5 });
    h.now = 10;
    expect(h.ack(1, SINK0).effects).toEqual([completed(1), { type: 'notify-complete', checkpointId: 1 }]);
    const latest = h.coordinator.latestCheckpoint()!;
    expect(latest.taskStates.get(`${SOURCE}#0`)?.finished).toBe(true);
    expect(latest.taskStates.has(`${SINK}#0`)).toBe(true);
    expect(h.historyEntry(1)).toMatchObject({ status: 'COMPLETED', num_subtasks: 2, num_acknowledged_subtasks: 2, latest_ack_timestamp: 10 });
  });

  it('completes a plan with only finished subtasks at once', () => {
    const h = new CoordinatorHarness({ plan: allFinishedPlan() });
    h.now = 40;
    expect(h.trigger()).toEqual([
      triggered(1),
      { type: 'schedule', at: 600_040, timer: { kind: 'timeout', checkpointId: 1 } },
      completed(1),
      { type: 'notify-complete', checkpointId: 1 },
    ]);
    expect(h.coordinator.latestCheckpoint()?.taskStates.size).toBe(2);
    expect(h.historyEntry(1)).toMatchObject({ status: 'COMPLETED', num_acknowledged_subtasks: 2, latest_ack_timestamp: 40, end_to_end_duration: 0 });
  });

  it.each([1, 2, 3])('num-retained %i keeps that many completed checkpoints, discarding the oldest', (retained) => {
    const h = new CoordinatorHarness({ config: { [NUM_RETAINED]: retained } });
    for (let i = 0; i < 4; i++) {
      h.now += 100;
      h.checkpointNow();
    }
    const kept = [1, 2, 3, 4].slice(4 - retained);
    const subsumed = [1, 2, 3, 4].slice(0, 4 - retained);
    expect(h.coordinator.store.getAllCheckpoints().map((c) => c.id)).toEqual(kept);
    expect(ofType(h.log.map((l) => l.effect), 'discard-checkpoint').map((e) => e.checkpointId)).toEqual(subsumed);
    for (const id of subsumed) expect(h.historyEntry(id)).toMatchObject({ status: 'COMPLETED', discarded: true });
    for (const id of kept) expect(h.historyEntry(id)).toMatchObject({ status: 'COMPLETED', discarded: false });
  });

  it('with num-retained 2 the third checkpoint subsumes the first', () => {
    const h = new CoordinatorHarness({ config: { [NUM_RETAINED]: 2 } });
    h.checkpointNow();
    h.checkpointNow();
    h.trigger();
    h.ack(3, SRC0);
    expect(h.ack(3, SINK0).effects).toEqual([
      completed(3),
      { type: 'discard-checkpoint', checkpointId: 1 },
      { type: 'notify-complete', checkpointId: 3 },
    ]);
    expect(h.historyEntry(1)).toMatchObject({ status: 'COMPLETED', discarded: true });
  });

  it('aborts older pending checkpoints with CHECKPOINT_SUBSUMED when a newer one completes', () => {
    const h = new CoordinatorHarness({ config: { [MAX_CONCURRENT]: 2 } });
    h.trigger(); // 1
    h.now = 10;
    h.trigger(); // 2
    expect(h.pendingIds).toEqual([1, 2]);
    h.now = 20;
    h.ack(1, SRC0);
    h.ack(2, SRC0);
    expect(h.ack(2, SINK0).effects).toEqual([
      completed(2),
      ...failed(1, 'CHECKPOINT_SUBSUMED'),
      { type: 'notify-complete', checkpointId: 2 },
    ]);
    expect(h.pendingIds).toEqual([]);
    expect(h.ack(1, SINK0)).toEqual({ result: 'discarded', effects: [] });
    expect(h.historyEntry(1)).toMatchObject({ status: 'FAILED', failure_message: 'Checkpoint has been subsumed.' });
    expect(h.stats.counts).toEqual({ restored: 0, total: 2, in_progress: 0, completed: 1, failed: 1 });
    expect(h.coordinator.continuousFailureCount).toBe(0);
  });
});

describe('finalizing asynchronously (the live runtime writes `_metadata` itself)', () => {
  function finalizeEffect(h: CoordinatorHarness, effects: CoordinatorEffect[]) {
    const effect = effects.find((e) => e.type === 'finalize-checkpoint');
    if (effect?.type !== 'finalize-checkpoint') throw new Error(`no finalize-checkpoint in ${JSON.stringify(effects)}`);
    return effect.checkpoint;
  }

  it('completes, subsumes and notifies only once the driver wrote `_metadata`', () => {
    const h = new CoordinatorHarness({ finalizeAsync: true });
    h.checkpointNow(); // 1: written below
    h.finalized(1, true);
    h.trigger(); // 2
    h.now = 30;
    h.ack(2, SRC0);
    const fullyAcked = h.ack(2, SINK0).effects;
    const checkpoint = finalizeEffect(h, fullyAcked);
    expect(fullyAcked).toHaveLength(1);
    expect([checkpoint.id, checkpoint.externalPath, [...checkpoint.taskStates.keys()].sort()]).toEqual([2, 'jobmanager://checkpoints/chk-2', [`${SINK}#0`, `${SOURCE}#0`]]);
    // While `_metadata` is written, 1 is still the checkpoint to restore, and 2 still pending.
    expect(h.coordinator.latestCheckpoint()?.id).toBe(1);
    expect(h.pendingIds).toEqual([2]);
    expect(h.historyEntry(2)).toMatchObject({ status: 'IN_PROGRESS', num_acknowledged_subtasks: 2 });
    h.now = 45;
    expect(h.finalized(2, true)).toEqual([completed(2), { type: 'discard-checkpoint', checkpointId: 1 }, { type: 'notify-complete', checkpointId: 2 }]);
    expect(h.coordinator.latestCheckpoint()?.completionTimestamp).toBe(45);
    expect(h.stats.counts).toMatchObject({ completed: 2, failed: 0, in_progress: 0 });
  });

  it('fails the checkpoint with FINALIZE_CHECKPOINT_FAILURE when the write fails, counted, and keeps the one before', () => {
    const h = new CoordinatorHarness({ finalizeAsync: true, config: { [TOLERABLE]: 0 } });
    h.checkpointNow();
    h.finalized(1, true);
    h.checkpointNow();
    const effects = h.finalized(2, false);
    expect(effects.slice(0, 3)).toEqual(failed(2, 'FINALIZE_CHECKPOINT_FAILURE'));
    expect(effects[3]).toMatchObject({ type: 'fail-job', message: expect.stringContaining('Failure to finalize checkpoint.') });
    expect(h.historyEntry(2)).toMatchObject({ status: 'FAILED', failure_message: 'Failure to finalize checkpoint.' });
    expect(h.coordinator.latestCheckpoint()?.id).toBe(1);
    // A late report of the same write changes nothing.
    expect(h.finalized(2, true)).toEqual([]);
  });

  it('does not expire a checkpoint whose `_metadata` is being written, and counts it against max-concurrent', () => {
    const h = new CoordinatorHarness({ finalizeAsync: true, config: { [TIMEOUT]: 100 } });
    h.checkpointNow(); // fully acknowledged at 0, its timeout due at 100
    h.now = 10;
    expect(statuses(h.trigger())).toEqual([]);
    expect(h.coordinator.numQueuedRequests).toBe(1);
    expect(h.advanceTo(500)).toEqual([]);
    expect(h.pendingIds).toEqual([1]);
    // Written: 1 completes and the queued request starts.
    expect(statuses(h.finalized(1, true))).toEqual([completed(1), triggered(2)]);
  });

  it('drops a write that finishes after a failover aborted the checkpoint', () => {
    const h = new CoordinatorHarness({ finalizeAsync: true });
    h.checkpointNow();
    expect(h.stop()).toEqual(failed(1, 'CHECKPOINT_COORDINATOR_SUSPEND'));
    expect(h.finalized(1, true)).toEqual([]);
    expect(h.coordinator.latestCheckpoint()).toBeUndefined();
  });
});

describe('a plan that cannot be made', () => {
  it('fails the request with NOT_ALL_REQUIRED_TASKS_RUNNING, counted in counts.total and counts.failed', () => {
    const h = new CoordinatorHarness({ config: { [INTERVAL]: 1000 }, random: 0, plan: { ok: false } });
    h.start();
    h.advanceTo(2500); // periodic requests at 0, 1000, 2000
    h.trigger('savepoint');
    expect(statuses(h.log.map((l) => l.effect))).toEqual([
      dropped('NOT_ALL_REQUIRED_TASKS_RUNNING'),
      dropped('NOT_ALL_REQUIRED_TASKS_RUNNING'),
      dropped('NOT_ALL_REQUIRED_TASKS_RUNNING'),
      dropped('NOT_ALL_REQUIRED_TASKS_RUNNING', true),
    ]);
    expect(h.stats.counts).toEqual({ restored: 0, total: 4, in_progress: 0, completed: 0, failed: 4 });
    expect(h.stats.history).toEqual([]);
    expect(h.coordinator.continuousFailureCount).toBe(0);
    expect(failJobMessages(h.log.map((l) => l.effect))).toEqual([]);
    // the periodic trigger keeps its fixed rate, and no checkpoint id was used up
    expect(h.coordinator.nextPeriodicTriggerAt).toBe(3000);
    h.plan = runningPlan();
    expect(statuses(h.advanceTo(3000))).toEqual([triggered(1)]);
  });
});

describe('stopScheduler', () => {
  it('aborts pending checkpoints and queued requests, and stale periodic timers do nothing', () => {
    const h = new CoordinatorHarness({ config: { [INTERVAL]: 100 }, random: ALMOST_ONE });
    h.start();
    h.advanceTo(250); // checkpoint 1 at 100, the request at 200 waits
    expect(h.pendingIds).toEqual([1]);
    expect(h.coordinator.numQueuedRequests).toBe(1);

    expect(h.stop()).toEqual([dropped('CHECKPOINT_COORDINATOR_SUSPEND'), ...failed(1, 'CHECKPOINT_COORDINATOR_SUSPEND')]);
    expect(h.pendingIds).toEqual([]);
    expect(h.coordinator.numQueuedRequests).toBe(0);
    expect(h.coordinator.nextPeriodicTriggerAt).toBe(Infinity);
    // Flink's abortAll only fails the queued request's future: only the pending checkpoint counts
    expect(h.stats.counts).toEqual({ restored: 0, total: 1, in_progress: 0, completed: 0, failed: 1 });
    expect(h.historyEntry(1)).toMatchObject({ status: 'FAILED', failure_message: 'Checkpoint Coordinator is suspending.' });
    expect(h.ack(1, SRC0).result).toBe('discarded');

    // the periodic timer armed before the stop (300) fires into nothing
    expect(h.advanceTo(1000)).toEqual([]);
    expect(h.start()).toEqual([periodic(1, 1100)]);
    expect(h.call((e, now) => h.coordinator.onTimer({ kind: 'periodic', generation: 0 }, now, e))).toEqual([]);
    expect(statuses(h.advanceTo(1100))).toEqual([triggered(2)]);
  });
});

describe('barrier alignment (Flink CheckpointOptions.forConfig)', () => {
  type Row = [string, Record<string, ConfigValue>, TriggerKind, Partial<CheckpointBarrier>];
  it.each<Row>([
    ['exactly-once, unaligned off', {}, 'checkpoint', { checkpointKind: 'CHECKPOINT', alignment: 'ALIGNED' }],
    ['AT_LEAST_ONCE mode', { [MODE]: 'AT_LEAST_ONCE' }, 'checkpoint', { checkpointKind: 'CHECKPOINT', alignment: 'AT_LEAST_ONCE' }],
    ['AT_LEAST_ONCE mode, a savepoint (the mode is checked first)', { [MODE]: 'AT_LEAST_ONCE' }, 'savepoint', { checkpointKind: 'SAVEPOINT', alignment: 'AT_LEAST_ONCE' }],
    ['a savepoint', {}, 'savepoint', { checkpointKind: 'SAVEPOINT', alignment: 'ALIGNED' }],
    ['a savepoint with unaligned on', { [UNALIGNED]: true }, 'savepoint', { checkpointKind: 'SAVEPOINT', alignment: 'ALIGNED' }],
    ['unaligned on, aligned-checkpoint-timeout 0', { [UNALIGNED]: true, [ALIGNED_TIMEOUT]: 0 }, 'checkpoint', { checkpointKind: 'UNALIGNED_CHECKPOINT', alignment: 'UNALIGNED' }],
    ['unaligned on, a full checkpoint', { [UNALIGNED]: true }, 'full-checkpoint', { checkpointKind: 'UNALIGNED_CHECKPOINT', alignment: 'UNALIGNED' }],
    ['unaligned on, aligned-checkpoint-timeout 2 s', { [UNALIGNED]: true, [ALIGNED_TIMEOUT]: '2 s' }, 'checkpoint', { alignment: 'ALIGNED', alignedTimeoutAt: 2700 }],
  ])('%s', (_name, config, kind, expected) => {
    const h = new CoordinatorHarness({ config });
    h.now = 700;
    const effects = h.trigger(kind);
    const [barrier] = barriers(effects);
    expect(barriers(effects)).toHaveLength(1);
    expect(barrier).toMatchObject({ kind: 'barrier', checkpointId: 1, timestamp: 700, ...expected });
    if (expected.alignedTimeoutAt === undefined) expect(barrier).not.toHaveProperty('alignedTimeoutAt');
    expect(h.coordinator.pendingCheckpoints[0]?.barrier).toEqual(barrier);
    expect(h.historyEntry(1)).toMatchObject({ is_savepoint: kind === 'savepoint', trigger_timestamp: 700 });
  });
});
