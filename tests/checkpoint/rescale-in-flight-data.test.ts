import { describe, expect, it } from 'vitest';
import { rescaleProblem } from '../../engine/checkpoint/state-assignment.ts';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { ChannelState, DataBuffer, TaskStateSnapshot } from '../../engine/protocol.ts';

// source → map → window → sink: rescaling the window changes the channels on both of its edges.
const edges = [
  { from: 'source', to: 'map' },
  { from: 'map', to: 'window' },
  { from: 'window', to: 'sink' },
];
const buffer: DataBuffer = { kind: 'data', records: [], sizeBytes: 100 };

function checkpointWithChannelState(holders: Array<{ vertex: string; side: 'inputs' | 'outputs' }>): CompletedCheckpoint {
  const taskStates = new Map<string, TaskStateSnapshot>();
  for (const vertex of ['source', 'map', 'window', 'sink']) {
    const channelState: ChannelState = { inputs: [], outputs: [] };
    for (const h of holders.filter((h) => h.vertex === vertex)) {
      if (h.side === 'inputs') channelState.inputs.push({ gate: 0, channel: 0, buffers: [buffer] });
      else channelState.outputs.push({ channelId: 0, buffers: [buffer] });
    }
    const held = channelState.inputs.length + channelState.outputs.length > 0;
    taskStates.set(`${vertex}#0`, { subtask: { vertexId: vertex, subtaskIndex: 0 }, stateSize: 0, checkpointedSize: 0, ...(held ? { channelState } : {}) } as TaskStateSnapshot);
  }
  return { id: 7, isSavepoint: false, triggerTimestamp: 0, completionTimestamp: 1, externalPath: 'chk-7', taskStates, parallelism: { source: 1, map: 1, window: 1, sink: 1 }, stateSize: 0, checkpointedSize: 0 };
}

describe('rescaling from a checkpoint with unaligned in-flight data', () => {
  it.each([
    { held: [], want: undefined },
    { held: [{ vertex: 'window', side: 'inputs' }], want: 'cannot rescale "window" from checkpoint 7: "window" holds unaligned in-flight data on its channels; restore from an aligned checkpoint or savepoint' },
    { held: [{ vertex: 'window', side: 'outputs' }], want: 'cannot rescale "window" from checkpoint 7: "window" holds unaligned in-flight data on its channels; restore from an aligned checkpoint or savepoint' },
    { held: [{ vertex: 'map', side: 'outputs' }], want: 'cannot rescale "window" from checkpoint 7: its upstream "map" holds unaligned in-flight data on its channels; restore from an aligned checkpoint or savepoint' },
    { held: [{ vertex: 'sink', side: 'inputs' }], want: 'cannot rescale "window" from checkpoint 7: its downstream "sink" holds unaligned in-flight data on its channels; restore from an aligned checkpoint or savepoint' },
    // channels the rescale leaves alone: the upstream's inputs, the downstream's outputs, a vertex two edges away
    { held: [{ vertex: 'map', side: 'inputs' }], want: undefined },
    { held: [{ vertex: 'sink', side: 'outputs' }], want: undefined },
    { held: [{ vertex: 'source', side: 'outputs' }], want: undefined },
  ] as Array<{ held: Array<{ vertex: string; side: 'inputs' | 'outputs' }>; want: string | undefined }>)('with in-flight data held at $held: $want', ({ held, want }) => {
    expect(rescaleProblem(checkpointWithChannelState(held), 'window', 3, false, edges)).toBe(want);
  });

  it('allows any channel state when the parallelism stays the same', () => {
    expect(rescaleProblem(checkpointWithChannelState([{ vertex: 'window', side: 'inputs' }, { vertex: 'map', side: 'outputs' }]), 'window', 1, false, edges)).toBeUndefined();
  });
});
