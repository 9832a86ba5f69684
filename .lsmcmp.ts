import { LsmKeyedStateBackend } from './engine/state/lsm/lsm-keyed-state-backend.ts';
import { OldLsmKeyedStateBackend } from './engine/state/lsm/zz-old-lsm.ts';
import { HeapKeyedStateBackend } from './engine/state/heap-keyed-state-backend.ts';
import { WaSqliteDatabase } from './tests/state/state-backend-factories.ts';
const N = 250_000;
const range = { start: 0, end: 31 };
const h = new HeapKeyedStateBackend(range);
for (let i = 0; i < N; i++) h.put('count', i % 32, `key-${String(i).padStart(6, '0')}`, i % 1000);
const snap = h.snapshot();
const db = await WaSqliteDatabase.open();
const src = new LsmKeyedStateBackend(range, db.store());
src.restore([snap]);
const inc = src.snapshotIncremental(1);
const runs = inc.newRuns.map((r) => r.contents);
const t: Record<string, number[]> = {};
const time = (name: string, f: () => void) => { const s = performance.now(); f(); (t[name] ??= []).push(performance.now() - s); };
for (let r = 0; r < 3; r++) {
  time('full old', () => new OldLsmKeyedStateBackend(range, db.store()).restore([snap]));
  time('full new', () => new LsmKeyedStateBackend(range, db.store()).restore([snap]));
  time('rescale-inc old', () => new OldLsmKeyedStateBackend({ start: 0, end: 15 }, db.store()).restoreIncremental(inc.privateState, runs));
  time('rescale-inc new', () => new LsmKeyedStateBackend({ start: 0, end: 15 }, db.store()).restoreIncremental(inc.privateState, runs));
  time('inc adopt (same)', () => new LsmKeyedStateBackend(range, db.store()).restoreIncremental(inc.privateState, runs));
}
for (const [k, v] of Object.entries(t)) console.log(k, v.sort((a, b) => a - b)[1]!.toFixed(0), 'ms');
