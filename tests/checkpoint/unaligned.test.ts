import { describe, expect, it } from 'vitest';
import type { TaskEffect } from '../../engine/protocol.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { TaskRestore } from '../../engine/task/stream-task.ts';
import type { KeyedStateSnapshot } from '../../engine/state/keyed-state-backend.ts';
import { randomFaultJob } from '../support/random-fault-job.ts';
import { pipeline, sequenceSource, vertex } from '../support/scenario-builder.ts';
import {
  IN_A,
  IN_B,
  OUT,
  TaskHarness,
  barrier,
  data,
  keyedCountTwoChannels,
  keyedValues,
  kindOf,
  recordsPerKey,
  sendsIn,
  snapshotsIn,
} from '../support/task-harness.ts';

const UC = { alignment: 'UNALIGNED' as const };
const queued = (h: TaskHarness, channel: number) => h.task.gates[0]!.channels[channel]!.queue.length;
const inputState = (persist: ReturnType<typeof snapshotsIn>[number], channel: number) =>
  persist.snapshot.channelState!.inputs.filter((e) => e.gate === 0 && e.channel === channel).flatMap((e) => e.buffers);
const firstValues = (effects: TaskEffect[]) => sendsIn(effects, OUT).map((s) => (s.buffer.kind === 'data' ? `${s.buffer.records[0]?.key}=${s.buffer.records[0]?.value}` : kindOf(s.buffer)));

/**
 * A keyed count with two input channels whose one output has no credit left and one buffer
 * waiting; then an unaligned checkpoint whose first barrier (on A, at t = 10) overtakes one
 * buffer, while B holds one buffer and receives two more before its barrier (t = 20).
 */
function unalignedCheckpoint() {
  const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 2 }));
  h.at(0).deliver(IN_A, data('x', 3)).run(); // three outputs: two sent (credit 2 → 0), one waits
  expect(h.task.router.subpartitions[0]!.credits).toBe(0);
  h.at(10).deliver(IN_B, data('y', 1)).deliver(IN_A, data('x', 1), barrier(1, { ...UC, timestamp: 8 }));
  const first = h.poll();
  const rest = h.run();
  const last = h.at(20).deliver(IN_B, data('y', 2)).deliver(IN_A, data('x', 5)).deliver(IN_B, barrier(1, UC)).run();
  return { h, first, rest, last };
}

