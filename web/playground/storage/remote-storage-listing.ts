/**
 * The storage view of a live run from what remote checkpoint storage (IndexedDB) really holds:
 * the files listed under the job directory, grouped into `chk-<id>` directories and `shared/`,
 * with each directory's timestamps and sizes from the coordinator where it knows the checkpoint.
 * A directory the coordinator neither retains nor has pending (an upload of an attempt that
 * failed over, not swept yet) is shown too: it is in storage, and the view shows storage.
 */
import type { CompletedCheckpoint } from '../../../engine/checkpoint/completed-checkpoint.ts';
import type { PendingCheckpoint } from '../../../engine/checkpoint/pending-checkpoint.ts';
import type { LocalDiskListing } from '../../../engine/recovery/host-local-disk.ts';
import { checkpointDirectory as checkpointPath, jobDirectory, parseJobPath, type CheckpointLocation } from '../../../engine/storage/checkpoint-layout.ts';
import type { StoredFile } from '../../../engine/storage/checkpoint-storage.ts';
import type { CheckpointDirectory, CheckpointFile, RemoteCostView, SharedFile, StorageView } from '../../storage/storage-view.ts';

/** What the coordinator knows, to label the listed directories. */
export interface KnownCheckpoints {
  retained: readonly CompletedCheckpoint[];
  savepoints: readonly CompletedCheckpoint[];
  pending: readonly PendingCheckpoint[];
  /** the shared state registry's files (incremental checkpoints) */
  sharedFiles: readonly SharedFile[];
}

/** `op-<vertex>-<index>` (exclusiveStatePath) → `vertex#index`. */
function subtaskOfFile(name: string): string | undefined {
  const match = /^op-(.+)-(\d+)$/.exec(name);
  return match ? `${decodeURIComponent(match[1]!)}#${match[2]}` : undefined;
}

function directoryOf(location: CheckpointLocation, id: number, files: CheckpointFile[], known: KnownCheckpoints, latestId: number | undefined): CheckpointDirectory {
  const completed = known.retained.find((c) => c.id === id) ?? known.savepoints.find((c) => c.id === id);
  const pending = known.pending.find((p) => p.id === id);
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  return {
    id,
    isSavepoint: completed?.isSavepoint ?? pending?.isSavepoint ?? false,
    path: completed?.externalPath ?? checkpointPath(location, id),
    triggerTimestamp: completed?.triggerTimestamp ?? pending?.triggerTimestamp ?? 0,
    completionTimestamp: completed?.completionTimestamp ?? 0,
    stateSize: completed?.stateSize ?? bytes,
    checkpointedSize: completed?.checkpointedSize ?? bytes,
    files,
    sharedFiles: [...new Set(completed ? [...completed.taskStates.values()].flatMap((s) => (s.sharedFiles ?? []).map((f) => f.name)) : [])].sort(),
    latest: id === latestId,
  };
}

export function storageViewFromListing(
  location: CheckpointLocation,
  listed: readonly StoredFile[],
  known: KnownCheckpoints,
  localDisks: LocalDiskListing[],
  localRecovery: boolean,
  databaseName: string,
  remoteCost: RemoteCostView,
): StorageView {
  const directories = new Map<number, CheckpointFile[]>();
  const shared: SharedFile[] = [];
  for (const file of listed) {
    const where = parseJobPath(location, file.path);
    if (where?.kind === 'checkpoint') {
      const subtask = subtaskOfFile(where.name);
      const entry: CheckpointFile = { name: where.name, bytes: file.sizeBytes, ...(subtask ? { subtask } : {}) };
      (directories.get(where.checkpointId) ?? directories.set(where.checkpointId, []).get(where.checkpointId)!).push(entry);
    } else if (where?.kind === 'shared') {
      const registered = known.sharedFiles.find((f) => f.name === where.name);
      shared.push({ name: where.name, sizeBytes: file.sizeBytes, createdByCheckpointId: registered?.createdByCheckpointId ?? 0, lastUsedCheckpointId: registered?.lastUsedCheckpointId ?? 0 });
    }
  }
  const latestId = known.retained.at(-1)?.id;
  const savepointIds = new Set(known.savepoints.map((c) => c.id));
  const all = [...directories].sort(([a], [b]) => a - b).map(([id, files]) => directoryOf(location, id, files, known, latestId));
  return {
    localDisks,
    checkpoints: all.filter((d) => !savepointIds.has(d.id)),
    savepoints: all.filter((d) => savepointIds.has(d.id)),
    sharedFiles: shared.sort((a, b) => a.createdByCheckpointId - b.createdByCheckpointId || (a.name < b.name ? -1 : 1)),
    localRecovery,
    remoteCost,
    // the listing is what the database holds: never behind, it is read from it
    database: {
      databaseName,
      jobDirectory: jobDirectory(location),
      checkpointIds: [...directories.keys()].sort((a, b) => a - b),
      sharedFiles: shared.length,
      files: listed.length,
      bytes: listed.reduce((n, f) => n + f.sizeBytes, 0),
      behind: false,
      lastError: null,
    },
  };
}
