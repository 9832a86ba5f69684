import { describe, expect, it } from 'vitest';
import type { CheckpointFailureReason } from '../../engine/checkpoint/checkpoint-failure-reason.ts';
import { InputGate } from '../../engine/network/input-gate.ts';
import { TwoPhaseCommitSink } from '../../engine/operators/two-phase-commit-sink.ts';
import type { TaskEffect } from '../../engine/protocol.ts';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import type { AlignmentFigures } from '../../engine/task/checkpoint-barrier-handler.ts';
import { OutputRouter } from '../../engine/task/output-router.ts';
import { SNAPSHOT_METADATA_BYTES, syncSnapshotMs } from '../../engine/task/snapshot-cost.ts';
import { SubtaskCheckpointCoordinator, type CheckpointedSubtask } from '../../engine/task/subtask-checkpoint-coordinator.ts';
import { IN_A, IN_B, barrierOf, data, deployment, kindOf, snapshotsIn } from '../support/task-harness.ts';

interface SubtaskOptions {
  sourceOffset?: number;
  keyed?: boolean;
  sink?: boolean;
  /** credits the output channel starts with (0: nothing can be sent) */
  credits?: number;
}

/** A subtask with one input gate of two channels (A, B) and one output channel, as StreamTask has them. */
function subtask(o: SubtaskOptions = {}): CheckpointedSubtask {
  const d = deployment({ operator: { type: 'keyed-aggregate', aggregate: 'count' }, inputGates: [[IN_A, IN_B]] });
  return {
    id: { vertexId: 'task', subtaskIndex: 0 },
    deployment: d,
    keyedState: o.keyed ? new HeapKeyedStateBackend(d.keyGroupRange) : undefined,
    twoPhaseSink: o.sink ? new TwoPhaseCommitSink('task#0@0') : undefined,
    router: new OutputRouter(d.outputs, 0, o.credits ?? d.creditsPerChannel, d.recordsPerBuffer, d.recordSizeBytes, d.creditsPerChannel),
    gates: d.inputGates.map((ids) => new InputGate(ids)),
    sourceOffset: o.sourceOffset,
  };
}

type Fixture = { c: SubtaskCheckpointCoordinator; s: CheckpointedSubtask; effects: TaskEffect[] };

function fixture(o: SubtaskOptions = {}): Fixture {
  const s = subtask(o);
  return { c: new SubtaskCheckpointCoordinator(s), s, effects: [] };
}

const figures: AlignmentFigures = { startDelayMs: 2, alignmentDurationMs: 0, processedBytes: 0 };
const aligned = (id: number, alignedTimeoutAt?: number) => barrierOf(id, alignedTimeoutAt === undefined ? {} : { alignedTimeoutAt });
const unaligned = (id: number) => barrierOf(id, { alignment: 'UNALIGNED' });

/** A barrier that came through the inputs (the barrier handler said it is in). */
const viaInputs = (barrier: ReturnType<typeof barrierOf>) => (f: Fixture) => f.c.checkpointState(10, barrier, figures, true, f.effects);
const aborted = (id: number) => (f: Fixture) => f.c.notifyCheckpointAborted(id);
const inputsComplete = (id: number) => (f: Fixture) => f.c.inputsComplete(id, figures, f.effects);
const abortOnBarrier = (id: number, reason: CheckpointFailureReason) => (f: Fixture) => f.c.abortCheckpointOnBarrier(id, reason, f.effects);
/** Sends what the output channel has credit for. */
const send = (f: Fixture) => [...f.s.router.sendable()];

/** The effects as short text: 'persist 1', 'decline 2 REASON'. */
function effectsOf(effects: TaskEffect[]): string[] {
  return effects.map((e) => (e.type === 'persist-snapshot' ? `persist ${e.checkpointId}` : e.type === 'decline-checkpoint' ? `decline ${e.checkpointId} ${e.reason}` : e.type));
}

