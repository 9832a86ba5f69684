import { describe, expect, it } from 'vitest';
import { InputGate } from '../../engine/network/input-gate.ts';
import type { AlignmentFigures, BarrierHandlerOutcome } from '../../engine/task/checkpoint-barrier-handler.ts';
import { CheckpointBarrierTracker } from '../../engine/task/checkpoint-barrier-tracker.ts';
import { IN_A, IN_B, OUT, TaskHarness, barrier, barrierOf, cancelMarker, data, declinesIn, keyedCountTwoChannels, kindOf, sendsIn, snapshotsIn } from '../support/task-harness.ts';

/**
 * Flink's CheckpointBarrierTrackerTest, restated as behaviour tables. A sequence is what one
 * task reads from its input channels, in order:
 *   'b3@1'  the barrier of checkpoint 3 on channel 1 (created at time 0)
 *   'c3@1'  a cancellation marker for checkpoint 3 on channel 1
 *   'e@1'   end of partition on channel 1
 *   'd@1'   a data buffer of 100 bytes on channel 1
 * Every step advances the clock by one second. The outcome is Flink's CheckpointSequenceValidator
 * notation: the ids triggered, and the ids aborted as negative numbers, in order.
 */
const BUFFER_BYTES = 100;
const STEP_MS = 1000;

interface Run {
  notified: number[];
  figures: Map<number, AlignmentFigures>;
  tracker: CheckpointBarrierTracker;
}

function run(channels: number, sequence: readonly string[]): Run {
  const gate = new InputGate(Array.from({ length: channels }, (_, i) => i));
  const tracker = new CheckpointBarrierTracker([gate]);
  const notified: number[] = [];
  const figures = new Map<number, AlignmentFigures>();
  sequence.forEach((step, i) => {
    for (const outcome of read(tracker, gate, step, i * STEP_MS)) {
      if (outcome.type === 'snapshot') {
        notified.push(outcome.barrier.checkpointId);
        figures.set(outcome.barrier.checkpointId, outcome.figures);
      } else if (outcome.type === 'abort') {
        expect(outcome.reason).toBe('CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER');
        notified.push(-outcome.checkpointId);
      }
    }
  });
  return { notified, figures, tracker };
}

function read(tracker: CheckpointBarrierTracker, gate: InputGate, step: string, now: number): BarrierHandlerOutcome[] {
  const [, what, id, channel] = /^([bcde])(\d*)@(\d+)$/.exec(step) ?? [];
  const ch = Number(channel);
  switch (what) {
    case 'b':
      return tracker.onBarrier(0, ch, barrierOf(Number(id), { alignment: 'AT_LEAST_ONCE' }), now);
    case 'c':
      return tracker.onCancelMarker(0, ch, Number(id));
    case 'e':
      gate.channels[ch]!.finished = true;
      return tracker.onEndOfPartition(now);
    case 'd':
      tracker.onBufferProcessed({ kind: 'data', records: [], sizeBytes: BUFFER_BYTES });
      return [];
  }
  throw new Error(`not a step: ${step}`);
}

const seq = (s: string) => s.trim().split(/\s+/);

interface Row {
  name: string;
  channels: number;
  sequence: string;
  notified: number[];
  /** ids still waiting for barriers at the end, oldest first */
  pending?: number[];
}

