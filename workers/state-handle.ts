/**
 * What a TaskManager acknowledges to the JobManager once a snapshot is in remote storage: the
 * snapshot's state *handle*, as in Flink, where the JobManager's CompletedCheckpoint holds
 * KeyedStateHandles (paths, sizes) and never the state's bytes. Keyed state and in-flight channel
 * state stay in storage (the JobManager reads them back when it restores); a shared file this
 * checkpoint uploaded keeps its name and size and is marked as uploaded (contents `null`) so the
 * SharedStateRegistry still registers it. Small operator state (the source offset, a
 * two-phase-commit sink's pending transactions) and the sizes travel as they are.
 */
import type { TaskStateSnapshot } from '../engine/protocol.ts';

/** `contents` of a shared file this checkpoint uploaded, in a handle: the bytes are in remote storage. */
export const UPLOADED_IN_STORAGE = null;

export function stateHandleOf(snapshot: TaskStateSnapshot): TaskStateSnapshot {
  const { keyedState: _keyed, channelState: _channels, sharedFiles, ...rest } = snapshot;
  if (!sharedFiles) return rest;
  return {
    ...rest,
    sharedFiles: sharedFiles.map((f) => (f.contents === undefined ? { name: f.name, sizeBytes: f.sizeBytes } : { name: f.name, sizeBytes: f.sizeBytes, contents: UPLOADED_IN_STORAGE })),
  };
}
