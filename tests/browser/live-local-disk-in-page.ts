/**
 * Runs in the live test page (imported through Vite by live-local-disk.test.ts): reads and
 * damages a host's local-disk database from outside the driver, as a test would poke a real disk.
 */
import type { StoredLocalCopy } from '../../engine/recovery/local-disk-store.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';

function hostStore(host: string): IndexedDbLocalDiskStore {
  const driver = window.liveDriver;
  if (!driver) throw new Error('no live driver on the page');
  return new IndexedDbLocalDiskStore(localDiskDatabaseName(driver.checkpointStorageSpec.databaseName, host));
}

export interface CopyOnDisk {
  path: string;
  subtask: string;
  checkpointId: number;
  bytes: number;
}

/** The task-local copies the host's database holds now. */
export async function copiesOnDisk(host: string): Promise<CopyOnDisk[]> {
  const store = hostStore(host);
  try {
    const { copies } = await store.read();
    return copies.map((c) => ({ path: c.path, subtask: `${c.key.subtask.vertexId}#${c.key.subtask.subtaskIndex}`, checkpointId: c.checkpointId, bytes: c.bytes })).sort((a, b) => (a.path < b.path ? -1 : 1));
  } finally {
    await store.close();
  }
}

/** Flips bytes of every stored copy of `vertexId#subtask` on the host; returns their paths. */
export async function damageCopies(host: string, vertexId: string, subtaskIndex: number): Promise<string[]> {
  const store = hostStore(host);
  try {
    const { copies } = await store.read();
    const doomed = copies.filter((c) => c.key.subtask.vertexId === vertexId && c.key.subtask.subtaskIndex === subtaskIndex);
    const damaged: StoredLocalCopy[] = doomed.map((c) => ({ ...c, snapshot: c.snapshot.map((b, i) => (i % 7 === 3 ? b ^ 0x5a : b)) }));
    await store.apply({ put: damaged });
    return damaged.map((c) => c.path);
  } finally {
    await store.close();
  }
}

export interface RunOnDisk {
  path: string;
  subtask: string;
  bytes: number;
}

/** The shared runs (of incremental copies) the host's database holds now, each stored once. */
export async function runsOnDisk(host: string): Promise<RunOnDisk[]> {
  const store = hostStore(host);
  try {
    const { runs } = await store.read();
    return runs.map((r) => ({ path: r.path, subtask: `${r.key.subtask.vertexId}#${r.key.subtask.subtaskIndex}`, bytes: r.bytes })).sort((a, b) => (a.path < b.path ? -1 : 1));
  } finally {
    await store.close();
  }
}