describe('CheckpointBarrierTracker: which checkpoints trigger and which abort (Flink CheckpointBarrierTrackerTest)', () => {
  const rows: Row[] = [
    { name: 'a single channel without barriers notifies nothing', channels: 1, sequence: 'd@0 d@0 d@0', notified: [] },
    { name: 'several channels without barriers notify nothing', channels: 4, sequence: 'd@2 d@2 d@0 d@1 d@0 d@3 d@1 d@1 d@2', notified: [] },
    { name: 'a single channel triggers every barrier at once', channels: 1, sequence: 'd@0 b1@0 d@0 b2@0 b3@0 d@0 b4@0 b5@0 b6@0 d@0', notified: [1, 2, 3, 4, 5, 6] },
    { name: 'a single channel with skipped ids triggers the ids it sees', channels: 1, sequence: 'b1@0 d@0 b3@0 b4@0 b6@0 b7@0 b10@0', notified: [1, 3, 4, 6, 7, 10] },
    {
      name: 'several channels trigger each id once its last barrier is in',
      channels: 3,
      sequence: 'd@0 b1@1 b1@2 d@2 b1@0 d@1 b2@0 b2@1 b2@2 d@2 b3@2 d@2 b3@0 b3@1 b4@1 b4@2 b4@0',
      notified: [1, 2, 3, 4],
    },
    {
      name: 'a checkpoint whose barriers never all came is dropped silently when a newer one completes',
      channels: 3,
      sequence: 'b1@1 b1@2 b1@0 b2@0 b2@1 b2@2 b3@2 b4@0 d@1 b4@1 b4@2',
      notified: [1, 2, 4],
    },
    {
      // testCompleteCheckpointsOnLateBarriers: inputs with different latencies still complete checkpoints
      name: 'a newer id on some channels does not give up an older id whose last barrier is late',
      channels: 3,
      sequence: `b2@1 b2@0 b2@2  b3@1 b3@2  b4@2 b4@1  b3@0  b4@0  b5@1 b5@0 b5@2  b6@1 b6@0
                 b7@1 b7@2 b8@2 b8@1 b9@1  b7@0 b9@2 b10@2  b8@0 b9@0  d@1  b10@0 b10@1`,
      notified: [2, 3, 4, 5, 7, 8, 9, 10],
    },
    { name: 'a single channel aborts on each cancellation marker', channels: 1, sequence: 'b1@0 b2@0 c4@0 b5@0 c6@0', notified: [1, 2, -4, 5, -6] },
    {
      name: 'several channels abort an id on its first marker, and count its remaining barriers',
      channels: 3,
      sequence: `b1@1 b1@2 b1@0  b2@0 b2@2 c2@1  b3@1 b3@2 b3@0  c4@1 b4@2 b4@0  b5@2 b5@1 b5@0  c6@1 c6@2 b6@0`,
      notified: [1, -2, 3, -4, 5, -6],
    },
    { name: 'interleaved markers of two checkpoints abort each once', channels: 3, sequence: 'b1@0 c2@0 c1@1 c2@1 c1@2 c2@2', notified: [-1, -2] },
    {
      name: 'a newer id completing while an older one waits leaves the older one aborted by its own marker only',
      channels: 2,
      sequence: 'b1@1 b2@1 c1@0 b2@0',
      notified: [-1, 2],
    },
    {
      // testTriggerCheckpointsWithEndOfPartition (checkpoints after tasks finish)
      name: 'an end of partition triggers the newest id it completes and drops the older ones silently',
      channels: 3,
      sequence: 'b1@0 b2@0 b2@1 b3@0 b4@0 b4@1 b5@1 e@2',
      notified: [4],
      pending: [5],
    },
    { name: 'a channel that delivered its barrier and then ended is not counted twice', channels: 3, sequence: 'b2@0 b2@1 e@1', notified: [], pending: [2] },
    { name: '… and the last barrier then completes the checkpoint', channels: 3, sequence: 'b2@0 b2@1 e@1 b2@2', notified: [2], pending: [] },
    { name: 'barriers after an end of partition need the open channels only', channels: 3, sequence: 'e@2 b5@0 b6@0 b6@1 e@1 b7@0', notified: [6, 7], pending: [] },
    { name: 'a channel ending during a checkpoint does not make its last barrier a new checkpoint', channels: 2, sequence: 'b1@0 e@0 b1@1', notified: [1], pending: [] },
    { name: 'an end of partition completing a cancelled id removes it without triggering', channels: 3, sequence: 'c4@0 b4@1 b5@1 e@2', notified: [-4], pending: [5] },
    { name: 'markers after an end of partition abort each pending id once', channels: 3, sequence: 'e@2 b5@0 b6@0 c6@1 e@1 c7@0', notified: [-5, -6, -7], pending: [] },
    { name: 'a marker after a channel ended removes the pending id', channels: 2, sequence: 'b1@0 e@0 c1@1', notified: [-1], pending: [] },
    { name: 'two last barriers one by one trigger both ids', channels: 2, sequence: 'b1@1 b2@1 b1@0 b2@0', notified: [1, 2], pending: [] },
    // The rules of issue 13 that Flink's tests leave implicit:
    { name: 'a marker for n aborts every older id still tracked, each once', channels: 3, sequence: 'b1@0 b2@0 b3@0 c3@1 c3@2 b2@1 b1@2', notified: [-1, -2, -3], pending: [] },
    { name: 'an older id aborted already is not notified again by a newer marker', channels: 3, sequence: 'b1@0 c1@1 b2@0 c2@1', notified: [-1, -2], pending: [2] },
    { name: 'a cancelled id is not re-opened by its barrier on a single channel', channels: 1, sequence: 'c4@0 b4@0 b3@0 b5@0', notified: [-4, 5] },
    { name: 'a first barrier for an id older than one seen is ignored', channels: 2, sequence: 'b3@0 b2@1 b3@1 b2@0', notified: [3], pending: [] },
    { name: 'a first barrier for an id older than a cancelled one is ignored', channels: 2, sequence: 'c5@0 b4@1 b4@0', notified: [-5], pending: [5] },
  ];

  it.each(rows)('$name', ({ channels, sequence, notified, pending }) => {
    const result = run(channels, seq(sequence));
    expect(result.notified).toEqual(notified);
    if (pending) expect(result.tracker.pendingCheckpointIds).toEqual(pending);
  });

  it('tracks at most 50 ids: the oldest is forgotten, and its late barriers are ignored', () => {
    const first = Array.from({ length: 51 }, (_, i) => `b${i + 1}@0`);
    const result = run(2, [...first, 'b1@1', 'b2@1']);
    expect(result.notified).toEqual([2]);
    expect(result.tracker.pendingCheckpointIds).toEqual(Array.from({ length: 49 }, (_, i) => i + 3));
  });
});

