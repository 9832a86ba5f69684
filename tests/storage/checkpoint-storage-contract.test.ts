/**
 * The CheckpointStorage contract, run against every implementation: the memory store (the
 * reference), the IndexedDB store on fake-indexeddb, and the cost-modelled decorator (over
 * memory, with a fake clock). Also: retention after termination for every policy and job status,
 * and the storage leak checker over each real store.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { ExternalizedCheckpointRetention } from '../../engine/config/flink-config.ts';
import type { JobStatus } from '../../engine/job/job-status.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import {
  retainOnTermination,
  type CheckpointLocation,
  type CheckpointStorage,
  type CheckpointStorageOptions,
  type FaultInjector,
} from '../../engine/storage/checkpoint-storage.ts';
import { checkpointDirectory, jobDirectory, metadataPath, sharedFilePath, taskOwnedFilePath } from '../../engine/storage/checkpoint-layout.ts';
import { checkpointFiles, checkpointPlacement, readCompletedCheckpoint } from '../../engine/storage/checkpoint-files.ts';
import { CheckpointStorageMirror } from '../../engine/storage/checkpoint-storage-mirror.ts';
import { checkStorageLeaks } from '../../engine/storage/storage-leak-checker.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { CostModelledStorage } from '../../engine/storage/cost-modelled-storage.ts';
import { IndexedDbCheckpointStorage, deleteCheckpointDatabase } from '../../workers/storage/indexeddb-checkpoint-storage.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' };
const JOB = jobDirectory(LOCATION);
const MiB = 1024 * 1024;

let databases = 0;
const IMPLEMENTATIONS: Array<{ name: string; open: (options: CheckpointStorageOptions) => Promise<CheckpointStorage> }> = [
  { name: 'memory', open: async (options) => new MemoryCheckpointStorage(options) },
  {
    name: 'indexeddb (fake-indexeddb)',
    open: (options) => IndexedDbCheckpointStorage.open({ ...options, databaseName: `contract-${++databases}` }),
  },
  {
    name: 'cost-modelled (over memory, fake clock)',
    open: async (options) => new CostModelledStorage(new MemoryCheckpointStorage(options), { latencyMs: 50, bandwidthMbPerS: 100 }, async () => {}),
  },
];

/** Deterministic bytes, different per seed. */
function bytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Byte equality without vitest's element-by-element diff (slow on megabytes). */
function same(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function chk(id: number, name: string): string {
  return `${checkpointDirectory(LOCATION, id)}/${name}`;
}

/** A small completed checkpoint: two subtasks; shared files given as [name, contents] (contents: uploaded now). */
function completed(id: number, shared: Array<[string, unknown?]>): CompletedCheckpoint {
  const snapshot = (index: number): TaskStateSnapshot => ({
    subtask: { vertexId: 'count', subtaskIndex: index },
    keyedState: { incremental: { format: 'lsm-incremental-v1', checkpointId: id, runs: shared.map(([n]) => n) } },
    sharedFiles: index === 0 ? shared.map(([name, contents]) => (contents === undefined ? { name, sizeBytes: 1000 } : { name, sizeBytes: 1000, contents })) : [],
    stateSize: 1000 * shared.length,
    checkpointedSize: 1000 * shared.filter(([, c]) => c !== undefined).length,
  });
  const taskStates = new Map([
    ['count#0', snapshot(0)],
    ['count#1', snapshot(1)],
  ]);
  return {
    id,
    isSavepoint: false,
    triggerTimestamp: id * 100,
    completionTimestamp: id * 100 + 30,
    externalPath: checkpointDirectory(LOCATION, id),
    taskStates,
    parallelism: { count: 2 },
    stateSize: 1000 * shared.length,
    checkpointedSize: 0,
  };
}

describe.each(IMPLEMENTATIONS)('checkpoint storage contract: $name', ({ open }) => {
  let storage: CheckpointStorage | undefined;
  /** the fault a test injects; consulted for every file written or deleted */
  let fault: FaultInjector | undefined;

  async function store(quotaBytes?: number): Promise<CheckpointStorage> {
    fault = undefined;
    storage = await open({ location: LOCATION, ...(quotaBytes === undefined ? {} : { quotaBytes }), injectFault: (r) => fault?.(r) });
    return storage;
  }

  afterEach(async () => {
    await storage?.close();
    storage = undefined;
  });

  it('writes, reads, overwrites and deletes files; reads of a missing file give undefined', async () => {
    const s = await store();
    expect(await s.readFile(chk(1, '_metadata'))).toBeUndefined();
    expect(await s.writeFile(chk(1, '_metadata'), bytes(100))).toBeUndefined();
    expect(await s.readFile(chk(1, '_metadata'))).toEqual(bytes(100));
    expect(await s.writeFile(chk(1, '_metadata'), bytes(50, 2))).toBeUndefined();
    expect(await s.readFile(chk(1, '_metadata'))).toEqual(bytes(50, 2));
    expect(await s.usage()).toEqual({ fileCount: 1, bytes: 50 });
    expect(await s.deleteFile(chk(1, '_metadata'))).toBeUndefined();
    expect(await s.readFile(chk(1, '_metadata'))).toBeUndefined();
    expect(await s.deleteFile(chk(1, '_metadata'))).toBeUndefined();
    expect(await s.usage()).toEqual({ fileCount: 0, bytes: 0 });
  });

  it('keeps its own copy: the bytes are taken when the call is made, and a read hands out a copy', async () => {
    const s = await store();
    const buffer = bytes(64);
    const written = s.writeFile(chk(1, 'op-count-0'), buffer);
    buffer.fill(0); // the caller reuses its buffer before the write completed
    expect(await written).toBeUndefined();
    const read = (await s.readFile(chk(1, 'op-count-0')))!;
    expect(read).toEqual(bytes(64));
    read.fill(7);
    expect(await s.readFile(chk(1, 'op-count-0'))).toEqual(bytes(64));
    // a view onto a larger buffer stores just its bytes
    const big = bytes(1000);
    expect(await s.writeFile(chk(1, 'view'), big.subarray(10, 20))).toBeUndefined();
    expect(await s.readFile(chk(1, 'view'))).toEqual(big.slice(10, 20));
  });

  it('lists by prefix, sorted, with sizes; a directory prefix does not match its siblings (chk-1/ vs chk-10/)', async () => {
    const s = await store();
    for (const [path, n] of [
      [chk(10, '_metadata'), 3],
      [chk(1, 'op-b'), 2],
      [chk(1, '_metadata'), 1],
      [sharedFilePath(LOCATION, 'x.sst'), 4],
      ['file:///elsewhere/f', 5],
    ] as const) {
      expect(await s.writeFile(path, bytes(n))).toBeUndefined();
    }
    expect(await s.list(`${checkpointDirectory(LOCATION, 1)}/`)).toEqual([
      { path: chk(1, '_metadata'), sizeBytes: 1 },
      { path: chk(1, 'op-b'), sizeBytes: 2 },
    ]);
    expect((await s.list(`${JOB}/`)).map((f) => f.path)).toEqual([chk(1, '_metadata'), chk(1, 'op-b'), chk(10, '_metadata'), sharedFilePath(LOCATION, 'x.sst')]);
    expect((await s.list('')).length).toBe(5);
    expect(await s.list('nothing/')).toEqual([]);
  });

  it('writes a checkpoint in one transaction and discards exactly its directory', async () => {
    const s = await store();
    const files = [
      { path: chk(1, 'op-count-0'), bytes: bytes(300, 1) },
      { path: sharedFilePath(LOCATION, 'a.sst'), bytes: bytes(200, 2) },
      { path: chk(1, '_metadata'), bytes: bytes(10, 3) },
    ];
    expect(await s.writeCheckpoint(1, files)).toBeUndefined();
    expect(await s.writeCheckpoint(10, [{ path: chk(10, '_metadata'), bytes: bytes(5) }])).toBeUndefined();
    for (const f of files) expect(await s.readFile(f.path)).toEqual(f.bytes);
    expect(await s.usage()).toEqual({ fileCount: 4, bytes: 515 });
    expect(await s.discardCheckpoint(1)).toBeUndefined();
    expect((await s.list('')).map((f) => f.path)).toEqual([chk(10, '_metadata'), sharedFilePath(LOCATION, 'a.sst')]);
    expect(await s.usage()).toEqual({ fileCount: 2, bytes: 205 });
    expect(await s.discardCheckpoint(99)).toBeUndefined();
  });

  it('leaves nothing behind when a checkpoint write fails halfway (injected I/O error), and keeps what was there', async () => {
    const s = await store();
    expect(await s.writeCheckpoint(1, [{ path: chk(1, '_metadata'), bytes: bytes(10) }, { path: sharedFilePath(LOCATION, 'a.sst'), bytes: bytes(20, 1) }])).toBeUndefined();
    const before = await s.list('');
    fault = ({ op, path }) => (op === 'write' && path.endsWith('op-count-1') ? 'Connection reset by peer' : undefined);
    const error = await s.writeCheckpoint(2, [
      { path: chk(2, 'op-count-0'), bytes: bytes(100) },
      { path: sharedFilePath(LOCATION, 'a.sst'), bytes: bytes(20, 9) }, // an overwrite that must not stick
      { path: chk(2, 'op-count-1'), bytes: bytes(100) },
      { path: chk(2, '_metadata'), bytes: bytes(10) },
    ]);
    expect(error).toEqual({
      reason: 'IO_EXCEPTION',
      cause: 'injected',
      message: `Could not flush and close the file system output stream to ${chk(2, 'op-count-1')} in order to obtain the stream state handle. Caused by: java.io.IOException: Connection reset by peer`,
    });
    expect(await s.list('')).toEqual(before);
    expect(await s.readFile(sharedFilePath(LOCATION, 'a.sst'))).toEqual(bytes(20, 1));
    expect(await s.usage()).toEqual({ fileCount: 2, bytes: 30 });
  });

  it('reports an injected failure of a single write or delete as IO_EXCEPTION and changes nothing', async () => {
    const s = await store();
    expect(await s.writeFile(chk(1, 'a'), bytes(5))).toBeUndefined();
    fault = () => 'disk on fire';
    const write = await s.writeFile(chk(1, 'b'), bytes(5));
    expect(write?.reason).toBe('IO_EXCEPTION');
    expect(write?.cause).toBe('injected');
    expect(write?.message).toContain('disk on fire');
    const del = await s.deleteFile(chk(1, 'a'));
    expect(del).toMatchObject({ reason: 'IO_EXCEPTION', cause: 'injected' });
    expect(del?.message).toContain(`Could not delete ${chk(1, 'a')}`);
    expect(await s.discardCheckpoint(1)).toMatchObject({ reason: 'IO_EXCEPTION', cause: 'injected' });
    expect((await s.list('')).map((f) => f.path)).toEqual([chk(1, 'a')]);
    fault = undefined;
    expect(await s.writeFile(chk(1, 'b'), bytes(5))).toBeUndefined();
  });

  it('fails a write past the quota with IO_EXCEPTION naming the quota, and harms nothing already completed', async () => {
    const s = await store(1 * MiB);
    const first = [
      { path: chk(1, 'op-count-0'), bytes: bytes(600 * 1024, 1) },
      { path: chk(1, '_metadata'), bytes: bytes(1000, 2) },
    ];
    expect(await s.writeCheckpoint(1, first)).toBeUndefined();
    const usage = await s.usage();
    const error = await s.writeCheckpoint(2, [
      { path: chk(2, '_metadata'), bytes: bytes(100, 3) },
      { path: chk(2, 'op-count-0'), bytes: bytes(500 * 1024, 4) },
    ]);
    const consumed = usage.bytes + 100 + 500 * 1024;
    expect(error).toEqual({
      reason: 'IO_EXCEPTION',
      cause: 'quota-exceeded',
      message:
        `Could not flush and close the file system output stream to ${chk(2, 'op-count-0')} in order to obtain the stream state handle. ` +
        `Caused by: DSQuotaExceededException: The DiskSpace quota of file:///checkpoints is exceeded: quota = 1048576 B = 1 MB but diskspace consumed = ${consumed} B = ${(consumed / MiB).toFixed(2)} MB`,
    });
    expect(await s.list(`${checkpointDirectory(LOCATION, 2)}/`)).toEqual([]);
    for (const f of first) expect(same(await s.readFile(f.path), f.bytes)).toBe(true);
    expect(await s.usage()).toEqual(usage);
    // a single file too
    expect((await s.writeFile(chk(2, 'big'), bytes(MiB)))?.cause).toBe('quota-exceeded');
    // an overwrite counts only the difference; writing up to the quota exactly is allowed
    expect(await s.writeFile(chk(1, 'op-count-0'), bytes(MiB - 1000, 5))).toBeUndefined();
    expect(await s.usage()).toEqual({ fileCount: 2, bytes: MiB });
    // the knob can be raised at any time
    s.quotaBytes = 2 * MiB;
    expect(await s.writeCheckpoint(2, [{ path: chk(2, 'op-count-0'), bytes: bytes(500 * 1024, 4) }])).toBeUndefined();
    s.quotaBytes = Infinity;
    expect(s.quotaBytes).toBe(Infinity);
  });

  it('stores and reads back 10 MB files exactly', async () => {
    const s = await store();
    const big = bytes(10 * 1000 * 1000, 42);
    expect(await s.writeFile(sharedFilePath(LOCATION, 'big.sst'), big)).toBeUndefined();
    expect(await s.writeCheckpoint(3, [
      { path: chk(3, 'op-count-0'), bytes: big },
      { path: chk(3, '_metadata'), bytes: bytes(10) },
    ])).toBeUndefined();
    const back = await s.readFile(sharedFilePath(LOCATION, 'big.sst'));
    expect(back?.byteLength).toBe(big.byteLength);
    expect(same(back, big)).toBe(true);
    expect(same(await s.readFile(chk(3, 'op-count-0')), big)).toBe(true);
    expect(await s.list(sharedFilePath(LOCATION, 'big'))).toEqual([{ path: sharedFilePath(LOCATION, 'big.sst'), sizeBytes: 10_000_000 }]);
    expect(await s.usage()).toEqual({ fileCount: 3, bytes: 20_000_010 });
  });

  it('round-trips a completed checkpoint through Flink’s layout and reports missing files on restore', async () => {
    const s = await store();
    const c1 = completed(1, [['a.sst', { blocks: ['k1', 'k2'] }], ['b.sst', new Map([[1, new Uint8Array([1, 2, 3])]])]]);
    const c2 = completed(2, [['b.sst'], ['c.sst', { blocks: [] }]]);
    expect(await s.writeCheckpoint(1, checkpointFiles(checkpointPlacement(LOCATION, 1), c1))).toBeUndefined();
    expect(await s.writeCheckpoint(2, checkpointFiles(checkpointPlacement(LOCATION, 2), c2))).toBeUndefined();
    const paths = (await s.list('')).map((f) => f.path);
    expect(paths).toEqual([
      chk(1, '_metadata'),
      chk(1, 'op-count-0'),
      chk(1, 'op-count-1'),
      chk(2, '_metadata'),
      chk(2, 'op-count-0'),
      chk(2, 'op-count-1'),
      sharedFilePath(LOCATION, 'a.sst'),
      sharedFilePath(LOCATION, 'b.sst'),
      sharedFilePath(LOCATION, 'c.sst'),
    ]);
    const back1 = await readCompletedCheckpoint(s, checkpointDirectory(LOCATION, 1));
    const back2 = await readCompletedCheckpoint(s, checkpointDirectory(LOCATION, 2));
    expect(back1.ok && back1.checkpoint).toStrictEqual(c1);
    expect(back2.ok && back2.checkpoint).toStrictEqual(c2);
    expect(await s.deleteFile(sharedFilePath(LOCATION, 'b.sst'))).toBeUndefined();
    const broken = await readCompletedCheckpoint(s, checkpointDirectory(LOCATION, 2));
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.missing).toEqual([sharedFilePath(LOCATION, 'b.sst')]);
    expect(!broken.ok && broken.error.message).toContain('File does not exist');
    const none = await readCompletedCheckpoint(s, checkpointDirectory(LOCATION, 7));
    expect(!none.ok && none.missing).toEqual([metadataPath(checkpointDirectory(LOCATION, 7))]);
  });

  it('leak checker: a clean store reports nothing; deliberately leaked and missing files are reported', async () => {
    const s = await store();
    const mirror = new CheckpointStorageMirror(s);
    const c1 = completed(1, [['a.sst', { run: 1 }], ['b.sst', { run: 2 }]]);
    const c2 = completed(2, [['b.sst'], ['c.sst', { run: 3 }]]);
    // The JobMaster's effects at num-retained 1: chk-2 completes, subsumes chk-1, the registry lets go of a.sst.
    await mirror.apply({ type: 'checkpoint-completed', checkpoint: c1 });
    await mirror.apply({ type: 'checkpoint-completed', checkpoint: c2 });
    await mirror.apply({ type: 'discard-checkpoint', checkpointId: 1 });
    await mirror.apply({ type: 'discard-shared-files', names: ['a.sst'] });
    expect(mirror.errors).toEqual([]);
    expect(await checkStorageLeaks(s, { retainedCheckpointIds: [2] })).toEqual({ orphaned: [], missing: [], unreadable: [] });
    expect((await s.list(`${JOB}/`)).map((f) => f.path)).toEqual([
      chk(2, '_metadata'),
      chk(2, 'op-count-0'),
      chk(2, 'op-count-1'),
      sharedFilePath(LOCATION, 'b.sst'),
      sharedFilePath(LOCATION, 'c.sst'),
    ]);

    // Leak on purpose: a shared file nobody refers to, a stale exclusive file of a subsumed
    // checkpoint, a task-owned file and a stray file; and lose a file checkpoint 2 needs.
    await s.writeFile(sharedFilePath(LOCATION, 'leaked.sst'), bytes(10));
    await s.writeFile(chk(1, 'op-count-0'), bytes(10));
    await s.writeFile(taskOwnedFilePath(LOCATION, 'changelog-0'), bytes(10));
    await s.writeFile(`${JOB}/stray`, bytes(10));
    await s.writeFile(chk(2, 'partial-upload'), bytes(10)); // inside a kept checkpoint's directory: owned by it
    await s.writeFile('file:///checkpoints/other-job/chk-1/_metadata', bytes(10)); // another job: not ours to judge
    await s.deleteFile(sharedFilePath(LOCATION, 'c.sst'));
    expect(await checkStorageLeaks(s, { retainedCheckpointIds: [2] })).toEqual({
      orphaned: [chk(1, 'op-count-0'), sharedFilePath(LOCATION, 'leaked.sst'), `${JOB}/stray`, taskOwnedFilePath(LOCATION, 'changelog-0')],
      missing: [sharedFilePath(LOCATION, 'c.sst')],
      unreadable: [],
    });
    await s.writeFile(chk(2, '_metadata'), bytes(10));
    expect((await checkStorageLeaks(s, { retainedCheckpointIds: [2] })).unreadable).toEqual([chk(2, '_metadata')]);
    // a retained checkpoint whose _metadata is gone is missing
    expect((await checkStorageLeaks(s, { retainedCheckpointIds: [2, 3] })).missing).toContain(metadataPath(checkpointDirectory(LOCATION, 3)));
  });

  const POLICIES: ExternalizedCheckpointRetention[] = ['NO_EXTERNALIZED_CHECKPOINTS', 'DELETE_ON_CANCELLATION', 'RETAIN_ON_CANCELLATION'];
  const TERMINAL: JobStatus[] = ['FINISHED', 'CANCELED', 'FAILED'];
  for (const policy of POLICIES) {
    for (const jobStatus of TERMINAL) {
      const keep = retainOnTermination(policy, jobStatus);
      it(`after the job is ${jobStatus} with ${policy}, storage ${keep ? 'keeps' : 'deletes'} the retained checkpoints, leaking nothing`, async () => {
        const s = await store();
        const mirror = new CheckpointStorageMirror(s);
        await mirror.add(completed(4, [['a.sst', 1]]));
        await mirror.add(completed(5, [['a.sst'], ['b.sst', 2]]));
        // The JobMaster's job-terminated effect: retention lets go of both checkpoints, or keeps them.
        await mirror.apply({ type: 'job-terminated', retain: keep, discard: keep ? [] : [4, 5] });
        expect(mirror.errors).toEqual([]);
        const left = (await s.list(`${JOB}/`)).map((f) => f.path);
        if (keep) {
          expect(left).toContain(metadataPath(checkpointDirectory(LOCATION, 4)));
          expect(left).toContain(metadataPath(checkpointDirectory(LOCATION, 5)));
          expect(left).toContain(sharedFilePath(LOCATION, 'a.sst'));
          expect((await readCompletedCheckpoint(s, checkpointDirectory(LOCATION, 5))).ok).toBe(true);
        } else {
          expect(left).toEqual([]);
        }
        expect(await checkStorageLeaks(s, { retainedCheckpointIds: [4, 5], termination: { policy, jobStatus } })).toEqual({ orphaned: [], missing: [], unreadable: [] });
      });
    }
  }
});

