/**
 * Runs in the live test page (imported through Vite by local-copy-files.test.ts): writes task-local
 * copies to a host disk store that keeps large snapshots in OPFS files, and reports what the
 * database and the OPFS directory hold, as a test would look at a real disk.
 */
import { openDB } from 'idb';
import type { StoredLocalCopy, StoredLocalRun } from '../../engine/recovery/local-disk-store.ts';
import { IndexedDbLocalDiskStore } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { localCopyFiles, localCopyFilesDir } from '../../workers/storage/local-copy-files.ts';
import { openOpfsDirectory } from '../../workers/storage/rocksdb-local-dir.ts';
import type { ReadInWorker } from './local-copy-files.worker.ts';

let databases = 0;

/** A database of its own per call, in a directory of its own: `local-copy-files-test/<n>/local-disk/host-0`. */
function freshName(): string {
  return `local-copy-files-test/${Date.now()}-${++databases}/local-disk/host-0`;
}

function copy(path: string, size: number, seed = 0): StoredLocalCopy {
  const snapshot = new Uint8Array(size);
  for (let i = 0; i < size; i++) snapshot[i] = (i * 31 + size + seed) & 255;
  const key = { jobId: 'j', allocationId: 'tm-0/slot-0', subtask: { vertexId: 'count', subtaskIndex: 0 } };
  return { path, key, checkpointId: 1, bytes: size, checksum: 'c', checksumOf: 'bytes', complete: true, snapshot };
}

function run(directory: string, name: string, size: number): StoredLocalRun {
  const contents = new Uint8Array(size);
  for (let i = 0; i < size; i++) contents[i] = (i * 17 + size) & 255;
  const key = { jobId: 'j', allocationId: 'tm-0/slot-0', subtask: { vertexId: 'count', subtaskIndex: 0 } };
  return { path: `${directory}/shared/${name}`, key, name, bytes: size, checksum: 'c', checksumOf: 'bytes', contents };
}

/** How the database holds a shared run's contents: bytes, or the name of a file. */
async function runHeldAs(name: string, path: string): Promise<string> {
  const db = await openDB(name);
  try {
    const contents = ((await db.get('runs', path)) as { contents: unknown } | undefined)?.contents;
    if (contents === undefined) return 'absent';
    return contents instanceof Uint8Array ? 'bytes' : 'file';
  } finally {
    db.close();
  }
}

export interface RunsInFiles {
  large: string;
  small: string;
  readCopy: boolean;
  read: boolean;
  filesAfterDelete: number;
  readAfterFileGone: string[];
}

/**
 * An incremental copy's shared runs: one over 64 KiB in a file, one at 64 KiB in the database;
 * both read back with the copy and in the listing; deleting a run removes its file; a run whose
 * file went is not among the copy's runs (its restore reads it remotely).
 */
export async function runsInFiles(): Promise<RunsInFiles> {
  const name = freshName();
  const dir = localCopyFilesDir(name);
  const store = new IndexedDbLocalDiskStore(name, { files: true });
  const directory = 'aid_tm-0/jid_j/vtx_count_sti_0';
  const large = run(directory, 'a.sst', 64 * 1024 + 1);
  const small = run(directory, 'b.sst', 64 * 1024);
  const incremental = { ...copy(`${directory}/chk_1`, 1000), runs: ['a.sst', 'b.sst'] };
  await store.apply({ put: [incremental], putRuns: [large, small] });
  const readRuns = (await store.readCopy(incremental.path))?.runs ?? [];
  const listed = (await store.read()).runs;
  const result: RunsInFiles = {
    large: await runHeldAs(name, large.path),
    small: await runHeldAs(name, small.path),
    readCopy: same(readRuns.find((r) => r.name === 'a.sst')?.contents, large.contents) && same(readRuns.find((r) => r.name === 'b.sst')?.contents, small.contents),
    read: same(listed.find((r) => r.name === 'a.sst')?.contents, large.contents),
    filesAfterDelete: -1,
    readAfterFileGone: [],
  };
  const again = run(directory, 'c.sst', 100_000);
  await store.apply({ putRuns: [again] });
  await store.apply({ delete: [large.path] });
  result.filesAfterDelete = (await waitForFiles(dir, 1)).length;
  const opened = (await openOpfsDirectory(dir))!;
  for (const file of await localCopyFiles(dir)) await opened.removeEntry(file);
  result.readAfterFileGone = (await store.read()).runs.map((r) => r.name).sort();
  await store.destroy();
  return result;
}

