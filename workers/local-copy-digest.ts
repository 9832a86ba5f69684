/**
 * The checksum of a task-local copy a live TaskManager writes and reads back: XXH64 of its bytes,
 * from xxhash-wasm, fed in 1 MiB chunks (so the module's memory stays small whatever the copy's
 * size). A checksum finds damage, as RocksDB's block checksums (xxHash, CRC32c) do; nobody forges a
 * local copy, so a cryptographic digest buys nothing here. It replaced SHA-256 from Web Crypto,
 * which Chromium computes on the calling thread: 16 ms per 14 MB copy on an idle worker, 33–40 ms
 * with four TaskManagers restoring on two cores, blocking the restore (and every checkpoint's copy)
 * where XXH64 takes about 2 ms. The engine keeps FNV-1a for the copies it writes itself (the sim and
 * the JobManager's own), which must verify synchronously; copies written with SHA-256 by an earlier
 * version are still checked as they were written.
 */
import { decodedLocalCopy, decodedLocalRun, unreadableLocalCopy, unreadableLocalRun, verifiedLocalCopy, verifiedLocalRuns } from '../engine/recovery/persistent-host-local-disk.ts';
import type { LocalCopy, LocalRun } from '../engine/recovery/host-local-disk.ts';
import type { DecodeOptions } from '../engine/storage/snapshot-codec.ts';
import type { StoredLocalCopy, StoredLocalRun } from '../engine/recovery/local-disk-store.ts';
import { measureRestorePhase } from './restore-phase-measures.ts';

/** Bytes per call into the wasm module: its memory grows to the largest input it is given. */
const CHUNK_BYTES = 1 << 20;

type Hasher = Awaited<ReturnType<(typeof import('xxhash-wasm'))['default']>>;

/**
 * The hasher, loaded and instantiated once per worker on first use (a small wasm module inlined in
 * the package); imported on demand, as the playground's first page bundles this file but never
 * checksums a copy.
 */
let hasher: Promise<Hasher> | undefined;

/** The checksum a TaskManager writes with its copy, and with each run the copy sends. */
export async function localCopyChecksum(bytes: Uint8Array): Promise<{ checksum: string; checksumOf: 'xxh64' }> {
  return { checksum: await localCopyXxh64(bytes), checksumOf: 'xxh64' };
}

/**
 * Loads and compiles the XXH64 module ahead of its first use: a TaskManager does as it registers,
 * so a replacement's restore does not wait for it (it took 6–10 ms of the slowest subtask's restore).
 */
export function loadLocalCopyChecksum(): Promise<Hasher> {
  hasher ??= import('xxhash-wasm').then((m) => m.default());
  return hasher;
}

/** XXH64 (seed 0) of `bytes` as 16 lower-case hex digits. */
export async function localCopyXxh64(bytes: Uint8Array): Promise<string> {
  const { create64 } = await loadLocalCopyChecksum();
  const hash = create64();
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) hash.update(bytes.subarray(offset, offset + CHUNK_BYTES));
  return hash.digest().toString(16).padStart(16, '0');
}

/** SHA-256 of `bytes` as 64 lower-case hex digits: the checksum of copies written before XXH64. */
async function sha256(bytes: Uint8Array): Promise<string> {
  // Never a SharedArrayBuffer here (the codec's and IndexedDB's bytes): the typings cannot know that.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * A stored copy and its runs as a restore may use them: a copy or run with an XXH64 (or, a copy
 * written earlier, SHA-256) checksum is checked, then decoded only if its bytes match (otherwise it
 * fails verification, and the restore falls back to remote storage, as Flink's does when a local
 * file cannot be read); any other as the engine checks it.
 */
export async function verifiedStoredCopy(record: StoredLocalCopy, runs: readonly StoredLocalRun[]): Promise<{ copy: LocalCopy; runs: LocalRun[] }> {
  // Just read from the host's database: the bytes are this reader's own, so decoded arrays may be views onto them.
  const owned: DecodeOptions = { views: true };
  return { copy: await verifiedCopy(record, owned), runs: await verifiedRuns(runs, owned) };
}

async function verifiedCopy(record: StoredLocalCopy, owned: DecodeOptions): Promise<LocalCopy> {
  if (record.checksumOf !== 'xxh64' && record.checksumOf !== 'sha-256') return verifiedLocalCopy(record, []).copy;
  const checked = await checksumMatches(record, record.snapshot);
  if (checked !== true) return unreadableLocalCopy(record, checked);
  const start = performance.now();
  const copy = decodedLocalCopy(record, owned);
  measureRestorePhase('decode', record.path, start);
  return copy;
}

async function verifiedRuns(runs: readonly StoredLocalRun[], owned: DecodeOptions): Promise<LocalRun[]> {
  const verified: LocalRun[] = [];
  for (const run of runs) {
    if (run.checksumOf !== 'xxh64') {
      verified.push(...verifiedLocalRuns([run], owned));
      continue;
    }
    const checked = await checksumMatches(run, run.contents);
    verified.push(checked === true ? decodedLocalRun(run, owned) : unreadableLocalRun(run, checked));
  }
  return verified;
}

/** True when a copy's or run's `bytes` match the checksum it was written with (XXH64, or a copy's SHA-256), else why not. */
async function checksumMatches(record: Pick<StoredLocalCopy, 'path' | 'checksum' | 'checksumOf'>, bytes: Uint8Array): Promise<true | string> {
  const start = performance.now();
  if (record.checksumOf === 'sha-256') {
    // Written where Web Crypto was, read where it is not: not checkable here, so not trusted.
    if (globalThis.crypto?.subtle === undefined) return 'its SHA-256 digest cannot be checked without Web Crypto';
    const matches = (await sha256(bytes)) === record.checksum;
    measureRestorePhase('checksum (SHA-256)', record.path, start);
    return matches || 'its bytes do not match their SHA-256 digest';
  }
  const matches = (await localCopyXxh64(bytes)) === record.checksum;
  measureRestorePhase('checksum (XXH64)', record.path, start);
  return matches || 'its bytes do not match their XXH64 checksum';
}
