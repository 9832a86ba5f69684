import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import type { KeyedStateBackend, StateValue } from '../../engine/state/keyed-state-backend.ts';
import type { RunContents } from '../../engine/state/lsm/sorted-run.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import type { LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { TINY_LSM, WaSqliteDatabase } from './state-backend-factories.ts';

/**
 * Differential test: random operation sequences run against the heap backend (the oracle) and
 * the rocksdb backend on wa-sqlite, with write buffers of a few hundred bytes so that flushes,
 * stalls, compactions and tombstone drops happen all the time. Every read, every scan, every
 * snapshot and every restore (full, and incremental from the uploaded runs) must agree.
 */
const RANGE = { start: 0, end: 15 };
const STATES = ['count', 'window', '_timer_service'] as const;

type Op =
  | { t: 'put'; state: string; kg: number; key: string; value: StateValue }
  | { t: 'delete'; state: string; kg: number; key: string }
  | { t: 'get'; state: string; kg: number; key: string }
  | { t: 'bulk'; state: string; seed: number; n: number; deleteEvery: number }
  | { t: 'scan'; state: string }
  | { t: 'counts' }
  | { t: 'flush' }
  | { t: 'background' }
  | { t: 'restore-full' }
  | { t: 'checkpoint'; outcome: 'complete' | 'abort' | 'pending' }
  | { t: 'restore-incremental' };

