/**
 * The sink's records on their way from a TaskManager to the external system on the main thread,
 * column by column (SinkRecordColumns in protocol.ts).
 *
 * Why: the sink's output is every record of the job crossing one more thread boundary, into the
 * one main thread that all TaskManagers write to. As an array of objects, it was structured-cloned
 * record by record on both sides and cost as much as the whole data plane. As columns, the numbers
 * travel in transferred ArrayBuffers (no copy) and only each distinct key is cloned, once per batch.
 */
import type { StreamRecord } from '../engine/protocol.ts';
import type { SinkRecordColumns } from './protocol.ts';
import { copyRecordColumns, recordColumnsTransfer } from './record-column-buffer.ts';

/** Collects records, in the order written, into columns; `build()` hands them over and starts anew. */
export class SinkRecordColumnsBuilder {
  #keyNames: string[] = [];
  #keyIndex = new Map<string, number>();
  #keys: number[] = [];
  #values: number[] = [];
  #timestamps: number[] = [];

  get size(): number {
    return this.#keys.length;
  }

  add(records: readonly StreamRecord[]): void {
    for (const r of records) {
      let index = this.#keyIndex.get(r.key);
      if (index === undefined) {
        index = this.#keyNames.length;
        this.#keyNames.push(r.key);
        this.#keyIndex.set(r.key, index);
      }
      this.#keys.push(index);
      this.#values.push(r.value);
      this.#timestamps.push(r.timestamp);
    }
  }

  build(): SinkRecordColumns {
    const columns: SinkRecordColumns = { keyNames: this.#keyNames, ...copyRecordColumns(this.#keys, this.#values, this.#timestamps) };
    this.#keyNames = [];
    this.#keyIndex = new Map();
    this.#keys = [];
    this.#values = [];
    this.#timestamps = [];
    return columns;
  }
}

/** The buffers to transfer with a message carrying `columns`. */
export function columnBuffers(columns: SinkRecordColumns): ArrayBuffer[] {
  return recordColumnsTransfer(columns);
}

export function sinkRecordsOf(columns: SinkRecordColumns): StreamRecord[] {
  const { keyNames, keys, values, timestamps } = columns;
  const records = new Array<StreamRecord>(keys.length);
  for (let i = 0; i < keys.length; i++) records[i] = { key: keyNames[keys[i]!]!, value: values[i]!, timestamp: timestamps[i]! };
  return records;
}

/** Columns of one batch of records (a committed transaction's). */
export function sinkRecordColumns(records: readonly StreamRecord[]): SinkRecordColumns {
  const builder = new SinkRecordColumnsBuilder();
  builder.add(records);
  return builder.build();
}
