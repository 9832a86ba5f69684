import { describe, expect, it } from 'vitest';
import type { DataBuffer } from '../../engine/protocol.ts';
import {
  IN_A,
  IN_B,
  OUT,
  TaskHarness,
  barrier,
  barrierOf,
  cancelMarker,
  creditsIn,
  data,
  declinesIn,
  deployment,
  endOfPartition,
  keyedCountTwoChannels,
  keyedValues,
  kindOf,
  sendsIn,
  snapshotsIn,
  windowJoin,
} from '../support/task-harness.ts';

/** Queued buffers of an input channel (gate 0 unless given). */
const queued = (h: TaskHarness, channel: number, gate = 0) => h.task.gates[gate]!.channels[channel]!.queue.length;
const sum = (values: Record<string, unknown>) => Object.values(values).reduce((n: number, v) => n + (v as number), 0);

describe('aligned exactly-once barriers (SingleCheckpointBarrierHandler)', () => {
  it('blocks the channel whose barrier came first, keeps reading the other, and snapshots when the last barrier arrives', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 16 }));
    h.at(0).deliver(IN_A, data('x', 2)).deliver(IN_B, data('y', 1)).run();
    h.at(10).deliver(IN_A, barrier(1, { timestamp: 4 })).run();
    expect(h.task.isAligning).toBe(true);

    // Records behind A's barrier stay queued and A's credit stops; B is still read.
    const aligning = h.at(11).deliver(IN_A, data('x', 3)).deliver(IN_B, data('y', 2)).run();
    expect(queued(h, 0)).toBe(1);
    expect(creditsIn(aligning, IN_A)).toBe(0);
    expect(creditsIn(aligning, IN_B)).toBe(1);
    expect(snapshotsIn(aligning)).toEqual([]);

    const aligned = h.at(30).deliver(IN_B, barrier(1, { timestamp: 4 })).poll();
    const [persist] = snapshotsIn(aligned);
    expect(persist?.checkpointId).toBe(1);
    expect(persist!.metrics).toMatchObject({ alignmentDurationMs: 20, startDelayMs: 6, unalignedCheckpoint: false, persistedDataBytes: 0 });
    // The snapshot holds what came before the barriers only: A's 3 later records are not in it.
    expect(keyedValues(persist!.snapshot, 'aggregate')).toEqual({ x: 2, y: 3 });
    // The barrier was put on the output before the snapshot was taken, behind the earlier records.
    expect(h.task.router.subpartitions[0]!.queuedBuffers.map(kindOf).at(-1)).toBe('barrier 1');
    expect(queued(h, 0)).toBe(1);

    // Afterwards A is unblocked: its records are processed and its credit flows again.
    const after = h.run();
    expect(h.task.isAligning).toBe(false);
    expect(creditsIn(after, IN_A)).toBe(1);
    const sent = sendsIn(h.effects, OUT);
    const barrierAt = sent.findIndex((s) => kindOf(s.buffer) === 'barrier 1');
    const values = sent.map((s) => (s.buffer as DataBuffer).records?.[0]);
    expect(barrierAt).toBe(5); // after the outputs of x×2, y×1, y×2
    expect(values.slice(barrierAt + 1).map((r) => r?.value)).toEqual([3, 4, 5]); // x counted on after the barrier
  });

  it('aligns the two inputs of a window join the same way', () => {
    const h = new TaskHarness(windowJoin());
    h.at(0).deliver(IN_A, data('k', 2, 100)).deliver(IN_B, data('k', 1, 100)).run();
    h.at(5).deliver(IN_A, barrier(7, { timestamp: 5 }), data('k', 4, 100)).deliver(IN_B, data('k', 3, 100)).run();
    expect(queued(h, 0, 0)).toBe(1);
    const [persist] = snapshotsIn(h.at(9).deliver(IN_B, barrier(7, { timestamp: 5 })).run());
    expect(persist?.metrics.alignmentDurationMs).toBe(4);
    expect(sum(keyedValues(persist!.snapshot, 'join-left'))).toBe(2);
    expect(sum(keyedValues(persist!.snapshot, 'join-right'))).toBe(4);
    expect(queued(h, 0, 0)).toBe(0); // processed after the snapshot
  });

  it('at-least-once blocks nothing: records after a barrier are processed and end up in the snapshot', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ checkpointingMode: 'AT_LEAST_ONCE' }));
    const alo = { timestamp: 0, alignment: 'AT_LEAST_ONCE' as const };
    h.at(0).deliver(IN_A, data('x', 2)).deliver(IN_B, data('y', 1)).run();
    h.at(10).deliver(IN_A, barrier(1, alo)).run();
    expect(h.task.isAligning).toBe(false);
    const between = h.at(11).deliver(IN_A, data('x', 3)).deliver(IN_B, data('y', 2)).run();
    expect(creditsIn(between, IN_A)).toBe(1);
    expect(queued(h, 0)).toBe(0);
    const [persist] = snapshotsIn(h.at(30).deliver(IN_B, barrier(1, alo)).run());
    // x's 3 post-barrier records are in the snapshot and will be replayed after a restore:
    // this is where at-least-once duplicates come from.
    expect(keyedValues(persist!.snapshot, 'aggregate')).toEqual({ x: 5, y: 3 });
    expect(persist!.metrics).toMatchObject({ startDelayMs: 10, alignmentDurationMs: 20 });
  });

  it('declines the older checkpoint as subsumed when a newer barrier arrives while aligning, and aligns the newer one', () => {
    const h = new TaskHarness(keyedCountTwoChannels());
    h.at(0).deliver(IN_A, barrier(1)).run();
    const newer = h.at(5).deliver(IN_B, barrier(2)).run();
    expect(declinesIn(newer)).toEqual([{ type: 'decline-checkpoint', checkpointId: 1, reason: 'CHECKPOINT_DECLINED_SUBSUMED' }]);
    expect(sendsIn(newer, OUT).map((s) => kindOf(s.buffer))).toEqual(['cancel 1']);
    // The newer barrier counted: A's barrier for 2 completes the alignment.
    const [persist] = snapshotsIn(h.at(8).deliver(IN_A, barrier(2)).run());
    expect(persist?.checkpointId).toBe(2);
    expect(snapshotsIn(h.effects).map((p) => p.checkpointId)).toEqual([2]);
  });

  it('gives the checkpoint up on a cancellation marker while aligning: declines, unblocks and forwards the marker', () => {
    const h = new TaskHarness(keyedCountTwoChannels());
    h.at(0).deliver(IN_A, barrier(1), data('x', 2)).run();
    expect(queued(h, 0)).toBe(1);
    const cancelled = h.at(5).deliver(IN_B, cancelMarker(1)).run();
    expect(declinesIn(cancelled)).toEqual([{ type: 'decline-checkpoint', checkpointId: 1, reason: 'CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER' }]);
    expect(h.task.isAligning).toBe(false);
    expect(queued(h, 0)).toBe(0);
    expect(creditsIn(cancelled, IN_A)).toBe(1);
    expect(sendsIn(h.effects, OUT).map((s) => kindOf(s.buffer))).toContain('cancel 1');
    // A late barrier of the cancelled checkpoint starts nothing.
    expect(snapshotsIn(h.at(6).deliver(IN_B, barrier(1)).run())).toEqual([]);
    expect(h.task.isAligning).toBe(false);
  });

  it('completes the alignment when the channel still missing its barrier ends', () => {
    const h = new TaskHarness(keyedCountTwoChannels());
    h.at(0).deliver(IN_A, barrier(1, { timestamp: 0 }), data('x', 1)).run();
    const [persist] = snapshotsIn(h.at(7).deliver(IN_B, data('y', 1), endOfPartition()).run());
    expect(persist?.checkpointId).toBe(1);
    expect(persist!.metrics.alignmentDurationMs).toBe(8); // B's record took 1 ms before its end was read
    expect(keyedValues(persist!.snapshot, 'aggregate')).toEqual({ y: 1 });
    expect(queued(h, 0)).toBe(0);
    expect(h.task.lifecycle.state).toBe('RUNNING');
  });
});

