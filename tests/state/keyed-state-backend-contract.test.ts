import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyedStateBackend, KeyedStateSnapshot, StateValue } from '../../engine/state/keyed-state-backend.ts';
import { entrySizeBytes } from '../../engine/state/state-size.ts';
import { backendFactories, WaSqliteDatabase } from './state-backend-factories.ts';

/**
 * The KeyedStateBackend contract, run against every implementation: the heap backend (the
 * reference) and the `rocksdb` LSM backend in several configurations.
 */
let db: WaSqliteDatabase;
beforeAll(async () => {
  db = await WaSqliteDatabase.open();
});
afterAll(async () => {
  await db.close();
});

const RANGE = { start: 0, end: 31 };

/** key → value per state per key group, filled the way the test fills the backend */
type Model = Map<string, Map<number, Map<string, StateValue>>>;

function fill(backend: KeyedStateBackend, n: number, state = 'count'): Model {
  const model: Model = new Map();
  for (let i = 0; i < n; i++) {
    const kg = (i * 7) % 32;
    const key = `key-${i}`;
    backend.put(state, kg, key, i);
    set(model, state, kg, key, i);
  }
  return model;
}

function set(model: Model, state: string, kg: number, key: string, value: StateValue | undefined): void {
  let groups = model.get(state);
  if (!groups) model.set(state, (groups = new Map()));
  let group = groups.get(kg);
  if (!group) groups.set(kg, (group = new Map()));
  if (value === undefined) group.delete(key);
  else group.set(key, value);
}

