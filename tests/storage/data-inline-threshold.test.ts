/**
 * `execution.checkpointing.data-inline-threshold` (Flink's FS_SMALL_FILE_THRESHOLD, default 20 kb):
 * a subtask's private state that encodes to at most the threshold is not a file of its own but a
 * ByteStreamStateHandle inside `_metadata` (FsCheckpointStateOutputStream#closeAndGetHandle:
 * `pos <= localStateThreshold`). Reading the checkpoint back gives the same state either way.
 */
import { describe, expect, it } from 'vitest';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { checkpointFiles, checkpointPlacement, decodeCheckpointMetadata, privateStateBytes, readCompletedCheckpoint, referencedFiles, taskSnapshotFiles } from '../../engine/storage/checkpoint-files.ts';
import { checkpointDirectory, metadataPath, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { CostModelledStorage } from '../../engine/storage/cost-modelled-storage.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { encodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' };
const PLACEMENT = checkpointPlacement(LOCATION, 3);

/** A keyed subtask's snapshot whose encoding grows with `keys`. */
function snapshot(index: number, keys: number): TaskStateSnapshot {
  const entries = new Map(Array.from({ length: keys }, (_, k) => [`key-${k}`, k]));
  return { subtask: { vertexId: 'count', subtaskIndex: index }, keyedState: { heap: entries }, stateSize: 26 * keys, checkpointedSize: 26 * keys } as unknown as TaskStateSnapshot;
}

function completed(snapshots: TaskStateSnapshot[]): CompletedCheckpoint {
  return {
    id: 3,
    isSavepoint: false,
    triggerTimestamp: 300,
    completionTimestamp: 330,
    externalPath: checkpointDirectory(LOCATION, 3),
    taskStates: new Map(snapshots.map((s) => [`${s.subtask.vertexId}#${s.subtask.subtaskIndex}`, s])),
    parallelism: { count: snapshots.length },
    stateSize: snapshots.reduce((n, s) => n + s.stateSize, 0),
    checkpointedSize: snapshots.reduce((n, s) => n + s.checkpointedSize, 0),
  };
}

describe('execution.checkpointing.data-inline-threshold', () => {
  it("defaults to Flink's 20 kb and reads the 1.x keys", () => {
    expect(readConfig({}).dataInlineThresholdBytes).toBe(20 * 1024);
    expect(readConfig({ 'state.storage.fs.memory-threshold': '4 kb' }).dataInlineThresholdBytes).toBe(4096);
    expect(readConfig({ 'state.backend.fs.memory-threshold': 100 }).dataInlineThresholdBytes).toBe(100);
  });

  const size = encodeTaskStateSnapshot(snapshot(0, 10)).byteLength;
  it.each([
    ['0 (every state a file)', 0, false],
    ['one byte below the state', size - 1, false],
    ['exactly the state (inline: at most the threshold)', size, true],
    ['the default 20 kb', 20 * 1024, true],
  ])('threshold %s: inline %s', (_name, threshold, inline) => {
    const upload = taskSnapshotFiles(PLACEMENT, snapshot(0, 10), undefined, threshold);
    expect(upload.reference.inline !== undefined).toBe(inline);
    expect(upload.files.map((f) => f.path)).toEqual(inline ? [] : [upload.reference.statePath]);
    expect(privateStateBytes(upload)).toEqual(encodeTaskStateSnapshot(snapshot(0, 10)));
  });

  it('writes only `_metadata` for small state, large state as files, and reads both back as they were', async () => {
    const storage = new MemoryCheckpointStorage({ location: LOCATION });
    const small = snapshot(0, 10);
    const large = snapshot(1, 2000);
    const checkpoint = completed([small, large]);
    expect(await storage.writeCheckpoint(3, checkpointFiles(PLACEMENT, checkpoint, { inlineThresholdBytes: 1024 }))).toBeUndefined();

    const listed = (await storage.list(checkpointDirectory(LOCATION, 3))).map((f) => f.path);
    expect(listed).toEqual([metadataPath(PLACEMENT.directory), `${PLACEMENT.directory}/op-count-1`]);
    const metadata = decodeCheckpointMetadata((await storage.readFile(metadataPath(PLACEMENT.directory)))!);
    expect(metadata.subtasks.map((s) => s.inline !== undefined)).toEqual([true, false]);
    expect(referencedFiles(PLACEMENT.directory, metadata)).toEqual(listed);

    const back = await readCompletedCheckpoint(storage, PLACEMENT.directory);
    expect(back.ok && back.checkpoint).toStrictEqual(checkpoint);
  });

  it('charges an upload with nothing to store as the model says and leaves the store untouched; a failing store still fails it', async () => {
    const inner = new MemoryCheckpointStorage({ location: LOCATION });
    const slept: number[] = [];
    const remote = new CostModelledStorage(inner, { latencyMs: 50, bandwidthMbPerS: 100 }, async (ms) => void slept.push(ms));
    expect(await remote.writeCheckpoint(3, [])).toBeUndefined();
    expect(slept).toEqual([50]);
    expect(await inner.list('')).toEqual([]);
    remote.knobs.failing = true;
    expect((await remote.writeCheckpoint(3, []))?.reason).toBe('IO_EXCEPTION');
  });
});