describe('a source subtask', () => {
  it('injects the barrier on every output channel when triggered, and snapshots its offset', () => {
    const source = deployment({
      operator: { type: 'source', source: { kind: 'sequence', keys: 4, rate_per_s: 1000, count: 1000 } },
      outputChannels: [OUT, OUT + 1],
      partitioning: 'hash',
      recordCostUs: 1,
      creditsPerChannel: 100,
    });
    const h = new TaskHarness(source);
    for (let t = 0; t <= 10; t++) h.at(t).run();
    const offset = h.task.sourceOffset!;
    expect(offset).toBe(11);
    h.task.triggerCheckpoint(barrierOf(1, { timestamp: 8 }));
    const [persist] = snapshotsIn(h.at(10).run());
    expect(persist?.snapshot.sourceOffset).toBe(offset);
    expect(persist!.metrics.startDelayMs).toBeCloseTo(2, 1);
    h.at(200).run();
    for (const channel of [OUT, OUT + 1]) {
      const kinds = sendsIn(h.effects, channel).map((s) => kindOf(s.buffer));
      expect(kinds.filter((k) => k === 'barrier 1'), `channel ${channel}`).toHaveLength(1);
      expect(kinds.indexOf('barrier 1')).toBeGreaterThan(0); // behind the records emitted before
    }
  });
});

describe('a checkpoint aborted before its barrier arrived', () => {
  it('forwards a cancellation marker instead of the barrier and takes no snapshot', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ recordsPerBuffer: 1, creditsPerChannel: 16 }));
    h.at(0).deliver(IN_A, data('x', 1)).run();
    h.task.notifyCheckpointAborted(1);
    const effects = h.at(10).deliver(IN_A, barrier(1)).deliver(IN_B, barrier(1)).run();
    expect(snapshotsIn(effects)).toEqual([]);
    const queuedKinds = h.task.router.subpartitions[0]!.queuedBuffers.map(kindOf);
    const sentKinds = sendsIn(h.effects, OUT).map((s) => kindOf(s.buffer));
    expect([...sentKinds, ...queuedKinds]).toContain('cancel 1');
    expect([...sentKinds, ...queuedKinds]).not.toContain('barrier 1');
    // the next checkpoint is taken as usual
    const next = h.at(20).deliver(IN_A, barrier(2)).deliver(IN_B, barrier(2)).run();
    expect(snapshotsIn(next).map((s) => s.checkpointId)).toEqual([2]);
  });
});
