/**
 * How a full keyed snapshot (KeyedStateSnapshot) is written to checkpoint storage and to a task-local
 * copy: as columns, not as a JSON tree of [key, value] pairs. Flink writes a full snapshot as a
 * binary stream per key group (FullSnapshotAsyncWriter: the key-group's entries as serialized
 * bytes); decoding a million pairs from JSON took most of a 100 MB restore (1.8 s for a million
 * keys in Node, 2 s or more per TaskManager in the browser), where these columns decode with one
 * TextDecoder call and one typed-array view (0.3–0.5 s, most of it allocating the entries).
 *
 * - every key of every state of every key group, in snapshot order, concatenated into one string
 *   and written as UTF-8 (`keyText`), with each key's length in UTF-16 units (`keyLengths`, as
 *   bytes of the narrowest unsigned array that holds the longest), so keys come back by
 *   `substring` without decoding bytes per key;
 * - the values of a state whose values are all numbers as one typed array (`numbers`: Int32Array
 *   when all are 32-bit integers, as counts are, else Float64Array, exact for NaN and -0 too); the
 *   values of any other state stay a plain array, written by the snapshot codec as it writes
 *   everything else.
 *
 * The layout per key group and state (`groups`) keeps the snapshot's order, so unpacking gives back
 * an equal KeyedStateSnapshot. Typed arrays are read in the platform's byte order, which is
 * little-endian in every browser and Node this runs in.
 */
import type { KeyedStateSnapshot, KeyGroupSnapshot, StateValue } from './keyed-state-backend.ts';
import type { KeyGroupRange } from './key-group-range.ts';
import { defineEncodedState, encodedStateOf, type EncodedKeyGroupState } from './encoded-key-group-state.ts';
import { entrySizeBytesOfKeyLength } from './state-size.ts';

/** One state of one key group: how many entries, and its values when they are not all numbers. */
interface PackedState {
  name: string;
  count: number;
  values?: StateValue[];
  /**
   * Its keys' length in UTF-16 units, summed (absent in columns written before it was): with every
   * state's, a restore finds each state's key text without walking a million key lengths, and when
   * they add up to the key text's bytes every key is ASCII (a non-ASCII character takes more UTF-8
   * bytes than UTF-16 units), without scanning the text.
   */
  units?: number;
}

/** A KeyedStateSnapshot as columns (the form the snapshot codec writes). */
export interface PackedKeyedState {
  format: 'key-group-columns-v1';
  keyGroupRange: KeyGroupRange;
  sizeBytes: number;
  groups: Array<{ keyGroup: number; states: PackedState[] }>;
  keyText: Uint8Array;
  /** each key's length, as the bytes of a Uint8Array, Uint16Array or Uint32Array: the narrowest that holds the longest */
  keyLengths: Uint8Array;
  keyLengthBytes: 1 | 2 | 4;
  /** the numeric states' values, as the bytes of an Int32Array when all are 32-bit integers, else of a Float64Array */
  numbers: Uint8Array;
  numberBytes: 4 | 8;
}

const encoder = new TextEncoder();
/** (ES2022 lacks String.prototype.isWellFormed) */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const decoder = new TextDecoder();

export function isPackedKeyedState(value: unknown): value is PackedKeyedState {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'key-group-columns-v1';
}

/**
 * `value` as columns when it is exactly a full keyed snapshot (a KeyedStateSnapshot and nothing
 * else: no other property, every entry a [string, value] pair), so unpacking gives back an equal
 * value; undefined for anything else, and when its keys cannot go through UTF-8 unchanged (a lone
 * surrogate would come back as U+FFFD): the codec then writes it as a tree, as before.
 */
