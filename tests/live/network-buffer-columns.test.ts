import { describe, expect, it } from 'vitest';
import type { DataBuffer, EventBuffer, NetworkBuffer, StreamRecord } from '../../engine/protocol.ts';
import { NetworkBufferDecoder, NetworkBufferEncoder } from '../../workers/network-buffer-columns.ts';
import type { BuffersMessage } from '../../workers/protocol.ts';

const records = (keys: string[], from = 0): StreamRecord[] => keys.map((key, i) => ({ key, value: from + i + 0.5, timestamp: 1_700_000_000_000 + from + i }));
const data = (rs: StreamRecord[], watermark?: number): DataBuffer => ({ kind: 'data', records: rs, sizeBytes: rs.length * 100 + (watermark === undefined ? 0 : 16), ...(watermark === undefined ? {} : { watermark }) });
const barrier: EventBuffer = { kind: 'event', event: { kind: 'barrier', checkpointId: 7, timestamp: 1234, checkpointKind: 'CHECKPOINT', alignment: 'ALIGNED' }, sizeBytes: 16, priority: false };

/** Both ends of one channel: what the receiver gets for each message the sender encodes, in order. */
function channel(): (buffers: NetworkBuffer[]) => { message: BuffersMessage; received: NetworkBuffer[] } {
  const encoder = new NetworkBufferEncoder();
  const decoder = new NetworkBufferDecoder();
  return (buffers) => {
    const { message } = encoder.encode(3, buffers);
    return { message, received: decoder.decode(message) };
  };
}

describe('network buffers as columns between TaskManagers', () => {
  it('gives back every buffer in order: records with key, value and timestamp, watermarks, sizes and events', () => {
    const sent: NetworkBuffer[] = [data(records(['a', 'b', 'a'])), barrier, data(records(['c', 'a'], 3), 42), data([], 43), data(records(['b'], 5))];
    expect(channel()(sent).received).toEqual(sent);
  });

  it('keeps numbers a JSON copy would change: -0, NaN, infinities and fractions', () => {
    const odd: StreamRecord[] = [
      { key: 'x', value: -0, timestamp: -Infinity },
      { key: 'y', value: NaN, timestamp: 0.25 },
      { key: 'x', value: Infinity, timestamp: Number.MAX_SAFE_INTEGER },
    ];
    const [buffer] = channel()([data(odd)]).received as [DataBuffer];
    expect(Object.is(buffer.records[0]!.value, -0)).toBe(true);
    expect(buffer.records).toEqual(odd);
  });

  it('names a key once per channel: later messages carry only keys the channel has not carried, and still decode', () => {
    const send = channel();
    const first = send([data(records(['k-1', 'k-2'])), data(records(['k-1', 'k-1'], 2))]);
    expect(first.message.records.keyNames).toEqual(['k-1', 'k-2']);
    expect([...first.message.records.keys]).toEqual([0, 1, 0, 0]);
    const later = [data(records(['k-2', 'k-3', 'k-1'], 4))];
    const second = send(later);
    expect(second.message.records.keyNames).toEqual(['k-3']);
    expect([...second.message.records.keys]).toEqual([1, 2, 0]);
    expect(second.received).toEqual(later);
  });

  it('starts with no names on a new channel (a new attempt has new ports)', () => {
    channel()([data(records(['a', 'b']))]);
    expect(channel()([data(records(['b']))]).message.records.keyNames).toEqual(['b']);
  });

  it('crosses a MessageChannel with its record columns transferred, not copied', async () => {
    const sent = [data(records(['a', 'b', 'a'])), barrier];
    const { message, transfer } = new NetworkBufferEncoder().encode(1, sent);
    const { port1, port2 } = new MessageChannel();
    const decoder = new NetworkBufferDecoder();
    const arrived = new Promise<NetworkBuffer[]>((resolve) => (port2.onmessage = (e: MessageEvent<BuffersMessage>) => resolve(decoder.decode(e.data))));
    port1.postMessage(message, transfer);
    // a transferred buffer is detached on the sending side
    expect(message.records.values.length).toBe(0);
    expect(await arrived).toEqual(sent);
    port1.close();
    port2.close();
  });
});