describe('retainOnTermination (Flink’s CheckpointProperties.discardOnJob*)', () => {
  const ALL_STATUSES: Array<JobStatus | 'SUSPENDED'> = ['CREATED', 'RUNNING', 'FAILING', 'FAILED', 'RESTARTING', 'CANCELLING', 'CANCELED', 'FINISHED', 'SUSPENDED'];
  // Only a terminal (or suspended) job discards anything; until then its checkpoints stay.
  const EXPECTED: Record<ExternalizedCheckpointRetention, Partial<Record<JobStatus | 'SUSPENDED', boolean>>> = {
    NO_EXTERNALIZED_CHECKPOINTS: { FINISHED: false, CANCELED: false, FAILED: false, SUSPENDED: false },
    DELETE_ON_CANCELLATION: { FINISHED: false, CANCELED: false, FAILED: true, SUSPENDED: false },
    RETAIN_ON_CANCELLATION: { FINISHED: false, CANCELED: true, FAILED: true, SUSPENDED: true },
  };
  for (const policy of Object.keys(EXPECTED) as ExternalizedCheckpointRetention[]) {
    for (const status of ALL_STATUSES) {
      const expected = EXPECTED[policy][status] ?? true;
      it(`${policy} when the job is ${status}: ${expected ? 'retain' : 'delete'}`, () => {
        expect(retainOnTermination(policy, status)).toBe(expected);
      });
    }
  }

  it('rejects an unknown policy', () => {
    expect(() => retainOnTermination('KEEP_FOREVER' as ExternalizedCheckpointRetention, 'CANCELED')).toThrow(/unknown externalized checkpoint retention/);
  });
});

