import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import { encodedStateOf } from '../../engine/state/encoded-key-group-state.ts';
import type { KeyedStateSnapshot, StateValue } from '../../engine/state/keyed-state-backend.ts';
import type { KeyGroupRange } from '../../engine/state/key-group-range.ts';
import { decodeValue, encodeValue } from '../../engine/storage/snapshot-codec.ts';

/**
 * The heap backend restored from key-group columns (the form checkpoint storage and local copies
 * hold) keeps each key group encoded until its first access. Differential: it must behave exactly
 * as a backend restored from the same snapshot's plain entries, which decodes nothing lazily.
 */

const RANGE: KeyGroupRange = { start: 0, end: 15 };
const STATES = ['count', 'window', '_timer_service'] as const;

const key = fc.string({ unit: fc.constantFrom(...'abcdefgh-0123456789'), minLength: 1, maxLength: 8 });
const value: fc.Arbitrary<StateValue> = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.string({ maxLength: 4 }), fc.record({ sum: fc.integer(), count: fc.nat() }).map((v) => ({ ...v })));
const numericEntries = fc.uniqueArray(fc.tuple(key, fc.integer()), { selector: (e) => e[0], minLength: 1, maxLength: 12 });
const anyEntries = fc.uniqueArray(fc.tuple(key, value), { selector: (e) => e[0], minLength: 1, maxLength: 12 });

/**
 * What the heap backend writes: non-empty key groups ascending, each state's entries sorted by key,
 * ASCII keys. `declared`: every state is written first in the lowest key group, so every key
 * group lists its states in one order, the writer's (a backend restoring it declares them in that
 * order too); otherwise key groups may list them in orders no one backend writes.
 */
function writtenSnapshot(declared: boolean): fc.Arbitrary<KeyedStateSnapshot> {
  return fc.array(fc.tuple(fc.integer({ min: RANGE.start, max: RANGE.end }), fc.constantFrom(...STATES), fc.oneof(numericEntries, anyEntries)), { maxLength: 12 }).map((parts) => {
    const writer = new HeapKeyedStateBackend(RANGE);
    if (declared) for (const state of STATES) writer.put(state, RANGE.start, 'declared', 0);
    for (const [keyGroup, state, entries] of parts) for (const [k, v] of entries) writer.put(state, keyGroup, k, v);
    return writer.snapshot();
  });
}

const written = writtenSnapshot(false);

type Operation =
  | { op: 'get' | 'delete'; state: string; keyGroup: number; key: string }
  | { op: 'put'; state: string; keyGroup: number; key: string; value: StateValue }
  | { op: 'forEach'; state: string }
  | { op: 'snapshot' };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constantFrom('get' as const, 'delete' as const), state: fc.constantFrom(...STATES), keyGroup: fc.integer({ min: RANGE.start, max: RANGE.end }), key }),
  fc.record({ op: fc.constant('put' as const), state: fc.constantFrom(...STATES), keyGroup: fc.integer({ min: RANGE.start, max: RANGE.end }), key, value }),
  fc.record({ op: fc.constant('forEach' as const), state: fc.constantFrom(...STATES) }),
  fc.constant({ op: 'snapshot' as const }),
);

/** The snapshot as checkpoint storage gives it back: decoded from its bytes, its key groups still encoded. */
function readBack(snapshot: KeyedStateSnapshot): KeyedStateSnapshot {
  return decodeValue(encodeValue(snapshot)) as KeyedStateSnapshot;
}

/** The same snapshot as plain entries (a deep copy, no encoded state in it). */
function plain(snapshot: KeyedStateSnapshot): KeyedStateSnapshot {
  return structuredClone(snapshot);
}

/** Whether a decoded snapshot's states are all still encoded (no one read an entry). */
function untouched(snapshot: KeyedStateSnapshot): boolean {
  return snapshot.keyGroups.every((g) => Object.keys(g.states).every((name) => encodedStateOf(g.states, name) !== undefined));
}

/** Runs one operation, returning what it answered (a snapshot as its bytes). */
function apply(backend: HeapKeyedStateBackend, o: Operation): unknown {
  switch (o.op) {
    case 'get':
      return backend.get(o.state, o.keyGroup, o.key);
    case 'delete':
      backend.delete(o.state, o.keyGroup, o.key);
      return undefined;
    case 'put':
      backend.put(o.state, o.keyGroup, o.key, o.value);
      return undefined;
    case 'forEach': {
      const seen: unknown[] = [];
      backend.forEachEntry(o.state, (keyGroup, k, v) => seen.push([keyGroup, k, v]));
      return seen;
    }
    case 'snapshot':
      return encodeValue(backend.snapshot());
  }
}

