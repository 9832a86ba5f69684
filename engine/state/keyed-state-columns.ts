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

/** One state of one key group: how many entries, and its values when they are not all numbers. */
interface PackedState {
  name: string;
  count: number;
  values?: StateValue[];
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
  const keys: string[] = [];
  const numbers: number[] = [];
  const groups: PackedKeyedState['groups'] = [];
  for (let g = 0; g < keyGroups.length; g++) {
    const group = keyGroups[g];
    if (!hasExactly(group, GROUP_KEYS) || typeof group.keyGroup !== 'number' || !hasPlainPrototype(group.states)) return undefined;
    const states: PackedState[] = [];
    for (const name of Object.keys(group.states)) {
      const state = name === '__proto__' ? undefined : packState(name, (group.states as Record<string, unknown>)[name], keys, numbers);
      if (!state) return undefined;
      states.push(state);
    }
    groups.push({ keyGroup: group.keyGroup, states });
  }
  const keyText = keys.join('');
  if (LONE_SURROGATE.test(keyText)) return undefined;
  let longest = 0;
  for (const k of keys) if (k.length > longest) longest = k.length;
  const keyLengthBytes = longest < 0x100 ? 1 : longest < 0x10000 ? 2 : 4;
  const lengths = new (keyLengthBytes === 1 ? Uint8Array : keyLengthBytes === 2 ? Uint16Array : Uint32Array)(keys.length);
  for (let i = 0; i < keys.length; i++) lengths[i] = keys[i]!.length;
  // -0 is not an integer here: Int32Array would write it as 0
  const int32 = numbers.every((n) => (n | 0) === n && !Object.is(n, -0));
  return {
    format: 'key-group-columns-v1',
    keyGroupRange: { start: keyGroupRange.start, end: keyGroupRange.end },
    sizeBytes,
    groups,
    keyText: encoder.encode(keyText),
    keyLengths: new Uint8Array(lengths.buffer),
    keyLengthBytes,
    numbers: new Uint8Array((int32 ? Int32Array.from(numbers) : Float64Array.from(numbers)).buffer),
    numberBytes: int32 ? 4 : 8,
  };
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
function packState(name: string, entries: unknown, keys: string[], numbers: number[]): PackedState | undefined {
  if (!Array.isArray(entries)) return undefined;
  let numeric = true;
  for (let i = 0; i < entries.length; i++) {
    const e: unknown = entries[i];
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string') return undefined;
    if (typeof e[1] !== 'number') numeric = false;
  }
  for (const e of entries as Array<[string, StateValue]>) keys.push(e[0]);
  if (!numeric) return { name, count: entries.length, values: (entries as Array<[string, StateValue]>).map((e) => e[1]) };
  for (const e of entries as Array<[string, number]>) numbers.push(e[1]);
  return { name, count: entries.length };
}

/** The snapshot the columns were packed from, equal to it. Throws when the columns do not add up. */
export function unpackKeyedState(packed: PackedKeyedState): KeyedStateSnapshot {
  const text = decoder.decode(packed.keyText);
  const lengths = typedView(packed.keyLengths, packed.keyLengthBytes === 1 ? Uint8Array : packed.keyLengthBytes === 2 ? Uint16Array : Uint32Array);
  const numbers = typedView(packed.numbers, packed.numberBytes === 4 ? Int32Array : Float64Array);
  let key = 0;
  let offset = 0;
  let number = 0;
  const keyGroups: KeyGroupSnapshot[] = packed.groups.map((group) => {
    const states: KeyGroupSnapshot['states'] = {};
    for (const state of group.states) {
      if (key + state.count > lengths.length) throw new Error(`key-group columns: key group ${group.keyGroup} names more keys than the columns hold`);
      const entries = new Array<[string, StateValue]>(state.count);
      for (let i = 0; i < state.count; i++, key++) {
        const end = offset + lengths[key]!;
        entries[i] = [text.substring(offset, end), state.values ? state.values[i]! : numbers[number++]!];
        offset = end;
      }
      if (number > numbers.length || (state.values && state.values.length !== state.count)) throw new Error(`key-group columns: the values of state ${state.name} in key group ${group.keyGroup} do not match its keys`);
      states[state.name] = entries;
    }
    return { keyGroup: group.keyGroup, states };
  });
  if (key !== lengths.length || offset !== text.length || number !== numbers.length) throw new Error('key-group columns: the columns hold more than the key groups name');
  return { keyGroupRange: { ...packed.keyGroupRange }, keyGroups, sizeBytes: packed.sizeBytes };
}

/** A typed array's constructor, as far as viewing bytes needs it. */
interface NumberArrayType {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): ArrayLike<number>;
  readonly BYTES_PER_ELEMENT: number;
}

/** A typed array over bytes (copied when they are not aligned to its element size). */
function typedView(bytes: Uint8Array, Type: NumberArrayType): ArrayLike<number> {
  const size = Type.BYTES_PER_ELEMENT;
  if (bytes.byteLength % size !== 0) throw new Error(`key-group columns: ${bytes.byteLength} bytes are not a whole number of ${size}-byte values`);
  const aligned = bytes.byteOffset % size === 0 ? bytes : bytes.slice();
  return new Type(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength / size);
}