export function packKeyedState(value: unknown): PackedKeyedState | undefined {
  if (!hasExactly(value, SNAPSHOT_KEYS) || !hasExactly(value.keyGroupRange, RANGE_KEYS) || !Array.isArray(value.keyGroups)) return undefined;
  const { keyGroupRange, keyGroups, sizeBytes } = value as unknown as KeyedStateSnapshot;
  if (typeof sizeBytes !== 'number' || typeof keyGroupRange.start !== 'number' || typeof keyGroupRange.end !== 'number') return undefined;
  const columns: Columns = { textParts: [], pendingKeys: [], lengths: [], numbers: [] };
  const groups: PackedKeyedState['groups'] = [];
  for (let g = 0; g < keyGroups.length; g++) {
    const group = keyGroups[g];
    if (!hasExactly(group, GROUP_KEYS) || typeof group.keyGroup !== 'number' || !hasPlainPrototype(group.states)) return undefined;
    const states: PackedState[] = [];
    for (const name of Object.keys(group.states)) {
      if (name === '__proto__') return undefined;
      const stateOf = group.states as KeyGroupSnapshot['states'];
      const encoded = encodedStateOf(stateOf, name);
      const state = encoded ? packEncodedState(name, encoded, columns) : packState(name, stateOf[name], columns);
      if (!state) return undefined;
      states.push(state);
    }
    groups.push({ keyGroup: group.keyGroup, states });
  }
  const keyText = keyTextOf(columns);
  if (!keyText) return undefined;
  const { lengths: keyLengths, numbers } = columns;
  let longest = 0;
  for (let i = 0; i < keyLengths.length; i++) if (keyLengths[i]! > longest) longest = keyLengths[i]!;
  const keyLengthBytes = longest < 0x100 ? 1 : longest < 0x10000 ? 2 : 4;
  const lengths = (keyLengthBytes === 1 ? Uint8Array : keyLengthBytes === 2 ? Uint16Array : Uint32Array).from(keyLengths);
  // -0 is not an integer here: Int32Array would write it as 0
  const int32 = numbers.every((n) => (n | 0) === n && !Object.is(n, -0));
  return {
    format: 'key-group-columns-v1',
    keyGroupRange: { start: keyGroupRange.start, end: keyGroupRange.end },
    sizeBytes,
    groups,
    keyText,
    keyLengths: new Uint8Array(lengths.buffer),
    keyLengthBytes,
    numbers: new Uint8Array((int32 ? Int32Array.from(numbers) : Float64Array.from(numbers)).buffer),
    numberBytes: int32 ? 4 : 8,
  };
}

/**
 * The columns as they are gathered: the key text in parts (keys of decoded states joined, and the
 * bytes of encoded states as they came), each key's length, the numeric states' values.
 */
interface Columns {
  textParts: Array<string | Uint8Array>;
  /** keys of decoded states since the last encoded one, joined into one part when another comes or at the end */
  pendingKeys: string[];
  lengths: number[];
  numbers: number[];
}

function flushPendingKeys(columns: Columns): void {
  if (columns.pendingKeys.length === 0) return;
  columns.textParts.push(columns.pendingKeys.join(''));
  columns.pendingKeys = [];
}

/** The key text as UTF-8; undefined when a decoded key cannot go through UTF-8 unchanged (a lone surrogate). */
function keyTextOf(columns: Columns): Uint8Array | undefined {
  flushPendingKeys(columns);
  const parts: Uint8Array[] = [];
  for (const part of columns.textParts) {
    if (typeof part !== 'string') parts.push(part);
    else if (LONE_SURROGATE.test(part)) return undefined;
    else parts.push(encoder.encode(part));
  }
  if (parts.length === 1) return parts[0]!.slice();
  const text = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    text.set(part, offset);
    offset += part.byteLength;
  }
  return text;
}

const SNAPSHOT_KEYS = ['keyGroupRange', 'keyGroups', 'sizeBytes'];
const RANGE_KEYS = ['start', 'end'];
const GROUP_KEYS = ['keyGroup', 'states'];