describe('unaligned checkpoints at the task', () => {
  it('snapshots at the first barrier, which overtook its channel, and acknowledges once the last barrier arrived', () => {
    const { h, first, rest, last } = unalignedCheckpoint();
    // The first poll read the barrier (it overtook x×1) and took the snapshot, but does not acknowledge yet.
    expect(snapshotsIn([...first, ...rest])).toEqual([]);
    expect(h.task.gates[0]!.channels[0]!.lastBarrierId).toBe(1);
    const [persist] = snapshotsIn(last);
    expect(persist?.checkpointId).toBe(1);
    expect(keyedValues(persist!.snapshot, 'aggregate')).toEqual({ x: 3 });
    // In flight: A's overtaken buffer; B's queued one and the two that came before its barrier;
    // not A's five records that came after A's barrier.
    expect(recordsPerKey(inputState(persist!, 0))).toEqual({ x: 1 });
    expect(recordsPerKey(inputState(persist!, 1))).toEqual({ y: 3 });
    // Output: the buffer that waited for credit, overtaken by the barrier.
    expect(persist!.snapshot.channelState!.outputs).toEqual([{ channelId: OUT, buffers: [expect.objectContaining({ records: [{ key: 'x', value: 3, timestamp: 0 }] })] }]);
    expect(persist!.metrics).toMatchObject({ startDelayMs: 2, alignmentDurationMs: 10, persistedDataBytes: 500, unalignedCheckpoint: true });
    expect(persist!.snapshot.stateSize).toBeGreaterThan(500);
  });

  it('persists only what a barrier overtook on its channel, not what arrived after it before it was read', () => {
    const h = new TaskHarness(keyedCountTwoChannels());
    // Both barriers arrive while the task is not polled: each overtakes one buffer, one comes after each.
    h.at(0).deliver(IN_A, data('x', 1), barrier(1, UC), data('x', 2)).deliver(IN_B, data('y', 1), barrier(1, UC), data('y', 2));
    const [persist] = snapshotsIn(h.run());
    expect(recordsPerKey(inputState(persist!, 0))).toEqual({ x: 1 });
    expect(recordsPerKey(inputState(persist!, 1))).toEqual({ y: 1 });
    expect(persist!.metrics.persistedDataBytes).toBe(200);
    expect(keyedValues({ ...persist!.snapshot, keyedState: h.task.keyedState!.snapshot() }, 'aggregate')).toEqual({ x: 3, y: 3 });
  });

  it('sends the barrier ahead of the queued output buffers, even with zero credits', () => {
    const { first, rest } = unalignedCheckpoint();
    expect(sendsIn(first)).toEqual([]);
    const sent = sendsIn(rest, OUT);
    expect(sent.map((s) => kindOf(s.buffer))).toEqual(['priority barrier 1']);
    expect(sent[0]!.buffer.kind === 'event' && sent[0]!.buffer.event).toMatchObject({ kind: 'barrier', alignment: 'UNALIGNED' });
  });

  it('processes priority barriers while its output is backpressured', () => {
    const { h, last } = unalignedCheckpoint();
    expect(h.last?.status).toBe('backpressured');
    expect(snapshotsIn(last)).toHaveLength(1);
    expect(queued(h, 0)).toBe(2); // A's overtaken buffer and its later records wait for credit
  });

  it('forgets the snapshot when the checkpoint is aborted before its last barrier', () => {
    const h = new TaskHarness(keyedCountTwoChannels());
    h.at(0).deliver(IN_A, barrier(1, UC)).run();
    h.task.notifyCheckpointAborted(1);
    h.at(5).deliver(IN_B, data('y', 1), barrier(1, UC)).run();
    expect(snapshotsIn(h.effects)).toEqual([]);
    // The next checkpoint starts clean: nothing of checkpoint 1's in-flight data is in it.
    const [persist] = snapshotsIn(h.at(10).deliver(IN_A, barrier(2, UC)).deliver(IN_B, barrier(2, UC)).run());
    expect(persist?.checkpointId).toBe(2);
    expect(persist!.snapshot.channelState!.inputs).toEqual([]);
    expect(persist!.metrics.persistedDataBytes).toBe(100); // only y=1, waiting in the output
  });

  it('restores from that snapshot: replays the input buffers first and sends the output buffers again', () => {
    const { h, last } = unalignedCheckpoint();
    const persist = snapshotsIn(last)[0]!;
    const restore: TaskRestore = {
      checkpointId: 1,
      keyedState: [persist.snapshot.keyedState as KeyedStateSnapshot],
      pendingTransactions: undefined,
      channelState: persist.snapshot.channelState!,
    };
    const restored = new TaskHarness(h.deployment, restore);
    restored.at(0).deliver(IN_A, data('z', 1)).run();
    // The output state first, then what the replayed inputs produce, then the new input.
    expect(firstValues(restored.effects)).toEqual(['x=3', 'x=4']);
    restored.task.addCredits(OUT, 10);
    restored.at(50).run();
    expect(firstValues(restored.effects)).toEqual(['x=3', 'x=4', 'y=1', 'y=2', 'y=3', 'z=1']);
    // Replayed buffers took no credit from the senders: only the new one returns one.
    expect(restored.effects.filter((e) => e.type === 'credit')).toEqual([{ type: 'credit', channelId: IN_A, credits: 1 }]);
  });
});

