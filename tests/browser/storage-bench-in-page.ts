/**
 * Runs in the page (Chromium), imported through the Vite dev server by tests/bench/storage-throughput.ts
 * and tests/browser/storage-indexeddb.test.ts: the IndexedDB checkpoint storage on the browser's
 * real IndexedDB, measured against raw `idb` puts and gets of the same bytes, plus a smoke run of
 * the contract's key promises.
 */
import { deleteDB, openDB } from 'idb';
import { IndexedDbCheckpointStorage, deleteCheckpointDatabase } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { checkpointDirectory, exclusiveStatePath } from '../../engine/storage/checkpoint-layout.ts';
import type { CheckpointFile } from '../../engine/storage/checkpoint-storage.ts';

const MiB = 1024 * 1024;
const LOCATION = { checkpointDir: 'file:///bench-checkpoints', jobId: '0123456789abcdef0123456789abcdef' };

export interface StorageBenchScenario {
  fileBytes: number;
  filesPerCheckpoint: number;
  checkpoints: number;
}

export interface StorageBenchOptions {
  scenarios: StorageBenchScenario[];
  /** each implementation runs this many times per scenario, alternating which goes first; the best run counts */
  rounds: number;
}

export interface StorageBenchResult {
  scenario: string;
  totalBytes: number;
  files: number;
  /** MiB/s, best of `rounds` */
  storageWriteMiBps: number;
  rawWriteMiBps: number;
  writeRatio: number;
  storageReadMiBps: number;
  rawReadMiBps: number;
  readRatio: number;
  /** the same ratios from the median runs (less flattering to either side than best-of) */
  medianWriteRatio: number;
  medianReadRatio: number;
  /** every run, ms: [storage write, storage read, raw write, raw read] per round */
  runsMs: number[][];
}

/** Incompressible bytes (Chromium may compress IndexedDB values; random data keeps both sides honest). */
function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

function checkpointsOf(s: StorageBenchScenario): CheckpointFile[][] {
  return Array.from({ length: s.checkpoints }, (_, c) =>
    Array.from({ length: s.filesPerCheckpoint }, (_, i) => ({
      path: exclusiveStatePath(checkpointDirectory(LOCATION, c + 1), { vertexId: 'count', subtaskIndex: i }),
      bytes: randomBytes(s.fileBytes),
    })),
  );
}

async function timeStorage(checkpoints: CheckpointFile[][], run: number): Promise<[number, number]> {
  const databaseName = `storage-bench-${run}`;
  const storage = await IndexedDbCheckpointStorage.open({ databaseName, location: LOCATION });
  await storage.writeFile('file:///warm-up', new Uint8Array(16));
  const t0 = performance.now();
  for (const [c, files] of checkpoints.entries()) {
    const error = await storage.writeCheckpoint(c + 1, files);
    if (error) throw new Error(error.message);
  }
  const t1 = performance.now();
  let read = 0;
  for (const files of checkpoints) for (const f of files) read += (await storage.readFile(f.path))?.byteLength ?? NaN;
  const t2 = performance.now();
  await storage.close();
  await deleteCheckpointDatabase(databaseName);
  if (read !== checkpoints.flat().reduce((n, f) => n + f.bytes.byteLength, 0)) throw new Error('storage read back the wrong number of bytes');
  return [t1 - t0, t2 - t1];
}

async function timeRaw(checkpoints: CheckpointFile[][], run: number): Promise<[number, number]> {
  const databaseName = `raw-idb-bench-${run}`;
  const db = await openDB(databaseName, 1, {
    upgrade(database) {
      database.createObjectStore('files');
    },
  });
  await db.put('files', new Uint8Array(16), 'file:///warm-up');
  const t0 = performance.now();
  for (const files of checkpoints) {
    const tx = db.transaction('files', 'readwrite');
    for (const f of files) void tx.store.put(f.bytes, f.path);
    await tx.done;
  }
  const t1 = performance.now();
  let read = 0;
  for (const files of checkpoints) for (const f of files) read += ((await db.get('files', f.path)) as Uint8Array | undefined)?.byteLength ?? NaN;
  const t2 = performance.now();
  db.close();
  await deleteDB(databaseName);
  if (read !== checkpoints.flat().reduce((n, f) => n + f.bytes.byteLength, 0)) throw new Error('raw idb read back the wrong number of bytes');
  return [t1 - t0, t2 - t1];
}

