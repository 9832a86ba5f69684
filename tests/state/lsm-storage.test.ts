import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock, encodeBlock, blockEntryCount, blockKey, blockKeyGroup, blockValue } from '../../engine/state/lsm/block-codec.ts';
import { TOMBSTONE, type LsmValue } from '../../engine/state/lsm/internal-key.ts';
import type { LsmStorage } from '../../engine/state/lsm/lsm-storage.ts';
import { MemoryRunStore } from '../../engine/state/lsm/memory-run-store.ts';
import { WaSqliteRunStore } from '../../engine/state/lsm/wa-sqlite-run-store.ts';
import { openNodeDatabase } from '../support/wa-sqlite-node.ts';
import { WaSqliteDatabase } from './state-backend-factories.ts';

let db: WaSqliteDatabase;
beforeAll(async () => {
  db = await WaSqliteDatabase.open();
});
afterAll(async () => {
  await db.close();
});

const stores: Array<{ name: string; create: () => LsmStorage }> = [
  { name: 'wa-sqlite, one table', create: () => db.store('shared-table') },
  { name: 'wa-sqlite, table per run', create: () => db.store('table-per-run') },
  { name: 'memory', create: () => new MemoryRunStore() },
];

describe.each(stores)('LsmStorage contract: $name', ({ create }) => {
  it('reads back the blocks of a run, by number and in order', () => {
    const s = create();
    s.beginBatch();
    s.createRun(7);
    const blocks = ['J[0,"a",1]', 'J[1,"ключ",2]', 'E[2,"x",{"\\u0001n":"NaN"}]'];
    blocks.forEach((b, i) => expect(s.writeBlock(7, i, b)).toBeGreaterThanOrEqual(b.length));
    s.commitBatch();
    expect(s.readBlock(7, 1)).toBe(blocks[1]);
    const cursor = s.openCursor(7);
    const seen: string[] = [];
    for (let b = cursor.next(); b !== undefined; b = cursor.next()) seen.push(b);
    cursor.close();
    expect(seen).toEqual(blocks);
  });

  it('keeps runs apart and deletes one without touching the others', () => {
    const s = create();
    for (const run of [1, 2, 3]) {
      s.createRun(run);
      s.writeBlock(run, 0, `J[${run}]`);
    }
    expect(s.listRuns()).toEqual([1, 2, 3]);
    s.deleteRun(2);
    expect(s.listRuns()).toEqual([1, 3]);
    expect(s.readBlock(3, 0)).toBe('J[3]');
    expect(() => s.readBlock(2, 0)).toThrow();
    expect(() => s.readBlock(3, 1)).toThrow();
  });

  it('serves several cursors at once, while another run is written (a compaction does that)', () => {
    const s = create();
    for (const run of [10, 11]) {
      s.createRun(run);
      for (let b = 0; b < 5; b++) s.writeBlock(run, b, `J[${run},${b}]`);
    }
    s.beginBatch();
    const a = s.openCursor(10);
    const c = s.openCursor(11);
    s.createRun(12);
    for (let b = 0; b < 5; b++) {
      const x = a.next()!;
      const y = c.next()!;
      s.writeBlock(12, b, `${x}|${y}`);
    }
    expect(a.next()).toBeUndefined();
    a.close();
    c.close();
    s.deleteRun(10);
    s.deleteRun(11);
    s.commitBatch();
    expect(s.readBlock(12, 4)).toBe('J[10,4]|J[11,4]');
    expect(s.listRuns()).toEqual([12]);
  });

  it('refuses to create a run twice', () => {
    const s = create();
    s.createRun(1);
    s.writeBlock(1, 0, 'J[]');
    expect(() => s.createRun(1)).toThrow();
  });
});

describe('the wa-sqlite run store', () => {
  it('stores runs through the raw C exports with no promise in the path', async () => {
    const { module, db: handle, sqlite3 } = await openNodeDatabase(':memory:');
    const store = new WaSqliteRunStore(module, handle);
    let microtaskRan = false;
    queueMicrotask(() => {
      microtaskRan = true;
    });
    store.beginBatch();
    store.createRun(1);
    for (let b = 0; b < 100; b++) store.writeBlock(1, b, `J[${b}]`);
    store.commitBatch();
    const read = store.readBlock(1, 42);
    expect(microtaskRan).toBe(false);
    expect(read).toBe('J[42]');
    store.close();
    await sqlite3.close(handle);
  });

  it('can share one database between backends through table prefixes', () => {
    const a = db.store();
    const b = db.store();
    a.createRun(1);
    a.writeBlock(1, 0, 'J["a"]');
    b.createRun(1);
    b.writeBlock(1, 0, 'J["b"]');
    expect([a.readBlock(1, 0), b.readBlock(1, 0)]).toEqual(['J["a"]', 'J["b"]']);
  });
});

describe('block encoding', () => {
  const roundTrip = (values: LsmValue[]) => {
    const keys = values.map((_, i) => `k${i}`);
    const groups = values.map((_, i) => i);
    const block = decodeBlock(encodeBlock(groups, keys, values));
    expect(blockEntryCount(block)).toBe(values.length);
    return values.map((_, i) => {
      expect(blockKeyGroup(block, i)).toBe(i);
      expect(blockKey(block, i)).toBe(`k${i}`);
      return blockValue(block, i);
    });
  };

  it('writes plain JSON when it can', () => {
    expect(encodeBlock([1], ['k'], [{ a: [1, 'x', true] }])).toBe('J[1,"k",{"a":[1,"x",true]}]');
    expect(roundTrip([1, 'x', true, [1, 2], { a: { b: 'c' } }, TOMBSTONE])).toEqual([1, 'x', true, [1, 2], { a: { b: 'c' } }, TOMBSTONE]);
  });

  it('escapes numbers JSON cannot carry and objects that look like escapes', () => {
    const values: LsmValue[] = [
      Number.NaN,
      -0,
      Number.POSITIVE_INFINITY,
      { n: Number.NEGATIVE_INFINITY, list: [Number.NaN, 1] },
      { '\u0001n': 'NaN' },
      { '\u0001o': { '\u0001n': 'x' } },
      TOMBSTONE,
      'plain',
    ];
    expect(encodeBlock([0], ['k'], [Number.NaN])[0]).toBe('E');
    const back = roundTrip(values);
    expect(back).toEqual(values);
    expect(Object.is(back[1], -0)).toBe(true);
  });

  it('keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "n": null}') as Record<string, unknown>;
    delete value.n;
    value.inf = Number.POSITIVE_INFINITY;
    const [back] = roundTrip([value as LsmValue]) as [Record<string, unknown>];
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'inf']);
  });
});
