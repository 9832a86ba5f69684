/**
 * The layout of state.backend.rocksdb.localdir on a host's disk, and what happens where there is
 * no OPFS (Node here, as a browser without navigator.storage.getDirectory): a clear refusal,
 * never a quiet fallback to memory. The directories themselves are exercised in Chromium
 * (tests/browser/live-rocksdb-local-dir.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { hostDir, instanceDir, incarnationDir, opfsRoot, removeOpfsDirectory, rocksDbLocalDir } from '../../workers/storage/rocksdb-local-dir.ts';

describe('state.backend.rocksdb.localdir', () => {
  it('puts each TaskManager process and attempt in its own directory under its host, beside the checkpoint database', () => {
    const db = 'checkpoint-playground/live-x/checkpoints';
    const dir = rocksDbLocalDir(db, 'host-1', 'tm-3', 7);
    expect(hostDir(db, 'host-1')).toBe('checkpoint-playground/live-x/checkpoints/hosts/host-1');
    expect(dir.taskManagerDir).toBe('checkpoint-playground/live-x/checkpoints/hosts/host-1/tm-3');
    expect(incarnationDir(dir)).toBe('checkpoint-playground/live-x/checkpoints/hosts/host-1/tm-3/incarnation-7');
    expect(instanceDir(dir, 2)).toBe('checkpoint-playground/live-x/checkpoints/hosts/host-1/tm-3/incarnation-7/attempt-2');
    // A replacement process of the same TaskManager never opens its predecessor's files.
    expect(incarnationDir(rocksDbLocalDir(db, 'host-1', 'tm-3', 8))).not.toBe(incarnationDir(dir));
  });

  it('refuses to open working directories without OPFS, naming the option and the way out', async () => {
    await expect(opfsRoot()).rejects.toThrow(/state\.backend\.rocksdb\.localdir.*Origin Private File System.*state\.backend\.type: hashmap/);
    await expect(removeOpfsDirectory('checkpoint-playground/x/checkpoints/hosts/host-0')).rejects.toThrow(/Origin Private File System/);
  });
});
