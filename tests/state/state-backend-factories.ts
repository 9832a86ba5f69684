import { afterAll, beforeAll } from 'vitest';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import type { KeyedStateBackend } from '../../engine/state/keyed-state-backend.ts';
import type { KeyGroupRange } from '../../engine/state/key-group-range.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import type { LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { MemoryRunStore } from '../../engine/state/lsm/memory-run-store.ts';
import { WaSqliteRunStore, type RunTableLayout } from '../../engine/state/lsm/wa-sqlite-run-store.ts';
import { loadNodeSqlite, type NodeSqlite } from '../support/wa-sqlite-node.ts';

/**
 * Tiny sizes so that a few hundred entries flush, compact L0 → L1 and push data down to the
 * bottom level: the tree's machinery runs in every test, not only in big ones.
 */
export const TINY_LSM: Partial<LsmOptions> = {
  writeBufferSizeBytes: 512,
  blockSizeBytes: 128,
  targetFileSizeBytes: 512,
  maxBytesForLevelBase: 1024,
  levelSizeMultiplier: 4,
  numLevels: 4,
  blockCacheSizeBytes: 2048,
};

/** One database per wa-sqlite module; every backend gets its own table prefix in it. */
export class WaSqliteDatabase {
  #next = 0;
  #stores: WaSqliteRunStore[] = [];

  private constructor(
    readonly sqlite: NodeSqlite,
    readonly db: number,
  ) {}

  static async open(): Promise<WaSqliteDatabase> {
    const sqlite = await loadNodeSqlite('memory-vfs');
    return new WaSqliteDatabase(sqlite, await sqlite.open('state.db'));
  }

  store(layout: RunTableLayout = 'shared-table'): WaSqliteRunStore {
    const store = new WaSqliteRunStore(this.sqlite.module, this.db, { layout, tablePrefix: `b${++this.#next}_` });
    this.#stores.push(store);
    return store;
  }

  async close(): Promise<void> {
    for (const store of this.#stores) store.close();
    await this.sqlite.sqlite3.close(this.db);
  }
}

/**
 * One in-memory wa-sqlite database for the test file that calls this (opened before its tests,
 * closed after them): each `store()` is a run store of its own in it.
 */
export function waSqliteForThisFile(): { store(layout?: RunTableLayout): WaSqliteRunStore } {
  let database: WaSqliteDatabase | undefined;
  beforeAll(async () => {
    database = await WaSqliteDatabase.open();
  });
  afterAll(async () => {
    await database?.close();
  });
  return {
    store(layout) {
      if (!database) throw new Error('the file\'s wa-sqlite database is opened in beforeAll: ask for a store inside a test');
      return database.store(layout);
    },
  };
}

export interface BackendFactory {
  name: string;
  create(range: KeyGroupRange): KeyedStateBackend;
}

/** Every implementation the contract suite runs against. `db` must be opened first. */
export function backendFactories(db: () => WaSqliteDatabase): BackendFactory[] {
  return [
    { name: 'heap (hashmap)', create: (range) => new HeapKeyedStateBackend(range) },
    {
      name: 'rocksdb on wa-sqlite, one table, tiny buffers',
      create: (range) => new LsmKeyedStateBackend(range, db().store('shared-table'), { ...TINY_LSM }),
    },
    {
      name: 'rocksdb on wa-sqlite, table per run, deferred flushes, 3 write buffers, HEAP timers',
      create: (range) =>
        new LsmKeyedStateBackend(range, db().store('table-per-run'), {
          ...TINY_LSM,
          background: 'deferred',
          writeBufferCount: 3,
          timerService: 'HEAP',
        }),
    },
    {
      name: 'rocksdb on the memory run store, default sizes',
      create: (range) => new LsmKeyedStateBackend(range, new MemoryRunStore()),
    },
  ];
}