function hasPlainPrototype(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A plain object with exactly these own keys (in any order). */
function hasExactly(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (!hasPlainPrototype(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => Object.prototype.hasOwnProperty.call(value, k));
}

/** One state's entries, or undefined when they are not all [string, value] pairs. */
function packState(name: string, entries: unknown, columns: Columns): PackedState | undefined {
  if (!Array.isArray(entries)) return undefined;
  let numeric = true;
  for (let i = 0; i < entries.length; i++) {
    const e: unknown = entries[i];
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string') return undefined;
    if (typeof e[1] !== 'number') numeric = false;
  }
  let units = 0;
  for (const e of entries as Array<[string, StateValue]>) {
    columns.pendingKeys.push(e[0]);
    columns.lengths.push(e[0].length);
    units += e[0].length;
  }
  if (!numeric) return { name, count: entries.length, values: (entries as Array<[string, StateValue]>).map((e) => e[1]), units };
  for (const e of entries as Array<[string, number]>) columns.numbers.push(e[1]);
  return { name, count: entries.length, units };
}

/** A state no one decoded since it was read: its bytes, lengths and values go back as they came. */
function packEncodedState(name: string, state: EncodedKeyGroupState, columns: Columns): PackedState {
  flushPendingKeys(columns);
  columns.textParts.push(state.keyText);
  let units = 0;
  for (let i = 0; i < state.count; i++) {
    columns.lengths.push(state.keyLengths[i]!);
    units += state.keyLengths[i]!;
  }
  if (state.values) return { name, count: state.count, values: [...state.values], units };
  for (let i = 0; i < state.count; i++) columns.numbers.push(state.numbers![i]!);
  return { name, count: state.count, units };
}

/**
 * The snapshot the columns were packed from, equal to it. Throws when the columns do not add up.
 * When every key is ASCII (as the playground's keys are), each key group's states stay encoded
 * (encoded-key-group-state.ts) until someone reads them: a restore pays for the columns' headers,
 * not for a million entries.
 */
export function unpackKeyedState(packed: PackedKeyedState): KeyedStateSnapshot {
  const lengths: KeyLengths = packed.keyLengthBytes === 1 ? typedView(packed.keyLengths, Uint8Array) : packed.keyLengthBytes === 2 ? typedView(packed.keyLengths, Uint16Array) : typedView(packed.keyLengths, Uint32Array);
  const numbers: Numbers = packed.numberBytes === 4 ? typedView(packed.numbers, Int32Array) : typedView(packed.numbers, Float64Array);
  const keyGroups = isAsciiText(packed) ? encodedKeyGroups(packed, lengths, numbers) : decodedKeyGroups(packed, lengths, numbers);
  return { keyGroupRange: { ...packed.keyGroupRange }, keyGroups, sizeBytes: packed.sizeBytes };
}

type KeyLengths = Uint8Array | Uint16Array | Uint32Array;
type Numbers = Int32Array | Float64Array;

/** Where the walk through the columns stands: keys passed, key text used (in the reader's units), numbers used. */
interface ColumnCursor {
  key: number;
  offset: number;
  number: number;
}

/** Reads one state at the cursor into `states`; returns how much key text it used. */
type StateReader = (states: KeyGroupSnapshot['states'], state: PackedState, at: Readonly<ColumnCursor>) => number;

/** Walks the key groups' states in column order, checking each against the columns, and the whole at the end. */
function walkKeyGroups(packed: PackedKeyedState, lengths: KeyLengths, numbers: Numbers, textLength: number, readState: StateReader): KeyGroupSnapshot[] {
  const at: ColumnCursor = { key: 0, offset: 0, number: 0 };
  const keyGroups: KeyGroupSnapshot[] = packed.groups.map((group) => {
    const states: KeyGroupSnapshot['states'] = {};
    for (const state of group.states) {
      checkKeyCount(group.keyGroup, at.key + state.count, lengths);
      const numbersUsed = state.values ? 0 : state.count;
      checkValues(group.keyGroup, state, at.number + numbersUsed, numbers);
      at.offset += readState(states, state, at);
      at.key += state.count;
      at.number += numbersUsed;
    }
    return { keyGroup: group.keyGroup, states };
  });
  checkWhole(at.key, at.offset, at.number, lengths, textLength, numbers);
  return keyGroups;
}

function decodedKeyGroups(packed: PackedKeyedState, lengths: KeyLengths, numbers: Numbers): KeyGroupSnapshot[] {
  const text = decoder.decode(packed.keyText);
  return walkKeyGroups(packed, lengths, numbers, text.length, (states, state, at) => {
    const entries = new Array<[string, StateValue]>(state.count);
    let offset = at.offset;
    for (let i = 0; i < state.count; i++) {
      const end = offset + lengths[at.key + i]!;
      entries[i] = [text.substring(offset, end), state.values ? state.values[i]! : numbers[at.number + i]!];
      offset = end;
    }
    states[state.name] = entries;
    return offset - at.offset;
  });
}

/** The key groups with their states left encoded: views onto the columns, checked against them but not decoded. */
function encodedKeyGroups(packed: PackedKeyedState, lengths: KeyLengths, numbers: Numbers): KeyGroupSnapshot[] {
  return walkKeyGroups(packed, lengths, numbers, packed.keyText.byteLength, (states, state, at) => {
    const keyLengths = lengths.subarray(at.key, at.key + state.count);
    const textBytes = state.units ?? sumOf(keyLengths);
    const values = state.values ? { values: state.values } : { numbers: numbers.subarray(at.number, at.number + state.count) };
    const keyText = packed.keyText.subarray(at.offset, at.offset + textBytes);
    defineEncodedState(states, state.name, { count: state.count, keyText, keyLengths, ...values, sizeBytes: encodedSizeBytes(keyLengths, textBytes, state.values) });
    return textBytes;
  });
}

/** What the entries count for in state-size.ts, from their keys' lengths and values. */
function encodedSizeBytes(keyLengths: KeyLengths, textBytes: number, values: readonly StateValue[] | undefined): number {
  if (!values) return keyLengths.length * entrySizeBytesOfKeyLength(0, 0) + textBytes;
  let bytes = 0;
  for (let i = 0; i < values.length; i++) bytes += entrySizeBytesOfKeyLength(keyLengths[i]!, values[i]!);
  return bytes;
}

function checkKeyCount(keyGroup: number, keysNamed: number, lengths: KeyLengths): void {
  if (keysNamed > lengths.length) throw new Error(`key-group columns: key group ${keyGroup} names more keys than the columns hold`);
}

function checkValues(keyGroup: number, state: PackedState, numbersUsed: number, numbers: Numbers): void {
  if (numbersUsed > numbers.length || (state.values && state.values.length !== state.count)) throw new Error(`key-group columns: the values of state ${state.name} in key group ${keyGroup} do not match its keys`);
}

function checkWhole(keys: number, textUsed: number, numbersUsed: number, lengths: KeyLengths, textLength: number, numbers: Numbers): void {
  if (keys !== lengths.length || textUsed !== textLength || numbersUsed !== numbers.length) throw new Error('key-group columns: the columns hold more than the key groups name');
}

function sumOf(values: KeyLengths): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum;
}

/**
 * Whether every key is ASCII: from the states' units when they all carry them (they then add up to
 * the text's bytes), else by scanning the text. Where they add up but a byte is not ASCII (the
 * bytes were damaged after writing), keys read wrong, as any damaged key text does; local copies
 * are checked against their digest before this.
 */
function isAsciiText(packed: PackedKeyedState): boolean {
  let units = 0;
  for (const group of packed.groups) {
    for (const state of group.states) {
      if (typeof state.units !== 'number') return isAscii(packed.keyText);
      units += state.units;
    }
  }
  return units === packed.keyText.byteLength;
}

/** Whether every byte is ASCII (below 0x80): then a key's UTF-16 length is its length in bytes. Four bytes at a time. */
function isAscii(bytes: Uint8Array): boolean {
  const head = Math.min(bytes.byteLength, (4 - (bytes.byteOffset % 4)) % 4);
  const words = Math.floor((bytes.byteLength - head) / 4);
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset + head, words);
  let high = 0;
  for (let i = 0; i < head; i++) high |= bytes[i]!;
  for (let i = 0; i < words; i++) high |= view[i]!;
  for (let i = head + words * 4; i < bytes.byteLength; i++) high |= bytes[i]!;
  return (high & 0x80808080) === 0;
}

/** A typed array's constructor, as far as viewing bytes needs it. */
interface NumberArrayType<T> {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** A typed array over bytes (copied when they are not aligned to its element size). */
function typedView<T>(bytes: Uint8Array, Type: NumberArrayType<T>): T {
  const size = Type.BYTES_PER_ELEMENT;
  if (bytes.byteLength % size !== 0) throw new Error(`key-group columns: ${bytes.byteLength} bytes are not a whole number of ${size}-byte values`);
  const aligned = bytes.byteOffset % size === 0 ? bytes : bytes.slice();
  return new Type(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength / size);
}