describe('aligned checkpoints with an aligned-checkpoint-timeout (alternating)', () => {
  const timeoutable = (o: { timestamp?: number } = {}) => ({ timestamp: 0, alignedTimeoutAt: 50, ...o });

  it('switches to unaligned at the timeout: pulls the queued barrier forward and persists the data it overtook', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 16 }));
    h.at(10).deliver(IN_A, barrier(1, timeoutable())).run();
    expect(h.last).toEqual({ status: 'idle', wakeAt: 50 });
    h.at(20).deliver(IN_A, data('x', 3)).run();
    expect(h.last).toEqual({ status: 'idle', wakeAt: 50 });
    // B's data and barrier are queued when the timer fires (the task was not polled in between).
    h.at(45).deliver(IN_B, data('y', 1), data('y', 2), barrier(1, timeoutable()));
    const switched = h.at(50).run();
    const [persist] = snapshotsIn(switched);
    expect(persist?.metrics).toMatchObject({ unalignedCheckpoint: true, startDelayMs: 10, persistedDataBytes: 300 });
    expect(persist!.metrics.alignmentDurationMs).toBeCloseTo(40, 0); // B's barrier was read right after the switch
    expect(keyedValues(persist!.snapshot, 'aggregate')).toEqual({});
    expect(recordsPerKey(inputState(persist!, 1))).toEqual({ y: 3 });
    expect(inputState(persist!, 0)).toEqual([]); // A's records came after its barrier
    // The barrier went downstream as a priority event, and every channel was read afterwards.
    expect(firstValues(switched)[0]).toBe('priority barrier 1');
    expect(h.task.isAligning).toBe(false);
    expect(keyedValues({ ...persist!.snapshot, keyedState: h.task.keyedState!.snapshot() }, 'aggregate')).toEqual({ x: 3, y: 3 });
  });

  it('completes aligned when every barrier arrives before the timeout', () => {
    const h = new TaskHarness(keyedCountTwoChannels());
    h.at(10).deliver(IN_A, barrier(1, timeoutable())).run();
    const [persist] = snapshotsIn(h.at(30).deliver(IN_B, barrier(1, timeoutable())).run());
    expect(persist?.metrics).toMatchObject({ unalignedCheckpoint: false, alignmentDurationMs: 20, persistedDataBytes: 0 });
    h.at(60).run();
    expect(h.last).toEqual({ status: 'idle' });
    expect(sendsIn(h.effects).map((s) => kindOf(s.buffer))).toEqual(['barrier 1']);
  });

  it('switches when an upstream that timed out sends its barrier as a priority event', () => {
    const h = new TaskHarness(keyedCountTwoChannels());
    h.at(10).deliver(IN_A, barrier(1, timeoutable())).run();
    h.at(20).deliver(IN_B, data('y', 2), barrier(1, UC));
    const [persist] = snapshotsIn(h.run());
    expect(persist?.metrics).toMatchObject({ unalignedCheckpoint: true, persistedDataBytes: 200 });
  });

  it('moves a barrier still waiting in an output at the timeout to the front; what it overtakes is output channel state', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 2 }));
    h.at(0).deliver(IN_A, data('x', 3)).run(); // two outputs sent, one waits without credit
    h.at(10).deliver(IN_A, barrier(1, timeoutable())).deliver(IN_B, barrier(1, timeoutable())).run();
    // Aligned in time, but the barrier waits behind x=3: the acknowledgement waits for it.
    expect(snapshotsIn(h.effects)).toEqual([]);
    expect(h.last).toEqual({ status: 'idle', wakeAt: 50 });
    const timedOut = h.at(50).run();
    const [persist] = snapshotsIn(timedOut);
    // Flink reports the subtask's own snapshot as aligned (checkpointMetrics.setUnalignedCheckpoint(options…)).
    expect(persist?.metrics).toMatchObject({ unalignedCheckpoint: false, persistedDataBytes: 100, startDelayMs: 10 });
    expect(persist!.snapshot.channelState!.outputs.map((o) => recordsPerKey(o.buffers))).toEqual([{ x: 1 }]);
    expect(firstValues(timedOut)).toEqual(['priority barrier 1']);
  });

  it('acknowledges with no channel state when the barrier leaves the output before the timeout', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 2 }));
    h.at(0).deliver(IN_A, data('x', 3)).run();
    h.at(10).deliver(IN_A, barrier(1, timeoutable())).deliver(IN_B, barrier(1, timeoutable())).run();
    h.task.addCredits(OUT, 2);
    const [persist] = snapshotsIn(h.at(20).run());
    expect(persist?.metrics).toMatchObject({ unalignedCheckpoint: false, persistedDataBytes: 0 });
    expect(persist!.snapshot.channelState).toBeUndefined();
    expect(firstValues(h.effects)).toEqual(['x=1', 'x=2', 'x=3', 'barrier 1']);
  });

  it('announces barriers queued behind data, so the timeout switches before any barrier is read', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 1 }));
    // The output fills at once: every barrier stays queued behind data the task cannot read.
    h.at(10).deliver(IN_A, data('x', 1), data('x', 2), data('x', 4), barrier(1, timeoutable())).deliver(IN_B, data('y', 3), data('y', 5), barrier(1, timeoutable())).run();
    expect(h.task.metrics.mode).toBe('backpressured');
    expect(h.task.isAligning).toBe(false); // announced, but no barrier read: nothing blocked
    expect(h.last).toEqual({ status: 'idle', wakeAt: 50 });
    const switched = h.at(50).run();
    const [persist] = snapshotsIn(switched);
    // Both barriers overtook their queues at the switch and were read at once: the snapshot is complete.
    expect(persist?.metrics).toMatchObject({ unalignedCheckpoint: true, startDelayMs: 50 });
    expect(persist!.metrics.alignmentDurationMs).toBeLessThan(1);
    const unread = { ...recordsPerKey(inputState(persist!, 0)), ...recordsPerKey(inputState(persist!, 1)) };
    const counted = keyedValues(persist!.snapshot, 'aggregate');
    // Every record is either in the snapshot's state or in its in-flight data, never both.
    const total = (key: string) => Number(counted[key] ?? 0) + (unread[key] ?? 0);
    expect({ x: total('x'), y: total('y') }).toEqual({ x: 7, y: 8 });
    expect(unread['y']).toBe(8);
    expect(firstValues(switched)[0]).toBe('priority barrier 1');
  });

  it('asks to be woken at the timeout even when its output is full, and switches then', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 1 }));
    h.at(10).deliver(IN_A, barrier(1, timeoutable())).run();
    h.at(11).deliver(IN_B, data('y', 3), data('y', 1)).run();
    expect(h.task.metrics.mode).toBe('backpressured');
    // PollOutcome's 'backpressured' has no wake time: the task waits as idle until the timer.
    expect(h.last).toEqual({ status: 'idle', wakeAt: 50 });
    expect(snapshotsIn(h.at(50).run())).toEqual([]); // switched; B's barrier is still to come
    expect(firstValues(h.effects)).toEqual(['y=1', 'priority barrier 1']);
    // B's late aligned barrier overtakes B's queue and is read although the output is still full.
    const [persist] = snapshotsIn(h.at(60).deliver(IN_B, data('y', 2), barrier(1, timeoutable())).run());
    // In flight: B's y×1 and y×2 ahead of its barrier, and the outputs y=2, y=3 the barrier overtook.
    expect(persist?.metrics).toMatchObject({ unalignedCheckpoint: true, persistedDataBytes: 500 });
    expect(recordsPerKey(inputState(persist!, 1))).toEqual({ y: 3 });
    expect(persist!.snapshot.channelState!.outputs.map((o) => o.buffers.length)).toEqual([2]);
    expect(keyedValues(persist!.snapshot, 'aggregate')).toEqual({ y: 3 });
    expect(h.last?.status).toBe('backpressured');
  });
});

