/**
 * Where a barrier's start delay and alignment come from in the scale model: the records ahead of
 * it in the channels. Figures worked out by hand from the buffers' mechanics, not read from the code.
 */
import { describe, expect, it } from 'vitest';
import { barrierTravel, type BarrierTravelInputs } from '../../engine/scale/barrier-travel.ts';
import type { JobFlows, VertexFlow } from '../../engine/scale/vertex-flows.ts';
import type { VertexSpec } from '../../engine/scenario/scenario-types.ts';

function vertex(index: number, type: 'source' | 'keyed-aggregate', recordCostUs: number, upstream: number[], channels: number): VertexFlow {
  const spec = { id: `v${index}`, name: `v${index}`, parallelism: 2, record_cost_us: recordCostUs, operator: type === 'source' ? { type, source: { kind: 'sequence', keys: 10, rate_per_s: 2000 } } : { type, aggregate: 'count' } } as VertexSpec;
  return { vertex: spec, index, inputRatePerS: 4000, capacityPerSubtaskPerS: 1e6 / recordCostUs, keyed: type !== 'source', upstream, inputChannelsPerSubtask: channels, subtaskShare: [0.5, 0.5] };
}

/** Two sources of 2,000 records/s each into a count of 200 µs per record over a hash edge: 2 channels of 1,000 records/s per count subtask. */
const flows: JobFlows = { vertices: [vertex(0, 'source', 1, [], 0), vertex(1, 'keyed-aggregate', 200, [0], 2)], sourceRatePerS: 4000, headroom: 2.5, bottleneck: 1 };

function travel(overrides: Partial<BarrierTravelInputs> = {}) {
  return barrierTravel({
    flows,
    // 32 kB segments of 100-byte records: 327 records a buffer, far more than the 100 a channel gathers in a 100 ms flush
    config: { buffersPerChannel: 2, floatingBuffersPerGate: 8, segmentSizeBytes: 32 * 1024, unalignedEnabled: false, bufferTimeout: 100 },
    networkLatencyMs: 1,
    recordSizeBytes: 100,
    saturated: false,
    triggerAt: 1030,
    deployedAt: 0,
    ...overrides,
  });
}

describe('barrier travel below saturation', () => {
  it('waits behind the rest of the last flush and the first channel’s partial buffer, then aligns over the other channel’s', () => {
    // The barrier leaves the sources 1 ms after the trigger, 31 ms after their last flush at 1000 ms:
    // that flush brought 2 × 100 records (40 ms of work), 9 ms of it left; each channel's partial
    // buffer holds 31 records (6.2 ms). First barrier: 1 + 1 ms of hops + 9 + 6.2; the second 6.2 later.
    const t = travel();
    expect(t.startDelayMs[1]).toBeCloseTo(17.2, 6);
    expect(t.alignmentMs[1]).toBeCloseTo(6.2, 6);
    expect(t.snapshotDelayMs[1]).toBeCloseTo(23.4, 6);
    expect(t.startDelayMs[0]).toBe(1);
  });

  it('neither waits nor aligns for an unaligned barrier, which overtakes the buffers', () => {
    const t = travel({ config: { buffersPerChannel: 2, floatingBuffersPerGate: 8, segmentSizeBytes: 32 * 1024, unalignedEnabled: true, bufferTimeout: 100 } });
    expect(t.startDelayMs[1]).toBe(2);
    expect(t.alignmentMs[1]).toBe(0);
  });

  it('waits for the full queues when the job runs at its limit', () => {
    // 2 channels × 2 exclusive buffers × 2 (the senders' backlogs) + 8 floating = 16 buffers of 327 records at 200 µs
    const t = travel({ saturated: true });
    expect(t.queuedBytes[1]).toBe(16 * 32 * 1024);
    expect(t.startDelayMs[1]).toBeCloseTo(2 + (16 * 32 * 1024 * 0.2) / 100, 6);
  });
});
