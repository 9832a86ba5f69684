/**
 * The storage leak checker: an invariant observer over a real CheckpointStorage, apart from the
 * code that writes and deletes. Every file under the job directory must belong to a checkpoint
 * that is still kept (retained by `num-retained` while the job runs; after it ended, only if the
 * externalized-checkpoint retention keeps them), and every file such a checkpoint refers to must
 * be there.
 *
 * A file belongs to a kept checkpoint n if it lies in `chk-n/` or if n's `_metadata` refers to it
 * (its shared SST files, task-owned files). Run it when nothing is being written (between
 * checkpoints, or after the job ended): an upload in flight looks like a leak.
 */
import type { ExternalizedCheckpointRetention } from '../config/flink-config.ts';
import type { JobStatus } from '../job/job-status.ts';
import { retainOnTermination, type CheckpointStorage } from './checkpoint-storage.ts';
import { checkpointDirectory, jobDirectory, metadataPath, parseJobPath } from './checkpoint-layout.ts';
import { decodeCheckpointMetadata, referencedFiles } from './checkpoint-files.ts';

export interface StorageLeakCheck {
  /** the ids the CompletedCheckpointStore retains (the last `num-retained` completed checkpoints) */
  retainedCheckpointIds: readonly number[];
  /** once the job reached a terminal status: the retention policy decides whether they stay */
  termination?: { policy: ExternalizedCheckpointRetention; jobStatus: JobStatus };
}

export interface StorageLeaks {
  /** files under the job directory no kept checkpoint owns or refers to (leaked) */
  orphaned: string[];
  /** files a kept checkpoint refers to that are gone (it could not be restored) */
  missing: string[];
  /** `_metadata` files of kept checkpoints that cannot be decoded */
  unreadable: string[];
}

/** The checkpoint ids that must still be in storage. */
export function keptCheckpointIds(check: StorageLeakCheck): number[] {
  if (check.termination && !retainOnTermination(check.termination.policy, check.termination.jobStatus)) return [];
  return [...check.retainedCheckpointIds];
}

export async function checkStorageLeaks(storage: CheckpointStorage, check: StorageLeakCheck): Promise<StorageLeaks> {
  const location = storage.location;
  const kept = new Set(keptCheckpointIds(check));
  const present = await storage.list(`${jobDirectory(location)}/`);
  const presentPaths = new Set(present.map((f) => f.path));

  const referenced = new Set<string>();
  const missing = new Set<string>();
  const unreadable: string[] = [];
  for (const id of [...kept].sort((a, b) => a - b)) {
    const directory = checkpointDirectory(location, id);
    const metaPath = metadataPath(directory);
    const bytes = await storage.readFile(metaPath);
    if (!bytes) {
      missing.add(metaPath);
      continue;
    }
    try {
      for (const path of referencedFiles(directory, decodeCheckpointMetadata(bytes))) referenced.add(path);
    } catch {
      unreadable.push(metaPath);
    }
  }
  for (const path of referenced) if (!presentPaths.has(path)) missing.add(path);

  const orphaned = present
    .map((f) => f.path)
    .filter((path) => {
      if (referenced.has(path)) return false;
      const where = parseJobPath(location, path);
      return !(where?.kind === 'checkpoint' && kept.has(where.checkpointId));
    });
  return { orphaned: orphaned.sort(), missing: [...missing].sort(), unreadable: unreadable.sort() };
}
