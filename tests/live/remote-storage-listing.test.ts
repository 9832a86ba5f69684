import { describe, expect, it } from 'vitest';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { PendingCheckpoint } from '../../engine/checkpoint/pending-checkpoint.ts';
import { storageViewFromListing } from '../../web/playground/storage/remote-storage-listing.ts';

const location = { checkpointDir: 'indexeddb://checkpoints', jobId: 'live-job' };
const job = 'indexeddb://checkpoints/live-job';

function completed(id: number, isSavepoint = false): CompletedCheckpoint {
  return { id, isSavepoint, externalPath: `${job}/chk-${id}`, triggerTimestamp: id * 1000, completionTimestamp: id * 1000 + 80, stateSize: 900, checkpointedSize: 700, taskStates: new Map() } as unknown as CompletedCheckpoint;
}

describe('storageViewFromListing (the live storage view from what IndexedDB holds)', () => {
  it('groups listed files into checkpoint directories, savepoints and shared files, labelled by the coordinator', () => {
    const view = storageViewFromListing(
      location,
      [
        { path: `${job}/chk-3/_metadata`, sizeBytes: 192 },
        { path: `${job}/chk-3/op-count-0`, sizeBytes: 300 },
        { path: `${job}/chk-3/op-count-1`, sizeBytes: 400 },
        { path: `${job}/chk-4/op-count-0`, sizeBytes: 310 },
        { path: `${job}/chk-5/_metadata`, sizeBytes: 192 },
        { path: `${job}/shared/sst-1`, sizeBytes: 2048 },
        { path: `${job}/stray.txt`, sizeBytes: 1 },
      ],
      {
        retained: [completed(3)],
        savepoints: [completed(5, true)],
        pending: [{ id: 4, isSavepoint: false, triggerTimestamp: 4000 } as unknown as PendingCheckpoint],
        sharedFiles: [{ name: 'sst-1', sizeBytes: 2048, createdByCheckpointId: 2, lastUsedCheckpointId: 3 }],
      },
      [],
      true,
      'checkpoint-playground-live-x',
      { latencyMs: 50, bandwidthMbPerS: 100, slowFactor: 4, failing: false },
    );
    expect(view.checkpoints.map((d) => [d.id, d.latest, d.files.map((f) => `${f.name}:${f.bytes}:${f.subtask ?? ''}`)])).toEqual([
      [3, true, ['_metadata:192:', 'op-count-0:300:count#0', 'op-count-1:400:count#1']],
      [4, false, ['op-count-0:310:count#0']],
    ]);
    // A retained checkpoint carries the coordinator's figures; an upload in progress what it holds so far.
    expect(view.checkpoints[0]).toMatchObject({ path: `${job}/chk-3`, triggerTimestamp: 3000, completionTimestamp: 3080, checkpointedSize: 700 });
    expect(view.checkpoints[1]).toMatchObject({ path: `${job}/chk-4`, triggerTimestamp: 4000, completionTimestamp: 0, checkpointedSize: 310 });
    expect(view.savepoints.map((d) => [d.id, d.isSavepoint])).toEqual([[5, true]]);
    expect(view.sharedFiles).toEqual([{ name: 'sst-1', sizeBytes: 2048, createdByCheckpointId: 2, lastUsedCheckpointId: 3 }]);
    expect(view.localRecovery).toBe(true);
    expect(view.remoteCost).toEqual({ latencyMs: 50, bandwidthMbPerS: 100, slowFactor: 4, failing: false });
    // What the database holds, counted from the same listing: every file, and the chk-N directories.
    expect(view.database).toEqual({ databaseName: 'checkpoint-playground-live-x', jobDirectory: job, checkpointIds: [3, 4, 5], sharedFiles: 1, files: 7, bytes: 192 + 300 + 400 + 310 + 192 + 2048 + 1, behind: false, lastError: null });
  });

  it('shows empty remote storage before anything was written', () => {
    const view = storageViewFromListing(location, [], { retained: [], savepoints: [], pending: [], sharedFiles: [] }, [], false, 'db', { latencyMs: 50, bandwidthMbPerS: 100, slowFactor: 1, failing: false });
    expect(view).toEqual({
      localDisks: [],
      checkpoints: [],
      savepoints: [],
      sharedFiles: [],
      localRecovery: false,
      remoteCost: { latencyMs: 50, bandwidthMbPerS: 100, slowFactor: 1, failing: false },
      database: { databaseName: 'db', jobDirectory: job, checkpointIds: [], sharedFiles: 0, files: 0, bytes: 0, behind: false, lastError: null },
    });
  });
});
