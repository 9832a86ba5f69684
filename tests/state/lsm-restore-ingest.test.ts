import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import type { KeyedStateBackend, KeyedStateSnapshot } from '../../engine/state/keyed-state-backend.ts';
import type { KeyGroupRange } from '../../engine/state/key-group-range.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import type { LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { TINY_LSM, waSqliteForThisFile } from './state-backend-factories.ts';

const RANGE = { start: 0, end: 127 };
const db = waSqliteForThisFile();

function lsm(range: KeyGroupRange = RANGE, options: Partial<LsmOptions> = {}): LsmKeyedStateBackend {
  return new LsmKeyedStateBackend(range, db.store(), { ...TINY_LSM, ...options });
}

const keyOf = (i: number) => `user-${String(i).padStart(5, '0')}`;

/** A source backend after puts, overwrites and deletes (flushed and compacted by its tiny sizes). */
function written(ops: ReadonlyArray<{ key: number; value: number; del: boolean }>, states = ['count', 'sum']): LsmKeyedStateBackend {
  const b = lsm();
  for (const { key, value, del } of ops) {
    const state = states[key % states.length]!;
    if (del) b.delete(state, key % 128, keyOf(key));
    else b.put(state, key % 128, keyOf(key), value);
  }
  return b;
}

/** The oracle: a heap backend of `range` that gets every entry of `snapshot` in range by put, one at a time. */
function putOneByOne(snapshot: KeyedStateSnapshot, range: KeyGroupRange): HeapKeyedStateBackend {
  const heap = new HeapKeyedStateBackend(range);
  for (const group of snapshot.keyGroups) {
    if (group.keyGroup < range.start || group.keyGroup > range.end) continue;
    for (const [state, entries] of Object.entries(group.states)) for (const [key, value] of entries) heap.put(state, group.keyGroup, key, value);
  }
  return heap;
}

function expectSameState(restored: KeyedStateBackend, oracle: KeyedStateBackend): void {
  expect(restored.snapshot()).toEqual(oracle.snapshot());
  expect(restored.entryCount()).toBe(oracle.entryCount());
  expect(restored.stateSizeBytes()).toBe(oracle.stateSizeBytes());
}

const operations = fc.array(fc.record({ key: fc.nat({ max: 600 }), value: fc.integer(), del: fc.boolean() }), { minLength: 1, maxLength: 400 });
const splitPoint = fc.integer({ min: 0, max: 126 });

describe('a restore into an empty rocksdb backend adopts runs (RocksDB ingests SST files)', () => {
  it('a restore adopts the snapshot\'s runs without re-putting keys: full snapshot, incremental, and a rescale of either', () => {
    const source = written(Array.from({ length: 3000 }, (_, i) => ({ key: i % 1500, value: i, del: i % 7 === 0 })));
    const full = source.snapshot();
    const incremental = source.snapshotIncremental(1);
    const runs = incremental.newRuns.map((r) => r.contents);
    const restores: Array<[string, LsmKeyedStateBackend, HeapKeyedStateBackend]> = [];
    const whole = lsm();
    whole.restore([full]);
    restores.push(['full', whole, putOneByOne(full, RANGE)]);
    const left = lsm({ start: 0, end: 40 });
    left.restore([full]);
    restores.push(['full, rescaled', left, putOneByOne(full, { start: 0, end: 40 })]);
    const adopted = lsm();
    adopted.restoreIncremental(incremental.privateState, runs);
    restores.push(['incremental', adopted, putOneByOne(full, RANGE)]);
    const right = lsm({ start: 41, end: 127 });
    right.restoreIncremental(incremental.privateState, runs);
    restores.push(['incremental, rescaled', right, putOneByOne(full, { start: 41, end: 127 })]);
    for (const [what, restored, oracle] of restores) {
      const m = restored.metrics();
      expect({ what, keysWritten: m.keysWritten, memtableEntries: m.numEntriesActiveMemTable, flushes: m.flushCount }).toEqual({ what, keysWritten: 0, memtableEntries: 0, flushes: 0 });
      expect(m.liveSstFiles, what).toBeGreaterThan(0);
      expectSameState(restored, oracle);
    }
    // the incremental restore into a backend that covers the range installs the very files
    expect(adopted.runs().map((r) => r.name).sort()).toEqual(incremental.sharedRuns.map((r) => r.name).sort());
  });

  it('state after an adopted restore equals state after a key-by-key restore (full snapshots, any range)', () => {
    fc.assert(
      fc.property(operations, splitPoint, (ops, split) => {
        const full = written(ops).snapshot();
        for (const range of [RANGE, { start: 0, end: split }, { start: split + 1, end: 127 }]) {
          const restored = lsm(range);
          restored.restore([full]);
          expectSameState(restored, putOneByOne(full, range));
        }
      }),
      { seed: 13, numRuns: 40 },
    );
  });

  it('state after an adopted restore equals state after a key-by-key restore (incremental: rescaled in two and merged back)', () => {
    fc.assert(
      fc.property(operations, splitPoint, (ops, split) => {
        const source = written(ops);
        const full = source.snapshot();
        const snap = source.snapshotIncremental(1);
        const runs = snap.newRuns.map((r) => r.contents);
        const halves = [{ start: 0, end: split }, { start: split + 1, end: 127 }].map((range) => {
          const half = lsm(range);
          half.restoreIncremental(snap.privateState, runs);
          expectSameState(half, putOneByOne(full, range));
          return half.snapshotIncremental(2);
        });
        const merged = lsm();
        for (const half of halves) merged.restoreIncremental(half.privateState, half.newRuns.map((r) => r.contents));
        expectSameState(merged, putOneByOne(full, RANGE));
        // a second manifest's key groups never overlap the first's: they are ingested too
        expect(merged.metrics().keysWritten).toBe(0);
      }),
      { seed: 13, numRuns: 40 },
    );
  });

  it('a snapshot whose key group comes twice still restores as puts would (the later write wins)', () => {
    const a: KeyedStateSnapshot = { keyGroupRange: RANGE, keyGroups: [{ keyGroup: 3, states: { count: [['a', 1], ['b', 2]] } }], sizeBytes: 0 };
    const b: KeyedStateSnapshot = { keyGroupRange: RANGE, keyGroups: [{ keyGroup: 3, states: { count: [['b', 20], ['c', 30]] } }], sizeBytes: 0 };
    const restored = lsm();
    restored.restore([a, b]);
    expect([restored.get('count', 3, 'a'), restored.get('count', 3, 'b'), restored.get('count', 3, 'c')]).toEqual([1, 20, 30]);
    expect(restored.entryCount()).toBe(3);
  });
});
