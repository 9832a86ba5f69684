import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import type { KeyedStateSnapshot, StateValue } from '../../engine/state/keyed-state-backend.ts';
import { isPackedKeyedState, packKeyedState, unpackKeyedState } from '../../engine/state/keyed-state-columns.ts';
import { SnapshotCodecError, decodeTaskStateSnapshot, decodeValue, encodeTaskStateSnapshot, encodeValue } from '../../engine/storage/snapshot-codec.ts';

const stateValue: fc.Arbitrary<StateValue> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, NaN, Infinity, 2 ** 31, -(2 ** 31)),
  fc.string(),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.record({ sum: fc.integer(), count: fc.nat() }).map((v) => ({ ...v })),
);

/** Keys of any UTF-16 units, lone surrogates included (fast-check's 'binary' units). */
const key = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ minLength: 256, maxLength: 300 }));

const entries = (value: fc.Arbitrary<StateValue>) => fc.uniqueArray(fc.tuple(key, value), { selector: (e) => e[0], maxLength: 20 }).map((list) => list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));

/** A snapshot as backends write them: key groups ascending, each state's entries sorted by key; some states all numbers, some not. */
const snapshot: fc.Arbitrary<KeyedStateSnapshot> = fc
  .uniqueArray(
    fc.record({
      keyGroup: fc.nat({ max: 127 }),
      states: fc.dictionary(fc.constantFrom('count', 'window', '_timer_service', 'sum'), fc.oneof(entries(fc.integer()), entries(fc.double()), entries(stateValue))),
    }),
    { selector: (g) => g.keyGroup, maxLength: 6 },
  )
  // plain objects, as backends build them (fast-check's records have no prototype)
  .map((groups) => ({ keyGroupRange: { start: 0, end: 127 }, keyGroups: groups.map((g) => ({ keyGroup: g.keyGroup, states: { ...g.states } })).sort((a, b) => a.keyGroup - b.keyGroup), sizeBytes: 4242 }));

/** Bytes as the codec wrote them before the columns: the header, then the tree as plain JSON. */
function writtenAsTree(value: unknown): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(value));
  const bytes = new Uint8Array(8 + json.byteLength);
  bytes.set([0x43, 0x50, 0x47, 0x31]);
  new DataView(bytes.buffer).setUint32(4, json.byteLength, true);
  bytes.set(json, 8);
  return bytes;
}

/** A task snapshot's bytes whose keyed state is the given columns (tagged as the codec tags them), for damaged ones. */
function taskSnapshotWithColumns(columns: object): Uint8Array {
  const inner = encodeValue(columns);
  const jsonLength = new DataView(inner.buffer).getUint32(4, true);
  const tree: unknown = JSON.parse(new TextDecoder().decode(inner.subarray(8, 8 + jsonLength)));
  const doc = { format: 'task-state-snapshot', version: 1, body: { ...taskSnapshot(null), keyedState: { '#': 'kc', v: tree } } };
  const json = new TextEncoder().encode(JSON.stringify(doc));
  const blobs = inner.subarray(8 + jsonLength);
  const bytes = new Uint8Array(8 + json.byteLength + blobs.byteLength);
  bytes.set(inner.subarray(0, 4));
  new DataView(bytes.buffer).setUint32(4, json.byteLength, true);
  bytes.set(json, 8);
  bytes.set(blobs, 8 + json.byteLength);
  return bytes;
}

function taskSnapshot(keyedState: unknown): TaskStateSnapshot {
  return { subtask: { vertexId: 'count', subtaskIndex: 1 }, keyedState, stateSize: 4242, checkpointedSize: 4242 };
}

