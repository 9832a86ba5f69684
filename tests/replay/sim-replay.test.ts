import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import { SessionRecorder } from '../../engine/replay/session-recorder.ts';
import type { DeliveryLog } from '../../engine/replay/delivery-log.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { pipeline, sequenceSource, vertex } from '../support/scenario-builder.ts';
import { replayOf } from '../../engine/replay/replay-pacer.ts';

/** Keyed counts, parallelism 4, a two-phase-commit sink, a checkpoint every 200 ms; bounded. */
function keyedCounts(overrides: { recordCostUs?: number; latencyMs?: number; faults?: Scenario['faults'] } = {}): Scenario {
  const cost = overrides.recordCostUs ?? 5;
  const scenario = pipeline(
    [
      vertex('source', sequenceSource(24, 2000, 3000), 4, cost),
      vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, 4, cost),
      vertex('sink', { type: 'sink', sink: 'two-phase-commit' }, 4, cost),
    ],
    [
      ['source', 'count', 'hash'],
      ['count', 'sink', 'forward'],
    ],
    { config: { 'execution.checkpointing.interval': '200 ms' }, faults: overrides.faults ?? [] },
  );
  return { ...scenario, costs: { ...scenario.costs, network_latency_ms: overrides.latencyMs ?? scenario.costs.network_latency_ms } };
}

function record(scenario: Scenario, replay?: DeliveryLog): { sim: Simulation; log: DeliveryLog } {
  const recorder = new SessionRecorder();
  const sim = new Simulation(scenario, { recorder, ...(replay ? { replay: replayOf(replay) } : {}) });
  sim.runToEnd();
  return { sim, log: recorder.log(sim.now) };
}

function completedCheckpoints(sim: Simulation): number[] {
  return sim.events.flatMap((e) => (e.type === 'checkpoint-completed' ? [e.checkpointId] : []));
}

function jobStatuses(sim: Simulation): string[] {
  return sim.events.flatMap((e) => (e.type === 'job-status' ? [e.status] : []));
}