describe('SubtaskCheckpointCoordinator', () => {
  it.each<[string, SubtaskOptions, Array<(f: Fixture) => unknown>, string[], string[]]>([
    ['an aligned checkpoint forwards its barrier, then acknowledges its snapshot at once', {}, [viaInputs(aligned(1))], ['persist 1'], ['barrier 1']],
    ['an older or repeated barrier takes no checkpoint', {}, [viaInputs(aligned(2)), viaInputs(aligned(2)), viaInputs(aligned(1))], ['persist 2'], ['barrier 2']],
    ['a checkpoint aborted before its barrier came sends a cancellation marker instead, and takes no snapshot', {}, [aborted(1), viaInputs(aligned(1))], [], ['cancel 1']],
    ['a restored subtask takes part only in checkpoints newer than the one it restored', {}, [(f) => f.c.restoredFrom(5), viaInputs(aligned(5)), viaInputs(aligned(6))], ['persist 6'], ['barrier 6']],
    ['an unaligned checkpoint puts its barrier first and waits for its remaining input barriers', {}, [viaInputs(unaligned(1))], [], ['priority barrier 1']],
    ['an unaligned checkpoint is acknowledged once its last input barrier arrived', {}, [viaInputs(unaligned(1)), inputsComplete(1)], ['persist 1'], ['priority barrier 1']],
    ['a triggered unaligned checkpoint (a source) has no input barriers to wait for', {}, [(f) => f.c.checkpointOnTrigger(10, unaligned(1), f.effects)], ['persist 1'], ['priority barrier 1']],
    ['a decline says why and takes nothing', {}, [(f) => f.c.decline(3, 'CHECKPOINT_DECLINED_TASK_NOT_READY', f.effects)], ['decline 3 CHECKPOINT_DECLINED_TASK_NOT_READY'], []],
    [
      'aborting on a barrier declines, forwards a cancellation marker and forgets the pending snapshot',
      {},
      [viaInputs(unaligned(1)), abortOnBarrier(1, 'CHECKPOINT_DECLINED_SUBSUMED'), inputsComplete(1)],
      ['decline 1 CHECKPOINT_DECLINED_SUBSUMED'],
      ['priority barrier 1', 'cancel 1'],
    ],
    ['an abort notification forgets the pending snapshot', {}, [viaInputs(unaligned(1)), aborted(1), inputsComplete(1)], [], ['priority barrier 1']],
    ['a cancelled subtask forgets its pending snapshots', {}, [viaInputs(unaligned(1)), (f) => f.c.cancel(), inputsComplete(1)], [], ['priority barrier 1']],
    ['an aligned barrier with a timeout waits until it left every output', { credits: 0 }, [viaInputs(aligned(1, 50)), (f) => f.c.acknowledgeSentBarriers(f.effects)], [], ['barrier 1']],
    ['an aligned barrier with a timeout is acknowledged once it was sent', {}, [viaInputs(aligned(1, 50)), send, (f) => f.c.acknowledgeSentBarriers(f.effects)], ['persist 1'], []],
    [
      'a timed-out aligned barrier overtakes the queued data (only once its timeout passed)',
      { credits: 0 },
      [(f) => [1, 2, 3, 4].forEach((v) => f.s.router.collect({ key: 'k', value: v, timestamp: 0 })), viaInputs(aligned(1, 50)), (f) => f.c.onOutputTimeouts(49, f.effects), (f) => f.c.onOutputTimeouts(50, f.effects)],
      ['persist 1'],
      ['priority barrier 1', 'data'],
    ],
  ])('%s', (_name, options, steps, effects, outputs) => {
    const f = fixture(options);
    for (const step of steps) step(f);
    expect(effectsOf(f.effects)).toEqual(effects);
    expect(f.s.router.subpartitions[0]!.queuedBuffers.map(kindOf)).toEqual(outputs);
  });

  it('the synchronous snapshot records a source offset, keyed state and pre-committed transactions, with their sizes', () => {
    const f = fixture({ sourceOffset: 42, keyed: true, sink: true });
    for (const key of ['a', 'b', 'c']) f.s.keyedState!.put('aggregate', 0, key, 1);
    f.s.twoPhaseSink!.write({ key: 'a', value: 1, timestamp: 0 });
    f.s.twoPhaseSink!.write({ key: 'b', value: 1, timestamp: 0 });
    const keyedBytes = f.s.keyedState!.snapshot().sizeBytes;
    const syncMs = f.c.checkpointState(10, aligned(1), figures, true, f.effects);
    const [persist] = snapshotsIn(f.effects);
    const transactionBytes = 2 * f.s.deployment.recordSizeBytes;
    expect(persist!.snapshot).toMatchObject({
      sourceOffset: 42,
      pendingTransactions: [{ id: 'task#0@0-0', checkpointId: 1 }],
      stateSize: SNAPSHOT_METADATA_BYTES + keyedBytes + transactionBytes,
      checkpointedSize: SNAPSHOT_METADATA_BYTES + keyedBytes + transactionBytes,
    });
    expect(persist!.snapshot.channelState).toBeUndefined();
    expect(syncMs).toBe(syncSnapshotMs(3));
    expect(persist!.metrics).toEqual({
      startDelayMs: 2,
      alignmentDurationMs: 0,
      syncDurationMs: syncMs,
      processedDataBytes: 0,
      persistedDataBytes: 0,
      unalignedCheckpoint: false,
      syncEndTime: 10 + syncMs,
    });
  });

  it('an unaligned snapshot carries the in-flight input data before the last barriers, and counts it', () => {
    const f = fixture();
    f.c.checkpointState(10, unaligned(1), figures, true, f.effects);
    const inFlight = data('x', 2);
    f.c.persistInput(0, 1, [inFlight]);
    f.c.inputsComplete(1, { startDelayMs: 2, alignmentDurationMs: 7, processedBytes: 300 }, f.effects);
    const [persist] = snapshotsIn(f.effects);
    expect(persist!.snapshot.channelState).toEqual({ inputs: [{ gate: 0, channel: 1, buffers: [inFlight] }], outputs: [] });
    expect(persist!.snapshot.stateSize).toBe(SNAPSHOT_METADATA_BYTES + inFlight.sizeBytes);
    expect(persist!.metrics).toMatchObject({ alignmentDurationMs: 7, processedDataBytes: 300, persistedDataBytes: inFlight.sizeBytes, unalignedCheckpoint: true });
  });

  it('in-flight data with no unaligned snapshot waiting for it is nobody\'s channel state', () => {
    const f = fixture();
    f.c.persistInput(0, 1, [data('x', 2)]);
    f.c.checkpointOnTrigger(10, unaligned(1), f.effects);
    expect(snapshotsIn(f.effects)[0]!.snapshot.channelState).toEqual({ inputs: [], outputs: [] });
  });

  it.each<[string, number, number]>([
    ['a barrier created before now', 4, 6],
    ['a barrier from the future (clock skew)', 20, 0],
  ])('a triggered checkpoint measures its start delay from the barrier\'s creation: %s', (_name, timestamp, delay) => {
    const f = fixture();
    f.c.checkpointOnTrigger(10, barrierOf(1, { timestamp }), f.effects);
    expect(snapshotsIn(f.effects)[0]!.metrics.startDelayMs).toBe(delay);
  });

  it('carries out triggers in the order they came', () => {
    const f = fixture();
    f.c.trigger(aligned(1));
    f.c.trigger(aligned(2));
    expect(f.c.nextTrigger?.checkpointId).toBe(1);
    expect([f.c.takeTrigger()?.checkpointId, f.c.nextTrigger?.checkpointId, f.c.takeTrigger()?.checkpointId, f.c.takeTrigger()]).toEqual([1, 2, 2, undefined]);
  });

  it.each<[string, (c: SubtaskCheckpointCoordinator) => void, number, boolean]>([
    ['a checkpoint aborted before its barrier is remembered', (c) => c.notifyCheckpointAborted(4), 4, true],
    ['one it already took part in is not', (c) => (c.restoredFrom(4), c.notifyCheckpointAborted(4)), 4, false],
    ['at most 128 are remembered: the oldest is forgotten', (c) => { for (let id = 1; id <= 129; id++) c.notifyCheckpointAborted(id); }, 1, false],
    ['at most 128 are remembered: the newer ones stay', (c) => { for (let id = 1; id <= 129; id++) c.notifyCheckpointAborted(id); }, 2, true],
    ['under replay a source follows the recording: aborted', (c) => c.followRecordedAbort(3, true), 3, true],
    ['under replay a source follows the recording: not aborted after all', (c) => (c.notifyCheckpointAborted(3), c.followRecordedAbort(3, false)), 3, false],
  ])('%s', (_name, steps, id, isAborted) => {
    const { c } = fixture();
    steps(c);
    expect(c.isAborted(id)).toBe(isAborted);
  });

  it.each<[string, SubtaskOptions, Array<(f: Fixture) => unknown>, number | undefined]>([
    ['no pending aligned barrier with a timeout: no timer', {}, [viaInputs(aligned(1))], undefined],
    ['the earliest timeout of the barriers still queued', { credits: 0 }, [viaInputs(aligned(1, 80)), viaInputs(aligned(2, 60))], 60],
    ['a barrier that timed out needs no timer', { credits: 0 }, [viaInputs(aligned(1, 50)), (f) => f.c.onOutputTimeouts(50, f.effects)], undefined],
  ])('the output timer: %s', (_name, options, steps, at) => {
    const f = fixture(options);
    for (const step of steps) step(f);
    expect(f.c.nextOutputTimeoutAt).toBe(at);
  });

  it.each<[string, number | undefined, object]>([
    ['a source records its offset', 42, { subtask: { vertexId: 'task', subtaskIndex: 0 }, stateSize: 0, checkpointedSize: 0, sourceOffset: 42, finished: true }],
    ['another subtask only that it finished', undefined, { subtask: { vertexId: 'task', subtaskIndex: 0 }, stateSize: 0, checkpointedSize: 0, finished: true }],
  ])('the final snapshot of a finished subtask: %s', (_name, sourceOffset, expected) => {
    expect(fixture({ sourceOffset }).c.takeFinalSnapshot()).toStrictEqual(expected);
  });
});
