import { describe, expect, it } from 'vitest';
import { checkpointDatabaseName, liveCheckpointDatabaseName } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { localDiskDatabaseName } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { liveRunRoot, runRootOfDatabase, simRunRoot } from '../../web/playground/storage/run-storage-lease.ts';

const JOB_ID = '0123456789abcdef0123456789abcdef';

describe('which databases belong to one run (and may be swept once its tab is gone)', () => {
  it('puts a live run’s checkpoint database and its hosts’ disks under the run’s root', () => {
    const database = liveCheckpointDatabaseName('m1x2-abc123');
    expect(liveRunRoot(database)).toBe('checkpoint-playground-live/m1x2-abc123');
    expect(runRootOfDatabase(database)).toBe('checkpoint-playground-live/m1x2-abc123');
    expect(runRootOfDatabase(localDiskDatabaseName(database, 'host-1'))).toBe('checkpoint-playground-live/m1x2-abc123');
  });

  it('puts a sim run’s host disks under its job, and never its checkpoint database', () => {
    const checkpoints = checkpointDatabaseName('jobmanager://checkpoints');
    const root = simRunRoot(checkpoints, JOB_ID);
    expect(runRootOfDatabase(localDiskDatabaseName(root, 'host-0'))).toBe(root);
    // The checkpoint database keeps what a retention policy retains: it outlives every run.
    expect(runRootOfDatabase(checkpoints)).toBeUndefined();
  });

  it('never takes a checkpoint directory that looks like a live run or a host disk for one', () => {
    for (const dir of ['live-m1x2-abc123', `x/checkpoints/${JOB_ID}/local-disk/host-0`, `checkpoint-playground-live/x`]) {
      expect(runRootOfDatabase(checkpointDatabaseName(dir)), dir).toBeUndefined();
    }
  });

  it('leaves databases of other applications alone', () => {
    expect(runRootOfDatabase('my-app')).toBeUndefined();
    expect(runRootOfDatabase('checkpoint-playground-livex/a/checkpoints')).toBeUndefined();
  });
});