describe('replaying a recorded session in sim', () => {
  it('reproduces its own delivery order, checkpoints and sink output (sim → record → sim)', () => {
    const original = record(keyedCounts());
    expect(original.sim.jobStatus).toBe('FINISHED');
    expect(original.log.checkpoints.length).toBeGreaterThan(0);
    const replayed = record(keyedCounts(), original.log);
    expect(replayed.log.subtasks).toEqual(original.log.subtasks);
    expect(replayed.log.checkpoints).toEqual(original.log.checkpoints);
    expect(completedCheckpoints(replayed.sim)).toEqual(completedCheckpoints(original.sim));
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });

  it('follows the recorded order even where its own costs would deliver in another order', () => {
    const original = record(keyedCounts({ recordCostUs: 5, latencyMs: 0.2 }));
    const other = keyedCounts({ recordCostUs: 37, latencyMs: 1.3 });
    // Unreplayed, the other costs interleave the channels differently (so this test can fail).
    expect(record(other).log.subtasks).not.toEqual(original.log.subtasks);
    const replayed = record(other, original.log);
    expect(replayed.log.subtasks).toEqual(original.log.subtasks);
    expect(completedCheckpoints(replayed.sim)).toEqual(completedCheckpoints(original.sim));
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });

  it('replays a failed task: the restart restores the recorded checkpoint and consumes as recorded', () => {
    const faults: Scenario['faults'] = [{ at_ms: 700, type: 'fail-task', vertex: 'count', subtask: 1 }];
    const original = record(keyedCounts({ faults }));
    expect(original.log.restores).toHaveLength(1);
    expect(original.log.faults).toEqual([{ time: 700, fault: { at_ms: 700, type: 'fail-task', vertex: 'count', subtask: 1 }, job: { attempt: 0, status: 'RUNNING' } }]);
    const replayed = record(keyedCounts({ recordCostUs: 11 }), original.log);
    expect(replayed.log.restores).toEqual(original.log.restores);
    expect(replayed.log.subtasks).toEqual(original.log.subtasks);
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });

  it('holds a fault that came live on the restarted, running job until the replay has restarted too', () => {
    const failTask = (at_ms: number, subtask: number) => ({ at_ms, type: 'fail-task' as const, vertex: 'count', subtask });
    // Where the first restart deployed its tasks (and the job ran again), on this machine's costs.
    const deployed = record(keyedCounts({ faults: [failTask(700, 1)] })).log.restores[0]!.time!;
    const original = record(keyedCounts({ faults: [failTask(700, 1), failTask(deployed + 1, 2)] }));
    expect(original.log.faults.map((f) => f.job)).toEqual([{ attempt: 0, status: 'RUNNING' }, { attempt: 1, status: 'RUNNING' }]);
    // Live, the restart was quicker than this replay's: the second fault is recorded while the replay is still restarting.
    const [first, second] = original.log.faults;
    const quicker: DeliveryLog = { ...original.log, faults: [first!, { ...second!, time: first!.time + 1 }] };
    // Bounded: a replay that lost its way waits for a restart the recording never deploys.
    const scenario = keyedCounts();
    const replayed = record({ ...scenario, run: { ...scenario.run, until_ms: original.sim.now + 2000 } }, quicker);
    expect(jobStatuses(replayed.sim)).toEqual(jobStatuses(original.sim));
    expect(replayed.log.restores.map((r) => r.checkpointId)).toEqual(original.log.restores.map((r) => r.checkpointId));
  });

  it('records a FULL checkpoint trigger and replays it as FULL', () => {
    const faults: Scenario['faults'] = [{ at_ms: 700, type: 'trigger-checkpoint', checkpoint_type: 'FULL' }];
    const original = record(keyedCounts({ faults }));
    const full = original.log.checkpoints.filter((c) => c.checkpointType === 'FULL');
    expect(full).toHaveLength(1);
    const replayed = record(keyedCounts({ faults: [] }), original.log);
    expect(replayed.log.checkpoints).toEqual(original.log.checkpoints);
    const triggered = replayed.sim.events.find((e) => e.type === 'checkpoint-triggered' && e.checkpointId === full[0]!.checkpointId);
    expect(triggered).toMatchObject({ checkpointType: 'FULL' });
  });

  it('records a stop-with-savepoint and replays it as one synchronous savepoint that finishes the job', () => {
    const faults: Scenario['faults'] = [{ at_ms: 700, type: 'stop-with-savepoint' }];
    const original = record(keyedCounts({ faults }));
    expect(original.sim.jobStatus).toBe('FINISHED');
    expect(original.log.checkpoints.filter((c) => c.synchronous)).toHaveLength(1);
    const replayed = record(keyedCounts({ faults: [] }), original.log);
    expect(replayed.sim.jobStatus).toBe('FINISHED');
    expect(replayed.log.checkpoints).toEqual(original.log.checkpoints);
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });

  it('reports a divergence naming the subtask, gate and position when the recording cannot be followed', () => {
    const { log } = record(keyedCounts());
    const count1 = log.subtasks.find((s) => s.attempt === 0 && s.vertex === 'count' && s.subtask === 1)!;
    // The first run says records come from a channel whose first element is really records; make it an event.
    count1.gates[0]![1] = -1;
    expect(() => record(keyedCounts(), log)).toThrow(/replay diverged: count#1 \(attempt 0\): input gate 0, position 0 \(run 0\): the recording says barrier from channel \d+ come next, but channel \d+ has records next/);
  });

  it('reports a divergence when the coordinator cannot trigger the recorded checkpoint', () => {
    const { log } = record(keyedCounts());
    log.checkpoints[0]!.checkpointId = 7;
    expect(() => record(keyedCounts(), log)).toThrow(/replay diverged: coordinator at [\d.]+ ms: the recording triggers checkpoint 7, the replay triggered checkpoint 1/);
  });
});

/** Keyed counts whose count → sink edge is hash, so `count` may be rescaled. */
function rescalableCounts(recordCostUs = 5): Scenario {
  const s = keyedCounts({ recordCostUs });
  return { ...s, job: { ...s.job, edges: s.job.edges.map((e) => (e.from === 'count' ? { ...e, partitioning: 'hash' as const } : e)) } };
}

/** Runs to `at` ms, makes an API request there (it must be accepted), then runs to the end. */
function recordWithRequest(scenario: Scenario, at: number, request: (sim: Simulation) => string | undefined, replay?: DeliveryLog): { sim: Simulation; log: DeliveryLog } {
  const recorder = new SessionRecorder();
  const sim = new Simulation(scenario, { recorder, ...(replay ? { replay: replayOf(replay) } : {}) });
  sim.runUntil(at);
  if (!replay) expect(request(sim)).toBeUndefined();
  sim.runToEnd();
  return { sim, log: recorder.log(sim.now) };
}

/** The same requests, each no sooner than recorded (it waits until the slower replay consumed what the recording had). */
function expectSameRestarts(replayed: DeliveryLog, original: DeliveryLog): void {
  expect(replayed.restarts.map(({ time: _, ...r }) => r)).toEqual(original.restarts.map(({ time: _, ...r }) => r));
  replayed.restarts.forEach((r, i) => expect(r.time).toBeGreaterThanOrEqual(original.restarts[i]!.time));
}

describe('replaying restarts asked for through the API', () => {
  it('records a rescale and replays it at the recorded time, from the recorded checkpoint, with the new parallelism', () => {
    const original = recordWithRequest(rescalableCounts(), 900, (sim) => sim.rescale('count', 2));
    expect(original.sim.jobStatus).toBe('FINISHED');
    expect(original.log.restarts).toEqual([{ time: 900, operation: 'rescale', checkpointId: original.log.restores[0]!.checkpointId, vertex: 'count', parallelism: 2 }]);
    expect(original.log.subtasks.filter((s) => s.attempt === 1 && s.vertex === 'count')).toHaveLength(2);
    const replayed = recordWithRequest(rescalableCounts(11), 900, () => undefined, original.log);
    expectSameRestarts(replayed.log, original.log);
    expect(replayed.log.restores).toEqual(original.log.restores);
    expect(replayed.log.subtasks).toEqual(original.log.subtasks);
    expect(replayed.sim.topology().vertices.find((v) => v.id === 'count')?.parallelism).toBe(2);
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });

  it('records a restart from a savepoint and replays it restoring that savepoint', () => {
    // The savepoint is triggered by the schedule at 1000 ms; the restart from it is asked for at 1300 ms.
    const withSavepoint = (recordCostUs: number) => keyedCounts({ recordCostUs, faults: [{ at_ms: 1000, type: 'trigger-savepoint' }] });
    const original = recordWithRequest(withSavepoint(5), 1300, (sim) => sim.restartFromSavepoint());
    expect(original.log.restarts).toHaveLength(1);
    const savepointId = original.log.restarts[0]!.checkpointId;
    expect(original.log.checkpoints.find((c) => c.checkpointId === savepointId)?.isSavepoint).toBe(true);
    expect(original.log.restores).toEqual([{ attempt: 1, checkpointId: savepointId, time: 1300 }]);
    const replayed = recordWithRequest(withSavepoint(11), 1300, () => undefined, original.log);
    expectSameRestarts(replayed.log, original.log);
    expect(replayed.log.restores).toEqual(original.log.restores);
    expect(replayed.log.subtasks).toEqual(original.log.subtasks);
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });

  it('reports a divergence when the replay cannot make the recorded rescale', () => {
    const { log } = recordWithRequest(rescalableCounts(), 900, (sim) => sim.rescale('count', 2));
    log.restarts[0]!.parallelism = 99;
    expect(() => recordWithRequest(rescalableCounts(), 900, () => undefined, log)).toThrow(/replay diverged: rescale of count to 99 at [\d.]+ ms: the recording made it, the replay refused it: parallelism 99 needs 99 slots; the cluster has 4/);
  });
});

/**
 * Counts per key in 5 ms tumbling event-time windows; the sources could go faster than the
 * operators (so where a watermark falls depends on the costs); watermarks every 10 ms.
 */
function windowedCounts(recordCostUs: number, latencyMs: number): Scenario {
  const scenario = pipeline(
    [
      vertex('source', sequenceSource(8, 100_000, 3000), 2, recordCostUs),
      vertex('windows', { type: 'window', size_ms: 5, aggregate: 'count' }, 2, recordCostUs),
      vertex('sink', { type: 'sink', sink: 'two-phase-commit' }, 2, recordCostUs),
    ],
    [
      ['source', 'windows', 'hash'],
      ['windows', 'sink', 'forward'],
    ],
    { config: { 'execution.checkpointing.interval': '50 ms', 'pipeline.auto-watermark-interval': '10 ms' } },
  );
  return { ...scenario, costs: { ...scenario.costs, network_latency_ms: latencyMs } };
}

function sourceWatermarks(log: DeliveryLog): number[][] {
  return log.subtasks.filter((s) => s.vertex === 'source').map((s) => s.watermarks);
}

describe('replaying source watermarks', () => {
  it('puts each source watermark out at its recorded offset, so windows fire where they did (sim → record → sim)', () => {
    const original = record(windowedCounts(5, 0.2));
    expect(original.sim.jobStatus).toBe('FINISHED');
    expect(sourceWatermarks(original.log).every((w) => w.length > 0)).toBe(true);
    const other = windowedCounts(41, 1.7);
    // Unreplayed, the other costs put the watermarks out at other offsets (so this test can fail).
    expect(sourceWatermarks(record(other).log)).not.toEqual(sourceWatermarks(original.log));
    const replayed = record(other, original.log);
    expect(sourceWatermarks(replayed.log)).toEqual(sourceWatermarks(original.log));
    expect(replayed.log.subtasks).toEqual(original.log.subtasks);
    expect(completedCheckpoints(replayed.sim)).toEqual(completedCheckpoints(original.sim));
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });

  it('reports a divergence when a source passed the offset of its recorded watermark', () => {
    const { log } = record(windowedCounts(5, 0.2));
    const source0 = log.subtasks.find((s) => s.attempt === 0 && s.vertex === 'source' && s.subtask === 0)!;
    // A watermark recorded after a barrier that the source reaches only later: the barrier holds it at an offset past the watermark's.
    source0.watermarks = [source0.barriers[1]! + 1, 0, ...source0.watermarks];
    expect(() => record(windowedCounts(5, 0.2), log)).toThrow(/replay diverged: source#0 \(attempt 0\): /);
  });
});

describe('replaying unaligned checkpoints', () => {
  /** Keyed counts with unaligned checkpoints; `count` is slowed 20× at 150 ms, so barriers overtake the buffers queued before it. */
  function unalignedUnderBackpressure(recordCostUs: number, latencyMs: number): Scenario {
    const s = keyedCounts({ recordCostUs, latencyMs, faults: [{ at_ms: 150, type: 'slow-operator', vertex: 'count', factor: 20 }] });
    return { ...s, config: { ...s.config, 'execution.checkpointing.unaligned.enabled': true } };
  }

  function persistedInFlightBytes(sim: Simulation): number {
    return completedCheckpoints(sim).reduce((n, id) => n + (sim.coordinator.stats.checkpointDetails(id)?.persisted_data ?? 0), 0);
  }

  it('reproduces the order, the overtaking barriers and the output under backpressure (sim → record → sim)', () => {
    const original = record(unalignedUnderBackpressure(5, 0.2));
    expect(original.sim.jobStatus).toBe('FINISHED');
    expect(completedCheckpoints(original.sim).length).toBeGreaterThan(0);
    expect(persistedInFlightBytes(original.sim)).toBeGreaterThan(0);
    const replayed = record(unalignedUnderBackpressure(13, 0.9), original.log);
    expect(replayed.log.subtasks).toEqual(original.log.subtasks);
    expect(completedCheckpoints(replayed.sim)).toEqual(completedCheckpoints(original.sim));
    expect(persistedInFlightBytes(replayed.sim)).toBe(persistedInFlightBytes(original.sim));
    expect(replayed.sim.sinkOutput.perKey()).toEqual(original.sim.sinkOutput.perKey());
  });
});
