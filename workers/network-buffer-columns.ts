/**
 * The buffers of one remote channel on their way from a TaskManager to another (BuffersMessage),
 * the records of every data buffer in columns.
 *
 * Why: every record of an edge between TaskManagers crosses a thread here. As arrays of record
 * objects, each record was structured-cloned field by field and its key string copied every time,
 * on both sides of the port. As columns, the numbers travel in transferred ArrayBuffers (no copy),
 * and a key's name crosses once per channel and attempt: both ends keep the names sent so far
 * (a MessagePort delivers in order, and a channel's ports are made new for every attempt), so a
 * message names only keys the channel has not carried before. This is what Flink does too:
 * records are serialized into a buffer's bytes, not sent as objects.
 */
import type { NetworkBuffer, StreamRecord } from '../engine/protocol.ts';
import type { BuffersMessage, WireBuffer } from './protocol.ts';
import { allocateRecordColumns, recordColumnsTransfer } from './record-column-buffer.ts';

/** The sending end of one channel: numbers each key name the first time the channel carries it. */
export class NetworkBufferEncoder {
  readonly #keyIds = new Map<string, number>();

  /** The message for `buffers` of `channelId`, and the ArrayBuffers to transfer with it. */
  encode(channelId: number, buffers: readonly NetworkBuffer[]): { message: BuffersMessage; transfer: ArrayBuffer[] } {
    let total = 0;
    for (const b of buffers) if (b.kind === 'data') total += b.records.length;
    const newKeyNames: string[] = [];
    const columns = allocateRecordColumns(total);
    const { keys, values, timestamps } = columns;
    let at = 0;
    const wire = buffers.map((b): WireBuffer => {
      if (b.kind === 'event') return b;
      const records = b.records;
      for (let i = 0; i < records.length; i++, at++) {
        const r = records[i]!;
        keys[at] = this.#keyId(r.key, newKeyNames);
        values[at] = r.value;
        timestamps[at] = r.timestamp;
      }
      const header: WireBuffer = { kind: 'data', recordCount: records.length, sizeBytes: b.sizeBytes };
      if (b.watermark !== undefined) header.watermark = b.watermark;
      return header;
    });
    const message: BuffersMessage = { kind: 'buffers', channelId, buffers: wire, records: { keyNames: newKeyNames, keys, values, timestamps } };
    return { message, transfer: recordColumnsTransfer(columns) };
  }

  #keyId(key: string, newKeyNames: string[]): number {
    let id = this.#keyIds.get(key);
    if (id === undefined) {
      id = this.#keyIds.size;
      this.#keyIds.set(key, id);
      newKeyNames.push(key);
    }
    return id;
  }
}

/** The receiving end of one channel: it must decode every message of the channel, in order. */
export class NetworkBufferDecoder {
  readonly #keyNames: string[] = [];

  /** The network buffers of a message, as the sending subtask put them on the channel. */
  decode(message: BuffersMessage): NetworkBuffer[] {
    const { keyNames: newKeyNames, keys, values, timestamps } = message.records;
    const keyNames = this.#keyNames;
    for (const name of newKeyNames) keyNames.push(name);
    let at = 0;
    return message.buffers.map((b): NetworkBuffer => {
      if (b.kind === 'event') return b;
      const records = new Array<StreamRecord>(b.recordCount);
      for (let i = 0; i < records.length; i++, at++) records[i] = { key: keyNames[keys[at]!]!, value: values[at]!, timestamp: timestamps[at]! };
      return b.watermark === undefined ? { kind: 'data', records, sizeBytes: b.sizeBytes } : { kind: 'data', records, sizeBytes: b.sizeBytes, watermark: b.watermark };
    });
  }
}