function entriesOf(backend: KeyedStateBackend, state: string): Array<[number, string, StateValue]> {
  const out: Array<[number, string, StateValue]> = [];
  backend.forEachEntry(state, (kg, key, value) => out.push([kg, key, value]));
  return out.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

function modelEntries(model: Model, state: string): Array<[number, string, StateValue]> {
  const out: Array<[number, string, StateValue]> = [];
  for (const [kg, group] of model.get(state) ?? []) for (const [key, value] of group) out.push([kg, key, value]);
  return out.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

function modelSize(model: Model): { entries: number; bytes: number } {
  let entries = 0;
  let bytes = 0;
  for (const groups of model.values()) {
    for (const group of groups.values()) {
      for (const [key, value] of group) {
        entries++;
        bytes += entrySizeBytes(key, value);
      }
    }
  }
  return { entries, bytes };
}

describe.each(backendFactories(() => db))('KeyedStateBackend contract: $name', ({ create }) => {
  it('returns undefined for a state or key that was never written', () => {
    const b = create(RANGE);
    expect(b.get('count', 3, 'nope')).toBeUndefined();
    b.put('count', 3, 'a', 1);
    expect(b.get('count', 3, 'nope')).toBeUndefined();
    expect(b.get('other', 3, 'a')).toBeUndefined();
    expect(b.get('count', 4, 'a')).toBeUndefined();
  });

  it('returns the last value put for a key, across flushes', () => {
    const b = create(RANGE);
    for (let round = 0; round < 5; round++) fill(b, 300);
    b.put('count', 7, 'key-1', { sum: 3, items: [1, 'x', true] });
    expect(b.get('count', 7, 'key-1')).toEqual({ sum: 3, items: [1, 'x', true] });
    expect(b.get('count', (299 * 7) % 32, 'key-299')).toBe(299);
  });

  it('forgets deleted keys and ignores deleting a key that is not there', () => {
    const b = create(RANGE);
    const model = fill(b, 400);
    for (let i = 0; i < 400; i += 3) {
      b.delete('count', (i * 7) % 32, `key-${i}`);
      set(model, 'count', (i * 7) % 32, `key-${i}`, undefined);
    }
    b.delete('count', 1, 'never-written');
    b.delete('never-declared', 1, 'x');
    expect(b.get('count', 0, 'key-0')).toBeUndefined();
    expect(b.get('count', 7, 'key-1')).toBe(1);
    expect(entriesOf(b, 'count')).toEqual(modelEntries(model, 'count'));
    expect(b.entryCount()).toBe(modelSize(model).entries);
  });

  it('keeps states, key groups and keys apart', () => {
    const b = create(RANGE);
    b.put('count', 1, 'k', 1);
    b.put('count', 2, 'k', 2);
    b.put('window', 1, 'k', 3);
    b.put('_timer_service', 1, '100\u0000k', 100);
    expect([b.get('count', 1, 'k'), b.get('count', 2, 'k'), b.get('window', 1, 'k')]).toEqual([1, 2, 3]);
    b.delete('count', 1, 'k');
    expect([b.get('count', 1, 'k'), b.get('count', 2, 'k'), b.get('window', 1, 'k')]).toEqual([undefined, 2, 3]);
    expect(b.get('_timer_service', 1, '100\u0000k')).toBe(100);
  });

  it('visits every live entry of one state, and only of that state', () => {
    const b = create(RANGE);
    const model = fill(b, 500, 'count');
    const timers = fill(b, 200, '_timer_service');
    for (let i = 0; i < 500; i += 5) {
      b.put('count', (i * 7) % 32, `key-${i}`, -i);
      set(model, 'count', (i * 7) % 32, `key-${i}`, -i);
    }
    expect(entriesOf(b, 'count')).toEqual(modelEntries(model, 'count'));
    expect(entriesOf(b, '_timer_service')).toEqual(modelEntries(timers, '_timer_service'));
    expect(entriesOf(b, 'unknown')).toEqual([]);
  });

  it('tolerates a visitor that deletes the entry it is visiting', () => {
    const b = create(RANGE);
    fill(b, 300);
    let visited = 0;
    b.forEachEntry('count', (kg, key) => {
      visited++;
      b.delete('count', kg, key);
    });
    expect(visited).toBe(300);
    expect(entriesOf(b, 'count')).toEqual([]);
    expect(b.entryCount()).toBe(0);
  });

  it('counts entries and bytes with the shared size estimate', () => {
    const b = create(RANGE);
    const model = fill(b, 300);
    for (let i = 0; i < 300; i += 2) {
      const value = { n: i, s: 'x'.repeat(i % 13) };
      b.put('count', (i * 7) % 32, `key-${i}`, value);
      set(model, 'count', (i * 7) % 32, `key-${i}`, value);
    }
    for (let i = 0; i < 300; i += 7) {
      b.delete('count', (i * 7) % 32, `key-${i}`);
      set(model, 'count', (i * 7) % 32, `key-${i}`, undefined);
    }
    expect(b.entryCount()).toBe(modelSize(model).entries);
    expect(b.stateSizeBytes()).toBe(modelSize(model).bytes);
    expect(b.snapshot().sizeBytes).toBe(modelSize(model).bytes);
  });

  it('takes snapshots that later writes do not change', () => {
    const b = create(RANGE);
    fill(b, 300);
    const snap = b.snapshot();
    const copy = structuredClone(snap);
    for (let i = 0; i < 300; i++) b.put('count', (i * 7) % 32, `key-${i}`, -1);
    for (let i = 0; i < 300; i += 2) b.delete('count', (i * 7) % 32, `key-${i}`);
    expect(snap).toEqual(copy);
  });

  it('writes snapshots with key groups in order and keys sorted within each', () => {
    const b = create(RANGE);
    fill(b, 300);
    fill(b, 50, 'window');
    const snap = b.snapshot();
    expect(snap.keyGroupRange).toEqual(RANGE);
    const groups = snap.keyGroups.map((g) => g.keyGroup);
    expect(groups).toEqual([...groups].sort((x, y) => x - y));
    for (const g of snap.keyGroups) {
      for (const entries of Object.values(g.states)) {
        const keys = entries.map(([k]) => k);
        expect(keys).toEqual([...keys].sort());
        expect(entries.length).toBeGreaterThan(0);
      }
    }
  });

  it('restores a snapshot into a fresh backend', () => {
    const b = create(RANGE);
    const model = fill(b, 600);
    fill(b, 40, '_timer_service');
    const restored = create(RANGE);
    restored.restore([b.snapshot()]);
    expect(entriesOf(restored, 'count')).toEqual(modelEntries(model, 'count'));
    expect(restored.snapshot()).toEqual(b.snapshot());
    expect(restored.entryCount()).toBe(b.entryCount());
    expect(restored.stateSizeBytes()).toBe(b.stateSizeBytes());
    restored.put('count', 0, 'after-restore', 1);
    expect(restored.get('count', 0, 'after-restore')).toBe(1);
  });

  it('restores only the key groups of a narrower range when scaling out', () => {
    const b = create(RANGE);
    const model = fill(b, 600);
    const snap = b.snapshot();
    const left = create({ start: 0, end: 15 });
    const right = create({ start: 16, end: 31 });
    left.restore([snap]);
    right.restore([snap]);
    const inRange = (lo: number, hi: number) => modelEntries(model, 'count').filter(([kg]) => kg >= lo && kg <= hi);
    expect(entriesOf(left, 'count')).toEqual(inRange(0, 15));
    expect(entriesOf(right, 'count')).toEqual(inRange(16, 31));
    expect(left.snapshot().keyGroups.every((g) => g.keyGroup <= 15)).toBe(true);
    expect(left.entryCount() + right.entryCount()).toBe(b.entryCount());
  });

  it('merges the snapshots of two subtasks when scaling in', () => {
    const left = create({ start: 0, end: 15 });
    const right = create({ start: 16, end: 31 });
    const whole = create(RANGE);
    for (let i = 0; i < 400; i++) {
      const kg = (i * 7) % 32;
      (kg <= 15 ? left : right).put('count', kg, `key-${i}`, i);
      whole.put('count', kg, `key-${i}`, i);
    }
    const merged = create(RANGE);
    merged.restore([left.snapshot(), right.snapshot()]);
    expect(merged.snapshot()).toEqual(whole.snapshot());
  });

  it('restores into a backend that already holds state by overwriting key by key', () => {
    const b = create(RANGE);
    fill(b, 100);
    const other = create(RANGE);
    other.put('count', 0, 'key-0', 'mine');
    other.put('count', 0, 'only-mine', 1);
    other.restore([b.snapshot()]);
    expect(other.get('count', 0, 'key-0')).toBe(0);
    expect(other.get('count', 0, 'only-mine')).toBe(1);
    expect(other.entryCount()).toBe(101);
  });

  it('round-trips values JSON cannot carry and keys with odd characters', () => {
    const b = create(RANGE);
    const values: Array<[string, StateValue]> = [
      ['nan', Number.NaN],
      ['inf', Number.POSITIVE_INFINITY],
      ['-inf', Number.NEGATIVE_INFINITY],
      ['-0', -0],
      ['nested', { a: [Number.NaN, -0, { b: Number.NEGATIVE_INFINITY }], '\u0001n': 'NaN' }],
      ['lookalike', { '\u0001n': 'Infinity' }],
      ['wrapped', { '\u0001o': { x: 1 } }],
      ['', 'empty key'],
      ['\u0000leading nul', 1],
      ['ключ 🔑', 'unicode'],
      ['lone \ud800 surrogate', 'ok'],
    ];
    const check = (backend: KeyedStateBackend) => {
      for (const [key, value] of values) expect(backend.get('odd', 5, key), key).toEqual(value);
    };
    for (const [key, value] of values) b.put('odd', 5, key, value);
    fill(b, 300); // flushes the odd values into runs in the rocksdb backends
    check(b);
    const restored = create(RANGE);
    restored.restore([b.snapshot()]);
    check(restored);
    const snap: KeyedStateSnapshot = restored.snapshot();
    expect(snap.keyGroups.find((g) => g.keyGroup === 5)?.states.odd?.map(([k]) => k)).toEqual(
      values.map(([k]) => k).sort(),
    );
  });
});
