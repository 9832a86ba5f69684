import { describe, expect, it } from 'vitest';
import type { StreamRecord } from '../../engine/protocol.ts';
import { columnBuffers, SinkRecordColumnsBuilder, sinkRecordColumns, sinkRecordsOf } from '../../workers/sink-record-columns.ts';

const records = (keys: string[], from = 0): StreamRecord[] => keys.map((key, i) => ({ key, value: from + i + 0.5, timestamp: 1_700_000_000_000 + from + i }));

describe('sink records as columns', () => {
  it('gives back every record, in the order written, with its key, value and timestamp', () => {
    const written = records(['a', 'b', 'a', 'c', 'b', 'a']);
    expect(sinkRecordsOf(sinkRecordColumns(written))).toEqual(written);
  });

  it('holds each distinct key once per batch and the numbers in typed arrays', () => {
    const columns = sinkRecordColumns(records(['k-1', 'k-2', 'k-1', 'k-1']));
    expect(columns.keyNames).toEqual(['k-1', 'k-2']);
    expect([...columns.keys]).toEqual([0, 1, 0, 0]);
    expect(columnBuffers(columns)).toHaveLength(1);
  });

  it('appends the writes of several polls and starts a fresh batch after build', () => {
    const builder = new SinkRecordColumnsBuilder();
    builder.add(records(['x', 'y'], 0));
    builder.add(records(['y', 'z'], 2));
    expect(builder.size).toBe(4);
    expect(sinkRecordsOf(builder.build())).toEqual([...records(['x', 'y'], 0), ...records(['y', 'z'], 2)]);
    expect(builder.size).toBe(0);
    builder.add(records(['q'], 9));
    expect(sinkRecordsOf(builder.build())).toEqual(records(['q'], 9));
  });

  it('crosses a MessageChannel with its buffers transferred, not copied', async () => {
    const written = records(['a', 'b', 'a']);
    const columns = sinkRecordColumns(written);
    const { port1, port2 } = new MessageChannel();
    const arrived = new Promise<StreamRecord[]>((resolve) => (port2.onmessage = (e) => resolve(sinkRecordsOf(e.data))));
    port1.postMessage(columns, columnBuffers(columns));
    // a transferred buffer is detached on the sending side
    expect(columns.values.length).toBe(0);
    expect(await arrived).toEqual(written);
    port1.close();
    port2.close();
  });
});