/** How the database holds a copy's snapshot: bytes, a Blob, or the name of a file. */
async function heldAs(name: string, path: string): Promise<string> {
  const db = await openDB(name);
  try {
    const snapshot = ((await db.get('copies', path)) as { snapshot: unknown } | undefined)?.snapshot;
    if (snapshot === undefined) return 'absent';
    if (snapshot instanceof Uint8Array) return 'bytes';
    if (snapshot instanceof Blob) return 'blob';
    return `file ${(snapshot as { file: string }).file}`;
  } finally {
    db.close();
  }
}

function same(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);
}

async function fileBytes(name: string, file: string): Promise<Uint8Array | undefined> {
  const dir = await openOpfsDirectory(localCopyFilesDir(name));
  const handle = await dir?.getFileHandle(file).catch(() => undefined);
  return handle && new Uint8Array(await (await handle.getFile()).arrayBuffer());
}

/** A TaskManager's read: a store opened in a worker (no `files`), reading the copy at `path`. */
function readInWorker(name: string, path: string): Promise<ReadInWorker> {
  const worker = new Worker(new URL('./local-copy-files.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<ReadInWorker>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<ReadInWorker>) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message || 'the worker failed to start'));
    worker.postMessage({ name, path });
  }).finally(() => worker.terminate());
}

export interface WriteAndRead {
  large: string;
  small: string;
  files: string[];
  fileHoldsSnapshot: boolean;
  readCopy: boolean;
  read: boolean;
  inWorker: ReadInWorker;
  expectedSum: number;
}

/** A copy over 64 KiB and one at 64 KiB, written by the disk's writer, then read back every way. */
export async function writeAndRead(): Promise<WriteAndRead> {
  const name = freshName();
  const store = new IndexedDbLocalDiskStore(name, { files: true });
  const large = copy('aid_tm-0/jid_j/vtx_count_sti_0/chk_1', 64 * 1024 + 1);
  const small = copy('aid_tm-0/jid_j/vtx_count_sti_1/chk_1', 64 * 1024);
  await store.apply({ put: [large, small] });
  const held = await heldAs(name, large.path);
  const files = await localCopyFiles(localCopyFilesDir(name));
  const reader = new IndexedDbLocalDiskStore(name);
  const all = await reader.read();
  const result = {
    large: held.split(' ')[0]!,
    small: await heldAs(name, small.path),
    files,
    fileHoldsSnapshot: held.startsWith('file ') && same(await fileBytes(name, held.slice(5)), large.snapshot),
    readCopy: same((await reader.readCopy(large.path))?.copy.snapshot, large.snapshot),
    read: same(all.copies.find((c) => c.path === large.path)?.snapshot, large.snapshot) && same(all.copies.find((c) => c.path === small.path)?.snapshot, small.snapshot),
    inWorker: await readInWorker(name, large.path),
    expectedSum: large.snapshot.reduce((n, b) => n + b, 0),
  };
  await reader.close();
  await store.destroy();
  return result;
}

/**
 * The directory's files after each step: a copy written, written again (its old file goes), a
 * second copy, the first deleted, the disk cleared together with a new copy (only the new one stays).
 */
export async function filesThroughChanges(): Promise<{ steps: number[]; replacedGone: boolean; clearedKeepsNew: boolean }> {
  const name = freshName();
  const dir = localCopyFilesDir(name);
  const store = new IndexedDbLocalDiskStore(name, { files: true });
  const steps: number[] = [];
  const step = async (batch: Parameters<IndexedDbLocalDiskStore['apply']>[0], expected: number) => {
    await store.apply(batch);
    steps.push((await waitForFiles(dir, expected)).length);
  };
  await step({ put: [copy('a/chk_1', 100_000)] }, 1);
  const first = await localCopyFiles(dir);
  await step({ put: [copy('a/chk_1', 100_000, 7)] }, 1);
  const replacedGone = !(await localCopyFiles(dir)).includes(first[0]!);
  await step({ put: [copy('b/chk_1', 100_000)] }, 2);
  await step({ delete: ['a/chk_1'] }, 1);
  await step({ clear: true, put: [copy('c/chk_2', 100_000)] }, 1);
  const held = await heldAs(name, 'c/chk_2');
  const clearedKeepsNew = held.startsWith('file ') && (await localCopyFiles(dir)).includes(held.slice(5));
  await store.destroy();
  return { steps, replacedGone, clearedKeepsNew };
}

