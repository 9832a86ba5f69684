import { describe, expect, it } from 'vitest';
import { queuedBufferLabel } from '../../web/inspector/queued-buffer-label.ts';
import type { CheckpointBarrier, NetworkBuffer } from '../../engine/protocol.ts';

const barrier = (o: Partial<CheckpointBarrier> = {}): CheckpointBarrier => ({ kind: 'barrier', checkpointId: 3, timestamp: 0, checkpointKind: 'CHECKPOINT', alignment: 'ALIGNED', ...o });
const event = (e: CheckpointBarrier, priority = false): NetworkBuffer => ({ kind: 'event', event: e, sizeBytes: 32, priority });

describe('the channel view names a queued barrier announced when the task already knows of it', () => {
  it.each([
    { case: 'a timeoutable aligned barrier in a receiver queue', buffer: event(barrier({ alignedTimeoutAt: 50 })), receiving: true, key: 'inspector.queued.barrierAnnounced', hint: true },
    { case: 'the same barrier still in the sender backlog', buffer: event(barrier({ alignedTimeoutAt: 50 })), receiving: false, key: 'inspector.queued.barrier', hint: false },
    { case: 'an aligned barrier without a timeout', buffer: event(barrier()), receiving: true, key: 'inspector.queued.barrier', hint: false },
    { case: 'a priority (unaligned) barrier, which overtook the queue', buffer: event(barrier({ alignment: 'UNALIGNED' }), true), receiving: true, key: 'inspector.queued.barrier', hint: false },
  ])('$case → $key', ({ buffer, receiving, key, hint }) => {
    const label = queuedBufferLabel(buffer, receiving);
    expect(label.key).toBe(key);
    expect(label.params).toEqual({ id: 3 });
    expect(label.hint !== undefined).toBe(hint);
  });

  it('counts the records of a data buffer', () => {
    expect(queuedBufferLabel({ kind: 'data', records: [{ key: 'a', value: 1, timestamp: 0 }], sizeBytes: 100 }, true)).toEqual({ key: 'inspector.queued.records', params: { n: 1 } });
  });
});
