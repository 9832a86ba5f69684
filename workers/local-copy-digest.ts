/**
 * The digest of a task-local copy a live TaskManager writes and reads back: SHA-256 from the
 * browser's Web Crypto (crypto.subtle), hex. It runs natively and off the worker's JS thread, so
 * writing a copy costs the task loop nothing and reading one checks its bytes while the thread
 * decodes them; FNV-1a in JS (engine/recovery/checksum.ts) held the thread for tens of ms per 25 MB
 * on both sides. The engine keeps FNV-1a for the copies it writes itself (the sim and the
 * JobManager's own), which must verify synchronously.
 */
import { decodedLocalCopy, unreadableLocalCopy, verifiedLocalCopy, verifiedLocalRuns } from '../engine/recovery/persistent-host-local-disk.ts';
import type { LocalCopy, LocalRun } from '../engine/recovery/host-local-disk.ts';
import type { LocalCopyChecksumKind, StoredLocalCopy, StoredLocalRun } from '../engine/recovery/local-disk-store.ts';
import { fnv1a32Bytes } from '../engine/recovery/checksum.ts';
import { measureRestorePhase } from './restore-phase-measures.ts';

/**
 * The checksum a TaskManager writes with its copy: its SHA-256 digest, or, where the page is not a
 * secure context (Web Crypto is missing over plain http to another host), FNV-1a in JS as before.
 */
export async function localCopyChecksum(bytes: Uint8Array): Promise<{ checksum: string; checksumOf: LocalCopyChecksumKind }> {
  if (globalThis.crypto?.subtle === undefined) return { checksum: fnv1a32Bytes(bytes), checksumOf: 'bytes' };
  return { checksum: await localCopyDigest(bytes), checksumOf: 'sha-256' };
}

/** SHA-256 of `bytes` as 64 lower-case hex digits; the bytes are copied when called, so the caller may reuse them at once. */
export async function localCopyDigest(bytes: Uint8Array): Promise<string> {
  // Never a SharedArrayBuffer here (the codec's and IndexedDB's bytes): the typings cannot know that.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * A stored copy and its runs as a restore may use them: a copy with a SHA-256 digest is decoded
 * while its digest is computed, and trusted only if the digest matches (otherwise it fails
 * verification, and the restore falls back to remote storage, as Flink's does when a local file
 * cannot be read); any other copy as the engine checks it.
 */
export async function verifiedStoredCopy(record: StoredLocalCopy, runs: readonly StoredLocalRun[]): Promise<{ copy: LocalCopy; runs: LocalRun[] }> {
  if (record.checksumOf !== 'sha-256') return verifiedLocalCopy(record, runs);
  // Just read from the host's database: the bytes are this reader's own, so decoded arrays may be views onto them.
  const owned = { views: true };
  // Written where Web Crypto was, read where it is not: not checkable here, so not trusted.
  if (globalThis.crypto?.subtle === undefined) return { copy: unreadableLocalCopy(record, 'its SHA-256 digest cannot be checked without Web Crypto'), runs: verifiedLocalRuns(runs, owned) };
  const start = performance.now();
  const digest = localCopyDigest(record.snapshot);
  const decoded = decodedLocalCopy(record, owned);
  measureRestorePhase('decode', record.path, start);
  const matches = (await digest) === record.checksum;
  measureRestorePhase('SHA-256 check (beside the decode)', record.path, start);
  const copy = matches ? decoded : unreadableLocalCopy(record, 'its bytes do not match their SHA-256 digest');
  return { copy, runs: verifiedLocalRuns(runs, owned) };
}