// ---- end to end, in the simulation ----

/** source → slow keyed count (hash) → sink, the count slower than the sources' rate. */
function backpressuredJob(config: Scenario['config'], o: { countCostUs?: number; rate?: number; count?: number; sink?: 'plain' | 'two-phase-commit'; untilMs?: number } = {}): Scenario {
  const job = pipeline(
    [
      vertex('source', sequenceSource(8, o.rate ?? 5000, o.count ?? 1_000_000), 2),
      vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, 2, o.countCostUs ?? 500),
      vertex('sink', { type: 'sink', sink: o.sink ?? 'plain' }, 2),
    ],
    [
      ['source', 'count', 'hash'],
      ['count', 'sink', 'forward'],
    ],
  );
  return { ...job, config: { 'execution.checkpointing.interval': 200, ...config }, run: { until_ms: o.untilMs ?? 4000 } };
}

function simulate(scenario: Scenario): Simulation {
  const sim = new Simulation(scenario);
  sim.runToEnd();
  return sim;
}

function completedIds(sim: Simulation): number[] {
  return sim.coordinator.stats.checkpointingStatistics().history.filter((c) => c.className === 'completed').map((c) => c.id);
}

/** Per completed checkpoint, per vertex: each subtask's unaligned flag and persisted bytes. */
function subtaskFigures(sim: Simulation, vertices: string[]) {
  const stats = sim.coordinator.stats;
  return completedIds(sim).flatMap((id) =>
    vertices.flatMap((v) =>
      stats.taskCheckpointStatistics(id, v)!.subtasks.flatMap((s) => (s.className === 'completed' ? [{ id, vertex: v, unaligned: s.unaligned_checkpoint, persisted: s.alignment.persisted }] : [])),
    ),
  );
}