describe('IndexedDB checkpoint storage (fake-indexeddb)', () => {
  it('keeps files and usage across connections to the same database, and is gone once deleted', async () => {
    const databaseName = `reopen-${++databases}`;
    const first = await IndexedDbCheckpointStorage.open({ databaseName, location: LOCATION });
    expect(await first.writeCheckpoint(1, [{ path: chk(1, '_metadata'), bytes: bytes(123) }])).toBeUndefined();
    await first.close();
    const second = await IndexedDbCheckpointStorage.open({ databaseName, location: LOCATION, quotaBytes: 200 });
    expect(await second.readFile(chk(1, '_metadata'))).toEqual(bytes(123));
    expect(await second.usage()).toEqual({ fileCount: 1, bytes: 123 });
    // the usage that counts against the quota survived the reopen
    expect((await second.writeFile(chk(2, '_metadata'), bytes(100)))?.cause).toBe('quota-exceeded');
    await second.close();
    await expect(second.readFile(chk(1, '_metadata'))).rejects.toThrow(/closed/);
    await deleteCheckpointDatabase(databaseName);
    const third = await IndexedDbCheckpointStorage.open({ databaseName, location: LOCATION });
    expect(await third.list('')).toEqual([]);
    await third.close();
  });

  it('reports a checkpoint write whose transaction was aborted part way as IO_EXCEPTION (AbortError), leaving nothing and the usage as it was', async () => {
    const s = await IndexedDbCheckpointStorage.open({ databaseName: `aborted-write-${++databases}`, location: LOCATION });
    expect(await s.writeFile(chk(1, '_metadata'), bytes(7))).toBeUndefined();
    // As a tab, the browser or a test aborts it: after its first requests are issued.
    s.onReadWriteTransaction = (tx) => {
      s.onReadWriteTransaction = undefined;
      tx.abort();
    };
    const error = await s.writeCheckpoint(2, [{ path: chk(2, 'op-count-0'), bytes: bytes(100) }, { path: chk(2, '_metadata'), bytes: bytes(10) }]);
    expect(error).toEqual({
      reason: 'IO_EXCEPTION',
      cause: 'storage-error',
      message: `Could not flush and close the file system output stream to ${chk(2, 'op-count-0')} in order to obtain the stream state handle. Caused by: AbortError: the IndexedDB transaction was aborted`,
    });
    expect((await s.list('')).map((f) => f.path)).toEqual([chk(1, '_metadata')]);
    expect(await s.usage()).toEqual({ fileCount: 1, bytes: 7 });
    // the connection goes on: the next write is whole
    expect(await s.writeCheckpoint(2, [{ path: chk(2, '_metadata'), bytes: bytes(10) }])).toBeUndefined();
    expect(await s.usage()).toEqual({ fileCount: 2, bytes: 17 });
    await s.close();
  });

  it('shares one database between two jobs of a playground', async () => {
    const databaseName = `two-jobs-${++databases}`;
    const other: CheckpointLocation = { ...LOCATION, jobId: 'ffffffffffffffffffffffffffffffff' };
    const a = await IndexedDbCheckpointStorage.open({ databaseName, location: LOCATION });
    const b = await IndexedDbCheckpointStorage.open({ databaseName, location: other });
    await a.writeFile(chk(1, '_metadata'), bytes(1));
    await b.writeFile(`${checkpointDirectory(other, 1)}/_metadata`, bytes(2));
    expect(await b.discardCheckpoint(1)).toBeUndefined();
    expect((await a.list('')).map((f) => f.path)).toEqual([chk(1, '_metadata')]);
    await a.close();
    await b.close();
  });
});
