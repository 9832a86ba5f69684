import { describe, expect, it } from 'vitest';
import { allocateRecordColumns, recordColumnsTransfer } from '../../workers/record-column-buffer.ts';
import { NetworkBufferEncoder } from '../../workers/network-buffer-columns.ts';
import { SinkOutputEncoder } from '../../workers/sink-output-columns.ts';

describe('record columns in one ArrayBuffer', () => {
  it('lays the three columns side by side: writing one leaves the others as they were', () => {
    const n = 5;
    const columns = allocateRecordColumns(n);
    for (let i = 0; i < n; i++) {
      columns.values[i] = -1.5 - i;
      columns.timestamps[i] = 2 ** 40 + i;
      columns.keys[i] = 0xffff_ffff - i;
    }
    expect([...columns.values]).toEqual([-1.5, -2.5, -3.5, -4.5, -5.5]);
    expect([...columns.timestamps]).toEqual([0, 1, 2, 3, 4].map((i) => 2 ** 40 + i));
    expect([...columns.keys]).toEqual([0, 1, 2, 3, 4].map((i) => 0xffff_ffff - i));
    expect(columns.values.buffer).toBe(columns.keys.buffer);
    expect(columns.values.buffer).toBe(columns.timestamps.buffer);
  });

  it('names each buffer once to transfer (a repeated one makes postMessage throw)', () => {
    const columns = allocateRecordColumns(3);
    const transfer = recordColumnsTransfer(columns);
    expect(transfer).toEqual([columns.values.buffer]);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(columns, transfer);
    expect(columns.keys.length).toBe(0);
    port1.close();
    port2.close();
  });

  it('holds no records when empty, and still crosses a port', () => {
    const columns = allocateRecordColumns(0);
    expect([columns.values.length, columns.timestamps.length, columns.keys.length]).toEqual([0, 0, 0]);
    expect(recordColumnsTransfer(columns)).toHaveLength(1);
  });

  it('is what a network buffer message and a sink output batch each transfer: one buffer', () => {
    const { transfer } = new NetworkBufferEncoder().encode(1, [{ kind: 'data', records: [{ key: 'a', value: 1, timestamp: 2 }], sizeBytes: 100 }]);
    expect(transfer).toHaveLength(1);
    const sink = new SinkOutputEncoder();
    sink.add([{ key: 'a', value: 1, timestamp: 2 }, { key: 'b', value: 3, timestamp: 4 }]);
    const batch = sink.build();
    expect(recordColumnsTransfer(batch)).toHaveLength(1);
    expect([...batch.keys, ...batch.values, ...batch.timestamps]).toEqual([0, 1, 1, 3, 2, 4]);
  });
});