function maxStartDelay(sim: Simulation, vertex: string): number {
  return Math.max(...completedIds(sim).map((id) => sim.coordinator.stats.taskCheckpointStatistics(id, vertex)!.summary.start_delay.max));
}

function againstFailureFree(scenario: Scenario) {
  const faulty = simulate(scenario);
  const reference = simulate({ ...scenario, faults: [] });
  return { faulty, reference, ...faulty.sinkOutput.compareTo(reference.sinkOutput) };
}

const UC_ON = { 'execution.checkpointing.unaligned.enabled': true };
const FAILOVER = { 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 10, 'restart-strategy.fixed-delay.delay': 50 };

describe('unaligned checkpoints in a backpressured job', () => {
  it('persist in-flight data and start and finish far sooner than aligned ones', () => {
    const aligned = simulate(backpressuredJob({}));
    const unaligned = simulate(backpressuredJob(UC_ON));
    const a = aligned.coordinator.stats.checkpointingStatistics();
    const u = unaligned.coordinator.stats.checkpointingStatistics();
    expect(a.counts.completed).toBeGreaterThanOrEqual(2);
    expect(u.counts.completed).toBeGreaterThan(3 * a.counts.completed);
    expect(a.summary.persisted_data.max).toBe(0);
    expect(u.summary.persisted_data.min).toBeGreaterThan(0);
    expect(u.summary.end_to_end_duration.avg).toBeLessThan(a.summary.end_to_end_duration.avg / 4);
    expect(maxStartDelay(unaligned, 'sink')).toBeLessThan(maxStartDelay(aligned, 'sink') / 4);
    expect(subtaskFigures(unaligned, ['source', 'count', 'sink']).every((s) => s.unaligned)).toBe(true);
  });

  it('stays exactly-once with a two-phase-commit sink through a task failure restored from in-flight data', () => {
    // Checkpoints go on after the sources finish (FLIP-147): a longer history keeps the restored one's details.
    const scenario = backpressuredJob({ ...UC_ON, ...FAILOVER, 'execution.checkpointing.interval': 100, 'web.checkpoints.history': 100 }, { sink: 'two-phase-commit', count: 3000, untilMs: Infinity });
    const { faulty, reference, duplicates, missing } = againstFailureFree({ ...scenario, faults: [{ at_ms: 900, type: 'fail-task', vertex: 'count', subtask: 0 }] });
    expect(faulty.jobStatus).toBe('FINISHED');
    expect(faulty.restores).toHaveLength(1);
    const restoredFrom = faulty.coordinator.stats.checkpointDetails(faulty.restores[0]!.checkpointId);
    expect(restoredFrom?.persisted_data).toBeGreaterThan(0);
    expect({ duplicates, missing }).toEqual({ duplicates: 0, missing: 0 });
    expect(faulty.sinkOutput.totalRecords).toBe(reference.sinkOutput.totalRecords);
  });
});