describe('CheckpointBarrierTracker: alignment figures (Flink testMetrics and the alignment-duration tests)', () => {
  // Each step is one second; every barrier was created at time 0.
  const rows = [
    {
      // testMetrics: buffers before the first barrier do not count; those until the last one do
      name: 'counts the bytes read from the first barrier to the last, and times that span',
      channels: 3,
      sequence: 'd@0 d@1 d@2 b1@1 d@0 d@2 b1@0 d@2 b1@2 d@0 d@1',
      id: 1,
      figures: { startDelayMs: 3000, alignmentDurationMs: 5000, processedBytes: 3 * BUFFER_BYTES },
    },
    {
      name: 'counts bytes from a channel whose barrier is in, since the tracker blocks nothing',
      channels: 2,
      sequence: 'b1@0 d@0 d@0 b1@1',
      id: 1,
      figures: { startDelayMs: 0, alignmentDurationMs: 3000, processedBytes: 2 * BUFFER_BYTES },
    },
    {
      // testSingleChannelMetrics
      name: 'a single channel has no alignment: duration 0 and 0 bytes',
      channels: 1,
      sequence: 'd@0 b1@0 d@0',
      id: 1,
      figures: { startDelayMs: 1000, alignmentDurationMs: 0, processedBytes: 0 },
    },
    {
      // testNextFirstCheckpointBarrierOvertakesCancellationBarrier
      name: 'the newest id is timed from its own first barrier when an older one is cancelled meanwhile',
      channels: 2,
      sequence: 'b1@1 b2@1 c1@0 b2@0',
      id: 2,
      figures: { startDelayMs: 1000, alignmentDurationMs: 2000, processedBytes: 0 },
    },
    {
      // testTwoLastBarriersOneByOne
      name: 'the newest id is timed from its own first barrier when an older one completes meanwhile',
      channels: 2,
      sequence: 'b1@1 b2@1 d@0 b1@0 b2@0',
      id: 2,
      figures: { startDelayMs: 1000, alignmentDurationMs: 3000, processedBytes: BUFFER_BYTES },
    },
    {
      name: 'an older id completing after a newer one began reports no alignment (only one is measured)',
      channels: 2,
      sequence: 'b1@1 b2@1 d@0 b1@0 b2@0',
      id: 1,
      figures: { startDelayMs: 0, alignmentDurationMs: 0, processedBytes: 0 },
    },
    {
      name: 'an end of partition ends the alignment it completes',
      channels: 2,
      sequence: 'b1@0 d@1 d@1 e@1',
      id: 1,
      figures: { startDelayMs: 0, alignmentDurationMs: 3000, processedBytes: 2 * BUFFER_BYTES },
    },
  ];

  it.each(rows)('$name', ({ channels, sequence, id, figures }) => {
    expect(run(channels, seq(sequence)).figures.get(id)).toEqual(figures);
  });
});

describe('an AT_LEAST_ONCE task uses the barrier tracker', () => {
  const atLeastOnce = { timestamp: 0, alignment: 'AT_LEAST_ONCE' as const };

  it('reports the bytes it processed between the first and the last barrier as processed data', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ checkpointingMode: 'AT_LEAST_ONCE' }));
    h.at(10).deliver(IN_A, barrier(1, atLeastOnce)).run();
    h.at(11).deliver(IN_A, data('x', 3)).deliver(IN_B, data('y', 2)).run();
    const [persist] = snapshotsIn(h.at(30).deliver(IN_B, barrier(1, atLeastOnce)).run());
    expect(persist!.metrics).toMatchObject({ alignmentDurationMs: 20, processedDataBytes: data('x', 5).sizeBytes });
  });

  it('declines every older pending checkpoint on a marker, and forwards a marker for each once', () => {
    const h = new TaskHarness(keyedCountTwoChannels({ checkpointingMode: 'AT_LEAST_ONCE' }));
    h.at(10).deliver(IN_A, barrier(1, atLeastOnce), barrier(2, atLeastOnce)).run();
    const cancelled = h.at(20).deliver(IN_B, cancelMarker(2)).run();
    expect(declinesIn(cancelled).map((d) => [d.checkpointId, d.reason])).toEqual([
      [1, 'CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER'],
      [2, 'CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER'],
    ]);
    expect(sendsIn(h.effects, OUT).map((s) => kindOf(s.buffer))).toEqual(['cancel 1', 'cancel 2']);
    expect(snapshotsIn(h.effects)).toEqual([]);
  });
});
