/**
 * The one ArrayBuffer that holds a batch's record columns (RecordColumns in protocol.ts): values,
 * then timestamps, then key numbers, each a view on the same buffer.
 *
 * Why: every data-plane message and every sink report carries a batch of columns. With a buffer
 * per column, each message allocated three backing stores outside the JavaScript heap and
 * transferred three; one buffer is one allocation and one transfer, and the receiver's views are
 * the same three typed arrays as before.
 */
import type { RecordColumns } from './protocol.ts';

/** Empty columns for `count` records on one new ArrayBuffer (the float64 columns first, so every view is aligned). */
export function allocateRecordColumns(count: number): Omit<RecordColumns, 'keyNames'> {
  const buffer = new ArrayBuffer(count * (8 + 8 + 4));
  return {
    values: new Float64Array(buffer, 0, count),
    timestamps: new Float64Array(buffer, count * 8, count),
    keys: new Uint32Array(buffer, count * 16, count),
  };
}

/** Columns holding a copy of the given ones (each `count` long), on one new ArrayBuffer. */
export function copyRecordColumns(keys: ArrayLike<number>, values: ArrayLike<number>, timestamps: ArrayLike<number>): Omit<RecordColumns, 'keyNames'> {
  const columns = allocateRecordColumns(keys.length);
  columns.keys.set(keys);
  columns.values.set(values);
  columns.timestamps.set(timestamps);
  return columns;
}

/** The buffers to transfer with a message carrying `columns`: each once (a transfer list must not repeat one). */
export function recordColumnsTransfer(columns: Omit<RecordColumns, 'keyNames'>): ArrayBuffer[] {
  return [...new Set([columns.values.buffer, columns.timestamps.buffer, columns.keys.buffer])] as ArrayBuffer[];
}