describe('execution.checkpointing.aligned-checkpoint-timeout', () => {
  const ALTERNATING = { ...UC_ON, 'execution.checkpointing.aligned-checkpoint-timeout': 100 };

  it('switches subtasks of a backpressured job to unaligned once the timeout passes', () => {
    const sim = simulate(backpressuredJob(ALTERNATING));
    const figures = subtaskFigures(sim, ['source', 'count', 'sink']);
    expect(sim.coordinator.stats.checkpointingStatistics().counts.completed).toBeGreaterThan(10);
    // The count's inputs were still aligning at the timeout: it switched and persisted in-flight data.
    const counts = figures.filter((f) => f.vertex === 'count');
    expect(counts.every((f) => f.unaligned && f.persisted > 0)).toBe(true);
    // The sources' barriers were stuck behind their backlog: moved ahead at the timeout (output
    // channel state), while their own snapshots stayed aligned, as Flink reports them.
    const sources = figures.filter((f) => f.vertex === 'source');
    expect(sources.some((f) => f.persisted > 0)).toBe(true);
    expect(sources.every((f) => !f.unaligned)).toBe(true);
    expect(maxStartDelay(sim, 'sink')).toBeLessThan(maxStartDelay(simulate(backpressuredJob({})), 'sink') / 2);
  });

  it('completes aligned when the job is not backpressured', () => {
    const sim = simulate(backpressuredJob(ALTERNATING, { countCostUs: 20, rate: 1000 }));
    const figures = subtaskFigures(sim, ['source', 'count', 'sink']);
    expect(sim.coordinator.stats.checkpointingStatistics().counts.completed).toBeGreaterThan(15);
    expect(figures.every((f) => !f.unaligned && f.persisted === 0)).toBe(true);
    expect(sim.coordinator.stats.checkpointingStatistics().summary.persisted_data.max).toBe(0);
  });

  it('stays exactly-once with a two-phase-commit sink through a task failure', () => {
    const scenario = backpressuredJob({ ...ALTERNATING, ...FAILOVER, 'execution.checkpointing.interval': 150 }, { sink: 'two-phase-commit', count: 3000, untilMs: Infinity });
    const { faulty, duplicates, missing } = againstFailureFree({ ...scenario, faults: [{ at_ms: 900, type: 'fail-task', vertex: 'count', subtask: 1 }] });
    expect(faulty.jobStatus).toBe('FINISHED');
    expect(faulty.restores).toHaveLength(1);
    expect(faulty.coordinator.stats.checkpointDetails(faulty.restores[0]!.checkpointId)?.persisted_data).toBeGreaterThan(0);
    expect({ duplicates, missing }).toEqual({ duplicates: 0, missing: 0 });
  });

  it('stays exactly-once under seeded fault schedules with timeouts from 5 to 100 ms', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const base = randomFaultJob(seed, { mode: 'EXACTLY_ONCE', sink: 'two-phase-commit' });
      const timeout = [5, 20, 50, 100][seed % 4]!;
      const scenario = { ...base, config: { ...base.config, ...UC_ON, 'execution.checkpointing.aligned-checkpoint-timeout': timeout } };
      const { faulty, duplicates, missing } = againstFailureFree(scenario);
      expect({ seed, status: faulty.jobStatus, duplicates, missing }).toEqual({ seed, status: 'FINISHED', duplicates: 0, missing: 0 });
    }
  }, 60_000);
});