describe('key-group columns (the stored form of a full keyed snapshot)', () => {
  it('a task snapshot written as columns reads back equal to the snapshot taken, whatever its keys and values', () => {
    fc.assert(
      fc.property(snapshot, (keyed) => {
        const back = decodeTaskStateSnapshot(encodeTaskStateSnapshot(taskSnapshot(keyed)));
        expect(back.keyedState).toStrictEqual(keyed);
      }),
      { seed: 13, numRuns: 300 },
    );
  });

  it('writes keys as UTF-8 text and counts as 32-bit integers, so a count state is smaller than its JSON tree', () => {
    const pairs = Array.from({ length: 10_000 }, (_, i): [string, StateValue] => [`key-${String(i).padStart(6, '0')}`, i % 1000]);
    const keyed: KeyedStateSnapshot = { keyGroupRange: { start: 0, end: 0 }, keyGroups: [{ keyGroup: 0, states: { count: pairs } }], sizeBytes: 0 };
    const packed = packKeyedState(keyed)!;
    expect(packed.keyLengthBytes).toBe(1);
    expect(packed.numberBytes).toBe(4);
    expect(packed.keyText.byteLength).toBe(10_000 * 10);
    expect(encodeTaskStateSnapshot(taskSnapshot(keyed)).byteLength).toBeLessThan(writtenAsTree({ format: 'task-state-snapshot', version: 1, body: taskSnapshot(keyed) }).byteLength * 0.8);
  });

  it('keeps a snapshot whose keys hold a lone surrogate as a tree, which UTF-8 could not carry', () => {
    const keyed: KeyedStateSnapshot = { keyGroupRange: { start: 0, end: 0 }, keyGroups: [{ keyGroup: 0, states: { count: [['a\ud800', 1]] } }], sizeBytes: 0 };
    expect(packKeyedState(keyed)).toBeUndefined();
    expect(decodeTaskStateSnapshot(encodeTaskStateSnapshot(taskSnapshot(keyed))).keyedState).toStrictEqual(keyed);
  });

  it('reads a task snapshot written before the columns (keyed state as a tree)', () => {
    const keyed: KeyedStateSnapshot = { keyGroupRange: { start: 0, end: 3 }, keyGroups: [{ keyGroup: 2, states: { count: [['a', 1], ['b', 2]] } }], sizeBytes: 20 };
    const old = writtenAsTree({ format: 'task-state-snapshot', version: 1, body: taskSnapshot(keyed) });
    expect(decodeTaskStateSnapshot(old).keyedState).toStrictEqual(keyed);
  });

  it('writes keyed snapshots as columns wherever they sit (a restore for a TaskManager), and anything merely shaped like one as it is', () => {
    const keyed: KeyedStateSnapshot = { keyGroupRange: { start: 0, end: 3 }, keyGroups: [{ keyGroup: 2, states: { count: [['a', 1], ['b', 2]] } }], sizeBytes: 20 };
    const restore = { checkpointId: 4, keyedState: [keyed, { ...keyed, keyGroups: [] }], pendingTransactions: [] };
    expect(decodeValue(encodeValue(restore))).toStrictEqual(restore);
    expect(new TextDecoder().decode(encodeValue(restore))).toContain('"#":"kc"');
    const lookalikes = [
      { ...keyed, note: 'one property more' },
      { ...keyed, keyGroups: [{ keyGroup: 2, states: { count: [['a', 1, 'extra']] } }] },
      { ...keyed, keyGroups: [{ keyGroup: 2, states: { count: [[7, 1]] } }] },
      { ...keyed, keyGroups: [{ keyGroup: '2', states: {} }] },
      { ...keyed, keyGroupRange: { start: 0, end: 3, step: 1 } },
    ];
    for (const value of lookalikes) {
      expect(packKeyedState(value)).toBeUndefined();
      expect(decodeValue(encodeValue(value))).toStrictEqual(value);
    }
  });

  it('reads back equal from views onto a buffer at any byte offset (a state file just read), whatever its keys and values', () => {
    fc.assert(
      fc.property(snapshot, fc.nat({ max: 7 }), (keyed, offset) => {
        const encoded = encodeTaskStateSnapshot(taskSnapshot(keyed));
        const file = new Uint8Array(encoded.byteLength + 8);
        file.set(encoded, offset);
        expect(decodeTaskStateSnapshot(file.subarray(offset, offset + encoded.byteLength), { views: true }).keyedState).toStrictEqual(keyed);
      }),
      { seed: 17, numRuns: 200 },
    );
  });

  it("writes each state's keys' UTF-16 units, which add up to the key text's bytes exactly when every key is ASCII", () => {
    const ascii: KeyedStateSnapshot = { keyGroupRange: { start: 0, end: 3 }, keyGroups: [{ keyGroup: 1, states: { count: [['ab', 1], ['c', 2]], sum: [['d', 3]] } }, { keyGroup: 2, states: { count: [['efg', 4]] } }], sizeBytes: 20 };
    const packed = packKeyedState(ascii)!;
    expect(packed.groups.map((g) => g.states.map((s) => s.units))).toStrictEqual([[3, 1], [3]]);
    expect(packed.keyText.byteLength).toBe(7);
    const accented: KeyedStateSnapshot = { ...ascii, keyGroups: [{ keyGroup: 1, states: { count: [['ü', 1], ['😀', 2]] } }] };
    const packedAccented = packKeyedState(accented)!;
    expect(packedAccented.groups[0]!.states[0]!.units).toBe(3);
    expect(packedAccented.keyText.byteLength).toBe(6);
    expect(decodeTaskStateSnapshot(encodeTaskStateSnapshot(taskSnapshot(accented)), { views: true }).keyedState).toStrictEqual(accented);
  });

  it('reads columns written before states carried their units, from views at any byte offset', () => {
    const keys = ['a', 'bb', 'key-000001', 'ü-not-ascii'];
    for (const ascii of [true, false]) {
      const keyed: KeyedStateSnapshot = { keyGroupRange: { start: 0, end: 3 }, keyGroups: [{ keyGroup: 2, states: { count: keys.filter((k) => !ascii || k.charCodeAt(0) < 0x80).filter((k) => ascii || k !== 'a').map((k, i): [string, StateValue] => [k, i]) } }], sizeBytes: 20 };
      const packed = packKeyedState(keyed)!;
      const older = { ...packed, groups: packed.groups.map((g) => ({ ...g, states: g.states.map(({ units: _, ...state }) => state) })) };
      const encoded = taskSnapshotWithColumns(older);
      for (let offset = 0; offset < 8; offset++) {
        const file = new Uint8Array(encoded.byteLength + 8);
        file.set(encoded, offset);
        expect(decodeTaskStateSnapshot(file.subarray(offset, offset + encoded.byteLength), { views: true }).keyedState).toStrictEqual(keyed);
      }
    }
  });

  it('refuses columns that do not add up with a codec error naming the key group, not a wrong state', () => {
    const keyed: KeyedStateSnapshot = { keyGroupRange: { start: 0, end: 3 }, keyGroups: [{ keyGroup: 2, states: { count: [['a', 1], ['b', 2]] } }], sizeBytes: 20 };
    const packed = packKeyedState(keyed)!;
    const short = { ...packed, keyLengths: packed.keyLengths.subarray(0, 1) };
    expect(() => unpackKeyedState(short)).toThrow(/key group 2 names more keys/);
    expect(decodeTaskStateSnapshot(taskSnapshotWithColumns(packed)).keyedState).toStrictEqual(keyed);
    expect(() => decodeTaskStateSnapshot(taskSnapshotWithColumns({ ...packed, numbers: new Uint8Array(12) }))).toThrow(SnapshotCodecError);
    expect(() => decodeTaskStateSnapshot(taskSnapshotWithColumns({ ...packed, numbers: new Uint8Array(12) }))).toThrow(/corrupt keyed state at \$\.body\.keyedState/);
    expect(isPackedKeyedState(packed)).toBe(true);
  });
});