const key = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 40 }).map((i) => `k${i}`) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 5 }) },
);
const value: fc.Arbitrary<StateValue> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.array(fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 3 })), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 3 })), {
    maxKeys: 3,
  }),
);
const state = fc.constantFrom(...STATES);
const kg = fc.integer({ min: RANGE.start, max: RANGE.end });

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 30, arbitrary: fc.record({ t: fc.constant('put' as const), state, kg, key, value }) },
  { weight: 10, arbitrary: fc.record({ t: fc.constant('delete' as const), state, kg, key }) },
  { weight: 10, arbitrary: fc.record({ t: fc.constant('get' as const), state, kg, key }) },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('bulk' as const),
      state,
      seed: fc.integer({ min: 0, max: 1000 }),
      n: fc.integer({ min: 20, max: 400 }),
      deleteEvery: fc.integer({ min: 2, max: 9 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('scan' as const), state }) },
  { weight: 2, arbitrary: fc.constant({ t: 'counts' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'flush' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'background' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'restore-full' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({ t: fc.constant('checkpoint' as const), outcome: fc.constantFrom('complete', 'abort', 'pending') }),
  },
  { weight: 2, arbitrary: fc.constant({ t: 'restore-incremental' as const }) },
);

/** What the sequences made the tree do, summed over all runs: the test must exercise it all. */
const exercised = {
  flushes: 0,
  compactions: 0,
  tombstonesDropped: 0,
  olderVersionsDropped: 0,
  writeStalls: 0,
  blockCacheHits: 0,
  fullRestores: 0,
  incrementalRestores: 0,
  reusedRuns: 0,
  deepestLevel: 0,
};

function account(lsm: LsmKeyedStateBackend): void {
  const m = lsm.metrics();
  exercised.flushes += m.flushCount;
  exercised.compactions += m.compactionCount;
  exercised.tombstonesDropped += m.compactionTombstonesDropped;
  exercised.olderVersionsDropped += m.compactionKeysDroppedNewer;
  exercised.writeStalls += m.writeStallCount;
  exercised.blockCacheHits += m.blockCacheHit;
  for (const l of m.levels) if (l.files > 0) exercised.deepestLevel = Math.max(exercised.deepestLevel, l.level);
}

const config: fc.Arbitrary<Partial<LsmOptions>> = fc.record({
  writeBufferCount: fc.integer({ min: 1, max: 3 }),
  background: fc.constantFrom('inline' as const, 'deferred' as const),
  timerService: fc.constantFrom('ROCKSDB' as const, 'HEAP' as const),
  writeBufferSizeBytes: fc.constantFrom(256, 512, 2048),
  blockCacheSizeBytes: fc.constantFrom(0, 512, 1 << 20),
});

function sorted(backend: KeyedStateBackend, s: string): Array<[number, string, StateValue]> {
  const out: Array<[number, string, StateValue]> = [];
  backend.forEachEntry(s, (g, k, v) => out.push([g, k, v]));
  return out.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

describe('rocksdb backend against the heap backend', () => {
  let db: WaSqliteDatabase;
  beforeEach(async () => {
    db = await WaSqliteDatabase.open();
  });
  afterEach(async () => {
    await db.close();
  });

  it('gives the same answers for random operation sequences', async () => {
    await fc.assert(
      fc.asyncProperty(config, fc.array(op, { minLength: 1, maxLength: 200, size: 'max' }), async (cfg, ops) => {
        const options = { ...TINY_LSM, ...cfg };
        const newLsm = () => new LsmKeyedStateBackend(RANGE, db.store(), options);
        let heap: KeyedStateBackend = new HeapKeyedStateBackend(RANGE);
        let lsm = newLsm();
        /** "checkpoint storage": every run ever uploaded, by file name */
        const uploaded = new Map<string, RunContents>();
        const completedRuns = new Map<number, Set<string>>();
        let lastCompleted: number | undefined;
        let lastManifest: { manifest: ReturnType<LsmKeyedStateBackend['snapshotIncremental']>['privateState']; heap: ReturnType<KeyedStateBackend['snapshot']> } | undefined;
        let checkpointId = 0;

        const both = (f: (b: KeyedStateBackend) => void) => {
          f(heap);
          f(lsm);
        };
        for (const o of ops) {
          switch (o.t) {
            case 'put':
              both((b) => b.put(o.state, o.kg, o.key, o.value));
              break;
            case 'delete':
              both((b) => b.delete(o.state, o.kg, o.key));
              break;
            case 'get':
              expect(lsm.get(o.state, o.kg, o.key)).toEqual(heap.get(o.state, o.kg, o.key));
              break;
            case 'bulk':
              // a window of a fixed key space: later bulks overwrite and delete earlier keys
              for (let i = 0; i < o.n; i++) {
                const j = (o.seed + i) % 300;
                const k = `b${j}`;
                const g = j % 16;
                if (i % o.deleteEvery === 0) both((b) => b.delete(o.state, g, k));
                else both((b) => b.put(o.state, g, k, i));
              }
              break;
            case 'scan':
              expect(sorted(lsm, o.state)).toEqual(sorted(heap, o.state));
              break;
            case 'counts':
              expect(lsm.entryCount()).toBe(heap.entryCount());
              expect(lsm.stateSizeBytes()).toBe(heap.stateSizeBytes());
              break;
            case 'flush':
              lsm.flush();
              break;
            case 'background':
              lsm.runBackgroundJobs();
              break;
            case 'restore-full': {
              const snapshot = lsm.snapshot();
              expect(snapshot).toEqual(heap.snapshot());
              const h = new HeapKeyedStateBackend(RANGE);
              h.restore([heap.snapshot()]);
              heap = h;
              const next = newLsm();
              next.restore([snapshot]);
              account(lsm);
              exercised.fullRestores++;
              // a backend restored from a full snapshot has no confirmed base: it uploads everything
              lastCompleted = undefined;
              lsm.dispose();
              lsm = next;
              break;
            }
            case 'checkpoint': {
              const id = ++checkpointId;
              const snap = lsm.snapshotIncremental(id);
              // increments build on the last *completed* checkpoint only
              const base = lastCompleted === undefined ? new Set<string>() : completedRuns.get(lastCompleted)!;
              for (const r of snap.sharedRuns) expect(r.reused, r.name).toBe(base.has(r.name));
              for (const r of snap.newRuns) uploaded.set(r.name, r.contents);
              exercised.reusedRuns += snap.sharedRuns.filter((r) => r.reused).length;
              expect(snap.checkpointedSize).toBeLessThanOrEqual(snap.stateSize);
              if (o.outcome === 'complete') {
                lsm.notifyCheckpointComplete(id);
                completedRuns.set(id, new Set(snap.sharedRuns.map((r) => r.name)));
                lastCompleted = id;
                lastManifest = { manifest: snap.privateState, heap: heap.snapshot() };
              } else if (o.outcome === 'abort') {
                lsm.notifyCheckpointAborted(id);
              }
              break;
            }
            case 'restore-incremental': {
              if (!lastManifest) break;
              // fail over to the last completed checkpoint
              const h = new HeapKeyedStateBackend(RANGE);
              h.restore([lastManifest.heap]);
              heap = h;
              const next = newLsm();
              next.restoreIncremental(lastManifest.manifest, uploaded.values());
              account(lsm);
              exercised.incrementalRestores++;
              // the restored checkpoint is the new backend's confirmed base
              lastCompleted = lastManifest.manifest.checkpointId;
              lsm.dispose();
              lsm = next;
              expect(lsm.snapshot()).toEqual(heap.snapshot());
              break;
            }
          }
        }
        account(lsm);
        expect(lsm.snapshot()).toEqual(heap.snapshot());
        expect(lsm.entryCount()).toBe(heap.entryCount());
        expect(lsm.stateSizeBytes()).toBe(heap.stateSizeBytes());
        for (const s of STATES) expect(sorted(lsm, s)).toEqual(sorted(heap, s));
        // no run file leaks: the storage holds exactly the live runs
        expect(lsm.storage.listRuns()).toEqual(lsm.runs().map((r) => r.id).sort((a, b) => a - b));
      }),
      { numRuns: 150, seed: 20261130 },
    );
    console.log('exercised', exercised);
    for (const [what, n] of Object.entries(exercised)) expect(n, what).toBeGreaterThan(0);
    expect(exercised.deepestLevel).toBeGreaterThanOrEqual(2);
  });
});