describe('heap backend restored from key-group columns', () => {
  it('behaves exactly as a backend restored from plain entries under random operations', () => {
    fc.assert(
      fc.property(written, fc.array(operation, { maxLength: 40 }), (snapshot, operations) => {
        const stored = readBack(snapshot);
        expect(untouched(stored)).toBe(true);
        const lazy = new HeapKeyedStateBackend(RANGE);
        const eager = new HeapKeyedStateBackend(RANGE);
        lazy.restore([stored]);
        eager.restore([plain(snapshot)]);
        for (const o of operations) {
          expect(apply(lazy, o)).toStrictEqual(apply(eager, o));
          expect(lazy.entryCount()).toBe(eager.entryCount());
          expect(lazy.stateSizeBytes()).toBe(eager.stateSizeBytes());
        }
        expect(encodeValue(lazy.snapshot())).toStrictEqual(encodeValue(eager.snapshot()));
      }),
      { seed: 13, numRuns: 300 },
    );
  });

  it('decodes no entry on restore, and counts entries and bytes from the columns', () => {
    fc.assert(
      fc.property(written, (snapshot) => {
        const stored = readBack(snapshot);
        const backend = new HeapKeyedStateBackend(RANGE);
        backend.restore([stored]);
        expect(untouched(stored)).toBe(true);
        const eager = new HeapKeyedStateBackend(RANGE);
        eager.restore([plain(snapshot)]);
        expect(backend.entryCount()).toBe(eager.entryCount());
        expect(backend.stateSizeBytes()).toBe(eager.stateSizeBytes());
      }),
      { seed: 14, numRuns: 200 },
    );
  });

  it('writes a snapshot of key groups never touched since the restore as the bytes it was restored from, without decoding them', () => {
    fc.assert(
      fc.property(writtenSnapshot(true), (snapshot) => {
        const bytes = encodeValue(snapshot);
        const stored = decodeValue(bytes) as KeyedStateSnapshot;
        const backend = new HeapKeyedStateBackend(RANGE);
        backend.restore([stored]);
        const again = backend.snapshot();
        expect(encodeValue(again)).toStrictEqual(bytes);
        expect(untouched(stored)).toBe(true);
        expect(untouched(again)).toBe(true);
      }),
      { seed: 15, numRuns: 200 },
    );
  });

  it('keeps a touched key group out of the encoded form: its snapshot holds the write, the untouched ones stay encoded', () => {
    const writer = new HeapKeyedStateBackend(RANGE);
    for (let i = 0; i < 40; i++) writer.put('count', i % 4, `key-${i}`, i);
    const backend = new HeapKeyedStateBackend(RANGE);
    backend.restore([readBack(writer.snapshot())]);
    backend.put('count', 2, 'key-2', 1000);
    const snapshot = backend.snapshot();
    expect(snapshot.keyGroups.map((g) => encodedStateOf(g.states, 'count') !== undefined)).toEqual([true, true, false, true]);
    expect(readBack(snapshot).keyGroups[2]!.states.count).toContainEqual(['key-2', 1000]);
    // the snapshot's copy-on-write holds: a write after it does not change it
    backend.put('count', 3, 'key-3', -1);
    expect(readBack(snapshot).keyGroups[3]!.states.count).toContainEqual(['key-3', 3]);
  });

  it('restores exactly its own key groups when rescaled to part of the range, leaving the others undecoded', () => {
    fc.assert(
      fc.property(written, fc.integer({ min: RANGE.start, max: RANGE.end }), fc.integer({ min: RANGE.start, max: RANGE.end }), (snapshot, a, b) => {
        const part: KeyGroupRange = { start: Math.min(a, b), end: Math.max(a, b) };
        const stored = readBack(snapshot);
        const lazy = new HeapKeyedStateBackend(part);
        const eager = new HeapKeyedStateBackend(part);
        lazy.restore([stored]);
        eager.restore([plain(snapshot)]);
        for (const state of STATES) expect(apply(lazy, { op: 'forEach', state })).toStrictEqual(apply(eager, { op: 'forEach', state }));
        expect(encodeValue(lazy.snapshot())).toStrictEqual(encodeValue(eager.snapshot()));
        const outside = stored.keyGroups.filter((g) => g.keyGroup < part.start || g.keyGroup > part.end);
        expect(outside.every((g) => Object.keys(g.states).every((name) => encodedStateOf(g.states, name) !== undefined))).toBe(true);
      }),
      { seed: 16, numRuns: 200 },
    );
  });

  it('merges two subtasks’ encoded snapshots when scaled in, as from plain entries', () => {
    fc.assert(
      fc.property(written, written, (first, second) => {
        const lazy = new HeapKeyedStateBackend(RANGE);
        const eager = new HeapKeyedStateBackend(RANGE);
        lazy.restore([readBack(first), readBack(second)]);
        eager.restore([plain(first), plain(second)]);
        for (const state of STATES) expect(apply(lazy, { op: 'forEach', state })).toStrictEqual(apply(eager, { op: 'forEach', state }));
        expect(lazy.entryCount()).toBe(eager.entryCount());
        expect(lazy.stateSizeBytes()).toBe(eager.stateSizeBytes());
        expect(encodeValue(lazy.snapshot())).toStrictEqual(encodeValue(eager.snapshot()));
      }),
      { seed: 17, numRuns: 200 },
    );
  });
});