/** Removals run after their batch commits: waits (on the condition, not a sleep) until the directory holds `count` files. */
async function waitForFiles(dir: string, count: number): Promise<string[]> {
  const deadline = performance.now() + 30_000;
  for (let files = await localCopyFiles(dir); ; files = await localCopyFiles(dir)) {
    if (files.length === count) return files;
    if (performance.now() > deadline) throw new Error(`the directory still holds ${files.length} files, not ${count}: ${files.join(' ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A batch whose transaction aborts after its copy's file was written: the error, what the database holds, the files left. */
export async function abortedBatch(): Promise<{ error: string; held: string; files: number }> {
  const name = freshName();
  const store = new IndexedDbLocalDiskStore(name, { files: true });
  store.onReadWriteTransaction = (tx) => tx.abort();
  const error = await store.apply({ put: [copy('a/chk_1', 100_000)] }).then(
    () => 'no error',
    (e: unknown) => (e instanceof Error ? e.name : String(e)),
  );
  store.onReadWriteTransaction = undefined;
  await waitForFiles(localCopyFilesDir(name), 0);
  const result = { error, held: await heldAs(name, 'a/chk_1'), files: (await localCopyFiles(localCopyFilesDir(name))).length };
  await store.destroy();
  return result;
}

/** A file no record names (a crash between a write and its commit) is swept when the writer opens the disk again; named ones stay. */
export async function sweptAtOpen(): Promise<{ before: number; after: number; readsBack: boolean }> {
  const name = freshName();
  const dir = localCopyFilesDir(name);
  const first = new IndexedDbLocalDiskStore(name, { files: true });
  const kept = copy('a/chk_1', 100_000);
  await first.apply({ put: [kept] });
  const orphan = await (await openOpfsDirectory(dir))!.getFileHandle('b~chk_1.left-by-a-crash', { create: true });
  const writable = await orphan.createWritable();
  await writable.write(new Uint8Array(10));
  await writable.close();
  await first.close();
  const before = (await localCopyFiles(dir)).length;
  const again = new IndexedDbLocalDiskStore(name, { files: true });
  await again.apply({});
  const result = { before, after: (await localCopyFiles(dir)).length, readsBack: same((await again.readCopy('a/chk_1'))?.copy.snapshot, kept.snapshot) };
  await again.destroy();
  return result;
}

/** A copy whose file went (removed behind the database's back) reads as not on the disk. */
export async function fileGone(): Promise<{ readCopy: string; listed: number }> {
  const name = freshName();
  const store = new IndexedDbLocalDiskStore(name, { files: true });
  await store.apply({ put: [copy('a/chk_1', 100_000)] });
  const dir = (await openOpfsDirectory(localCopyFilesDir(name)))!;
  for (const file of await localCopyFiles(localCopyFilesDir(name))) await dir.removeEntry(file);
  const result = { readCopy: (await store.readCopy('a/chk_1')) === undefined ? 'undefined' : 'a copy', listed: (await store.read()).copies.length };
  await store.destroy();
  return result;
}

/** A store opened without `files` (a test damaging copies) replaces a file-backed copy with a Blob, and the file goes. */
export async function replacedByReader(): Promise<{ held: string; files: number; readsBack: boolean }> {
  const name = freshName();
  const writer = new IndexedDbLocalDiskStore(name, { files: true });
  await writer.apply({ put: [copy('a/chk_1', 100_000)] });
  const reader = new IndexedDbLocalDiskStore(name);
  const damaged = copy('a/chk_1', 100_000, 3);
  await reader.apply({ put: [damaged] });
  await waitForFiles(localCopyFilesDir(name), 0);
  const result = { held: await heldAs(name, 'a/chk_1'), files: (await localCopyFiles(localCopyFilesDir(name))).length, readsBack: same((await writer.readCopy('a/chk_1'))?.copy.snapshot, damaged.snapshot) };
  await reader.close();
  await writer.destroy();
  return result;
}

/** Destroying the disk deletes its directory and the parents it leaves empty. */
export async function destroyed(): Promise<{ before: boolean; dir: boolean; top: boolean }> {
  const name = freshName();
  const store = new IndexedDbLocalDiskStore(name, { files: true });
  await store.apply({ put: [copy('a/chk_1', 100_000)] });
  const before = (await openOpfsDirectory(localCopyFilesDir(name))) !== undefined;
  await store.destroy();
  const top = name.split('/').slice(0, 2).join('/');
  return { before, dir: (await openOpfsDirectory(localCopyFilesDir(name))) !== undefined, top: (await openOpfsDirectory(top)) !== undefined };
}
