/**
 * A plain sink's writes on their way from one TaskManager to the sink's external system on the
 * main thread: one batch of columns per scheduling turn and subtask (SinkOutputColumns in
 * protocol.ts), every key named once per TaskManager.
 *
 * Why: a profile of the live bench showed each batch naming every key its sink subtask had seen
 * (250 of a keyBy's 1,000 keys per batch of ~1,200 records), cloned on both sides and looked up
 * again on the main thread, and the columns filled by pushing onto plain arrays and then copied
 * into typed arrays (garbage in the worker on every record). Here the key numbers last as long as
 * the TaskManager's report port (a MessagePort delivers in order, and a new process has a new
 * port), so a batch names only keys the port has not carried; and the columns are written straight
 * into typed arrays that are reused, each batch taking an exact copy, in one buffer, to transfer.
 */
import type { StreamRecord } from '../engine/protocol.ts';
import type { SinkOutputColumns } from './protocol.ts';
import { copyRecordColumns } from './record-column-buffer.ts';

const INITIAL_CAPACITY = 1024;

/** The TaskManager's end of its report port: one per process, for every sink subtask it hosts and every attempt. */
export class SinkOutputEncoder {
  readonly #keyIds = new Map<string, number>();
  #newKeyNames: string[] = [];
  #keys = new Uint32Array(INITIAL_CAPACITY);
  #values = new Float64Array(INITIAL_CAPACITY);
  #timestamps = new Float64Array(INITIAL_CAPACITY);
  #size = 0;

  /** records in the batch being written */
  get size(): number {
    return this.#size;
  }

  add(records: readonly StreamRecord[]): void {
    this.#reserve(this.#size + records.length);
    const keyIds = this.#keyIds;
    const keys = this.#keys;
    const values = this.#values;
    const timestamps = this.#timestamps;
    let at = this.#size;
    for (let i = 0; i < records.length; i++, at++) {
      const r = records[i]!;
      let id = keyIds.get(r.key);
      if (id === undefined) {
        id = keyIds.size;
        keyIds.set(r.key, id);
        this.#newKeyNames.push(r.key);
      }
      keys[at] = id;
      values[at] = r.value;
      timestamps[at] = r.timestamp;
    }
    this.#size = at;
  }

  /** The batch written since the last build (its buffers are its own, to transfer); the next starts empty. */
  build(): SinkOutputColumns {
    const n = this.#size;
    const columns: SinkOutputColumns = { keyNames: this.#newKeyNames, ...copyRecordColumns(this.#keys.subarray(0, n), this.#values.subarray(0, n), this.#timestamps.subarray(0, n)) };
    this.#newKeyNames = [];
    this.#size = 0;
    return columns;
  }

  #reserve(capacity: number): void {
    if (capacity <= this.#keys.length) return;
    let grown = this.#keys.length * 2;
    while (grown < capacity) grown *= 2;
    const keys = new Uint32Array(grown);
    const values = new Float64Array(grown);
    const timestamps = new Float64Array(grown);
    keys.set(this.#keys.subarray(0, this.#size));
    values.set(this.#values.subarray(0, this.#size));
    timestamps.set(this.#timestamps.subarray(0, this.#size));
    this.#keys = keys;
    this.#values = values;
    this.#timestamps = timestamps;
  }
}

/**
 * The main thread's end of one report port: the key names it has carried so far, in the order
 * named. `follow` must see every batch of the port, in order, whether or not its records are kept.
 */
export class SinkOutputDecoder {
  readonly keyNames: string[] = [];

  /** Takes the names a batch adds; returns every name so far (batch record i has keyNames[keys[i]]). */
  follow(columns: SinkOutputColumns): readonly string[] {
    for (const name of columns.keyNames) this.keyNames.push(name);
    return this.keyNames;
  }

  /** The batch's records, as written (for tests and tools; the live driver writes the columns as they are). */
  records(columns: SinkOutputColumns): StreamRecord[] {
    const names = this.follow(columns);
    const { keys, values, timestamps } = columns;
    const records = new Array<StreamRecord>(keys.length);
    for (let i = 0; i < keys.length; i++) records[i] = { key: names[keys[i]!]!, value: values[i]!, timestamp: timestamps[i]! };
    return records;
  }
}
