/**
 * One state of one key group still in the columns it was read from (keyed-state-columns.ts): its
 * keys' bytes, their lengths and its values, as views onto the columns, never copied or decoded.
 *
 * A restore of full keyed state that decoded every entry at once spent most of its time there
 * (a million [key, value] pairs a subtask at 100 MB, the same work from a local copy as from
 * remote storage). A key group read from columns is therefore handed over in this form: the heap
 * backend decodes it on its first access, and a snapshot of a key group no one touched writes
 * these bytes back as they came (packKeyedState), without decoding or encoding a key.
 *
 * In a decoded snapshot (unpackKeyedState) such a state is an accessor property of the key group's
 * `states` that decodes on its first read and then holds the entries, so every reader sees the
 * plain snapshot it always saw; `encodedStateOf` gives the encoded form while no one has read it.
 */
import type { StateValue } from './keyed-state-backend.ts';

export interface EncodedKeyGroupState {
  readonly count: number;
  /** its keys one after another, as UTF-8 bytes that are all ASCII (so a key's length in bytes is its length in UTF-16 units) */
  readonly keyText: Uint8Array;
  /** each key's length */
  readonly keyLengths: Uint8Array | Uint16Array | Uint32Array;
  /** its values, when all are numbers */
  readonly numbers?: Int32Array | Float64Array;
  /** its values, when not all are numbers */
  readonly values?: readonly StateValue[];
  /** the entries' size as state-size.ts counts it, so a backend holding them knows its size without decoding */
  readonly sizeBytes: number;
}

const decoder = new TextDecoder();

/** Calls `visit` with every entry, in the snapshot's order (sorted by key). */
export function forEachEncodedEntry(state: EncodedKeyGroupState, visit: (key: string, value: StateValue) => void): void {
  const text = decoder.decode(state.keyText);
  const { keyLengths, numbers, values } = state;
  let offset = 0;
  for (let i = 0; i < state.count; i++) {
    const end = offset + keyLengths[i]!;
    visit(text.substring(offset, end), values ? values[i]! : numbers![i]!);
    offset = end;
  }
}

/** The entries as a snapshot holds them. */
export function decodeEncodedState(state: EncodedKeyGroupState): Array<[string, StateValue]> {
  const entries = new Array<[string, StateValue]>(state.count);
  let i = 0;
  forEachEncodedEntry(state, (key, value) => (entries[i++] = [key, value]));
  return entries;
}

type StatesOfKeyGroup = Record<string, Array<[string, StateValue]>>;

/** a key group's `states` object → its states still unread, by name */
const unread = new WeakMap<StatesOfKeyGroup, Map<string, EncodedKeyGroupState>>();

/**
 * Puts state `name` into a key group's `states` as an enumerable accessor (in the place a plain
 * property would take, so key order and JSON stay the same) that decodes it on the first read or
 * takes what is written to it, and from then on is a plain data property.
 */
export function defineEncodedState(states: StatesOfKeyGroup, name: string, state: EncodedKeyGroupState): void {
  const settle = (entries: Array<[string, StateValue]>) => {
    unread.get(states)?.delete(name);
    Object.defineProperty(states, name, { value: entries, enumerable: true, writable: true, configurable: true });
    return entries;
  };
  Object.defineProperty(states, name, {
    get: () => settle(decodeEncodedState(state)),
    set: settle,
    enumerable: true,
    configurable: true,
  });
  const byName = unread.get(states) ?? unread.set(states, new Map()).get(states)!;
  byName.set(name, state);
}

/** State `name` of a key group's `states` in its encoded form, while no one has read or replaced it. */
export function encodedStateOf(states: StatesOfKeyGroup, name: string): EncodedKeyGroupState | undefined {
  return unread.get(states)?.get(name);
}