function describeScenario(s: StorageBenchScenario): string {
  const size = s.fileBytes >= MiB ? `${s.fileBytes / MiB} MiB` : `${s.fileBytes / 1024} KiB`;
  return `${size} files, ${s.filesPerCheckpoint} per checkpoint, ${s.checkpoints} checkpoints`;
}

export async function runStorageBench(options: StorageBenchOptions): Promise<StorageBenchResult[]> {
  const results: StorageBenchResult[] = [];
  let run = 0;
  for (const scenario of options.scenarios) {
    const checkpoints = checkpointsOf(scenario);
    const totalBytes = checkpoints.flat().reduce((n, f) => n + f.bytes.byteLength, 0);
    const runsMs: number[][] = [];
    for (let round = 0; round < options.rounds; round++) {
      let storage: [number, number];
      let raw: [number, number];
      if (round % 2 === 0) {
        storage = await timeStorage(checkpoints, run++);
        raw = await timeRaw(checkpoints, run++);
      } else {
        raw = await timeRaw(checkpoints, run++);
        storage = await timeStorage(checkpoints, run++);
      }
      runsMs.push([...storage, ...raw].map((ms) => Math.round(ms * 10) / 10));
    }
    const best = (i: number) => Math.min(...runsMs.map((r) => r[i]!));
    const median = (i: number) => {
      const sorted = runsMs.map((r) => r[i]!).sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    };
    const ratio = (rawMs: number, storageMs: number) => Math.round((rawMs / storageMs) * 1000) / 1000;
    const mibps = (ms: number) => Math.round((totalBytes / MiB / (ms / 1000)) * 10) / 10;
    const storageWriteMiBps = mibps(best(0));
    const storageReadMiBps = mibps(best(1));
    const rawWriteMiBps = mibps(best(2));
    const rawReadMiBps = mibps(best(3));
    results.push({
      scenario: describeScenario(scenario),
      totalBytes,
      files: checkpoints.flat().length,
      storageWriteMiBps,
      rawWriteMiBps,
      writeRatio: Math.round((storageWriteMiBps / rawWriteMiBps) * 1000) / 1000,
      storageReadMiBps,
      rawReadMiBps,
      readRatio: Math.round((storageReadMiBps / rawReadMiBps) * 1000) / 1000,
      medianWriteRatio: ratio(median(2), median(0)),
      medianReadRatio: ratio(median(3), median(1)),
      runsMs,
    });
  }
  return results;
}

/** The contract's key promises on the browser's real IndexedDB. */
export async function storageSmoke(): Promise<Record<string, unknown>> {
  const databaseName = 'storage-smoke';
  await deleteCheckpointDatabase(databaseName);
  let failNext = false;
  const storage = await IndexedDbCheckpointStorage.open({
    databaseName,
    location: LOCATION,
    quotaBytes: 32 * MiB,
    injectFault: ({ path }) => (failNext && path.endsWith('-1') ? 'injected in Chromium' : undefined),
  });
  const chk = (id: number, i: number) => exclusiveStatePath(checkpointDirectory(LOCATION, id), { vertexId: 'count', subtaskIndex: i });
  const big = randomBytes(10 * 1000 * 1000);
  const firstError = await storage.writeCheckpoint(1, [
    { path: chk(1, 0), bytes: big },
    { path: `${checkpointDirectory(LOCATION, 1)}/_metadata`, bytes: new Uint8Array([1, 2, 3]) },
  ]);
  const back = await storage.readFile(chk(1, 0));
  const bigRoundTrip = back !== undefined && back.byteLength === big.byteLength && back.every((b, i) => b === big[i]);
  failNext = true;
  const injected = await storage.writeCheckpoint(2, [
    { path: chk(2, 0), bytes: new Uint8Array(100) },
    { path: chk(2, 1), bytes: new Uint8Array(100) },
  ]);
  failNext = false;
  const afterInjected = await storage.list(`${checkpointDirectory(LOCATION, 2)}/`);
  const quota = await storage.writeCheckpoint(3, [{ path: chk(3, 0), bytes: randomBytes(25 * MiB) }]);
  const afterQuota = await storage.list(`${checkpointDirectory(LOCATION, 3)}/`);
  const usage = await storage.usage();
  const discard = await storage.discardCheckpoint(1);
  const afterDiscard = await storage.usage();
  await storage.close();
  await deleteCheckpointDatabase(databaseName);
  return { firstError, bigRoundTrip, injected, afterInjected, quota, afterQuota, usage, discard, afterDiscard };
}
