import { describe, expect, it } from 'vitest';
import type { StreamRecord } from '../../engine/protocol.ts';
import { ColumnKeyStream, SinkOutputLog } from '../../engine/run/sink-output-log.ts';
import { SinkOutputDecoder, SinkOutputEncoder } from '../../workers/sink-output-columns.ts';
import { columnBuffers } from '../../workers/sink-record-columns.ts';

const records = (keys: string[], from = 0): StreamRecord[] => keys.map((key, i) => ({ key, value: from + i + 0.5, timestamp: 1_700_000_000_000 + from + i }));

describe("a TaskManager's sink output to the main thread, each key named once per report port", () => {
  it('gives back every record of every batch, in the order written, with its key, value and timestamp', () => {
    const encoder = new SinkOutputEncoder();
    const decoder = new SinkOutputDecoder();
    const first = records(['a', 'b', 'a', 'c']);
    const second = records(['c', 'd', 'a'], 4);
    encoder.add(first);
    expect(decoder.records(encoder.build())).toEqual(first);
    encoder.add(second.slice(0, 1));
    encoder.add(second.slice(1));
    expect(decoder.records(encoder.build())).toEqual(second);
  });

  it('names in a batch only the keys the port has not carried, and numbers keys across batches', () => {
    const encoder = new SinkOutputEncoder();
    encoder.add(records(['k-1', 'k-2', 'k-1']));
    const first = encoder.build();
    expect(first.keyNames).toEqual(['k-1', 'k-2']);
    expect([...first.keys]).toEqual([0, 1, 0]);
    encoder.add(records(['k-2', 'k-3', 'k-1']));
    const second = encoder.build();
    expect(second.keyNames).toEqual(['k-3']);
    expect([...second.keys]).toEqual([1, 2, 0]);
    encoder.add([]);
    expect(encoder.build().keyNames).toEqual([]);
  });

  it('keeps every record when a batch outgrows the columns it started with', () => {
    const encoder = new SinkOutputEncoder();
    const many = Array.from({ length: 5000 }, (_, i): StreamRecord => ({ key: `key-${i % 7}`, value: i, timestamp: i * 2 }));
    for (let i = 0; i < many.length; i += 700) encoder.add(many.slice(i, i + 700));
    expect(encoder.size).toBe(5000);
    expect(new SinkOutputDecoder().records(encoder.build())).toEqual(many);
    expect(encoder.size).toBe(0);
  });

  it('gives each batch buffers of its own: transferring one leaves the next batch whole', async () => {
    const encoder = new SinkOutputEncoder();
    const decoder = new SinkOutputDecoder();
    const { port1, port2 } = new MessageChannel();
    const arrived: StreamRecord[][] = [];
    const both = new Promise<void>((resolve) => {
      port2.onmessage = (e) => {
        arrived.push(decoder.records(e.data));
        if (arrived.length === 2) resolve();
      };
    });
    encoder.add(records(['a', 'b']));
    const first = encoder.build();
    port1.postMessage(first, columnBuffers(first));
    expect(first.values.length).toBe(0);
    encoder.add(records(['b', 'c'], 2));
    const second = encoder.build();
    port1.postMessage(second, columnBuffers(second));
    await both;
    expect(arrived).toEqual([records(['a', 'b']), records(['b', 'c'], 2)]);
    port1.close();
    port2.close();
  });

  it('writes to the sink output log what the records say, whether a key is new to the stream or not', () => {
    const encoder = new SinkOutputEncoder();
    const decoder = new SinkOutputDecoder();
    const streamed = new SinkOutputLog();
    const stream = new ColumnKeyStream();
    const expected = new SinkOutputLog();
    for (const batch of [records(['x', 'y', 'x']), records(['y', 'z'], 3), records(['x'], 5)]) {
      encoder.add(batch);
      const columns = encoder.build();
      streamed.writeColumns(decoder.follow(columns), columns.keys, columns.values, stream);
      expected.write(batch);
    }
    expect(streamed.perKey()).toEqual(expected.perKey());
    expect(streamed.totalRecords).toBe(6);
    expect(streamed.compareTo(expected)).toEqual({ duplicates: 0, missing: 0 });
  });
});
