/**
 * Upkeep of the live runtime's remote checkpoint storage (IndexedDB, here on fake-indexeddb):
 * a deletion that fails for real (its IndexedDB transaction aborted) is recorded and tried again
 * after the next completed checkpoint and when the job ends, so nothing leaks until the run's
 * database is deleted; a shared file the registry took back meanwhile is not deleted; and an
 * aborted checkpoint's shared file is not deleted under the next checkpoint's upload of it.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { CoordinatorEffect } from '../../engine/protocol.ts';
import { checkpointPlacement, taskSnapshotFiles } from '../../engine/storage/checkpoint-files.ts';
import { checkpointDirectory, sharedFilePath, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { LiveCheckpointStorage } from '../../workers/live/live-checkpoint-storage.ts';
import type { CheckpointStorageSpec } from '../../workers/protocol.ts';
import { IndexedDbCheckpointStorage } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { CoordinatorHarness, metricsAt, SINK0, snapshotOf, SRC0, statuses } from '../support/coordinator-harness.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'indexeddb://checkpoints', jobId: 'live-job' };
let databases = 0;

function spec(): CheckpointStorageSpec {
  return {
    databaseName: `upkeep-${++databases}`,
    location: LOCATION,
    remote: { latencyMs: 0, bandwidthMbPerS: 1000 },
    local: { latencyMs: 0, bandwidthMbPerS: 0 },
    localBackupEnabled: false,
  };
}

/** A coordinator whose checkpoints the test completes by hand, and the live storage over a fresh database. */
async function openUpkeep(): Promise<{ harness: CoordinatorHarness; storage: LiveCheckpointStorage; raw: IndexedDbCheckpointStorage }> {
  const harness = new CoordinatorHarness({ finalizeAsync: true, config: { 'execution.checkpointing.num-retained': 1 } });
  const storage = new LiveCheckpointStorage(spec(), harness.coordinator);
  await storage.open(async () => {});
  return { harness, storage, raw: storage.raw as IndexedDbCheckpointStorage };
}

/** Triggers and acknowledges a checkpoint, writes its `_metadata` and reports it written; returns what it subsumed. */
async function complete(harness: CoordinatorHarness, storage: LiveCheckpointStorage): Promise<{ id: number; discarded: number[] }> {
  const id = harness.checkpointNow();
  const finalize = harness.log.map((l) => l.effect).find((e): e is Extract<CoordinatorEffect, { type: 'finalize-checkpoint' }> => e.type === 'finalize-checkpoint' && e.checkpoint.id === id);
  expect(await storage.writeMetadata(finalize!.checkpoint as CompletedCheckpoint)).toBe(true);
  const effects = harness.finalized(id, true);
  const discarded = effects.flatMap((e) => (e.type === 'discard-checkpoint' ? [e.checkpointId] : []));
  return { id, discarded };
}

/** Aborts the next read-write transaction of `raw` for real, once. */
function abortNextTransaction(raw: IndexedDbCheckpointStorage): void {
  raw.onReadWriteTransaction = (tx) => {
    raw.onReadWriteTransaction = undefined;
    tx.abort();
  };
}

/** What the live driver does with the coordinator's storage effects. */
function applyEffects(storage: LiveCheckpointStorage, effects: readonly CoordinatorEffect[]): void {
  for (const effect of effects) {
    if (effect.type === 'discard-shared-files') storage.discardSharedFiles(effect.names);
    if (effect.type === 'discard-checkpoint') storage.discardCheckpoint(effect.checkpointId);
  }
}

/**
 * As a TaskManager does: the source's snapshot for checkpoint `id`, which uploaded run `name`, is
 * written to remote storage on its own connection, then acknowledged with its handle.
 */
async function uploadAndAck(harness: CoordinatorHarness, storage: LiveCheckpointStorage, raw: IndexedDbCheckpointStorage, id: number, name: string): Promise<CoordinatorEffect[]> {
  const snapshot = { ...snapshotOf(SRC0), sharedFiles: [{ name, sizeBytes: 8, contents: 'the run' }] };
  const upload = taskSnapshotFiles(checkpointPlacement(LOCATION, id), snapshot);
  expect(await raw.writeCheckpoint(id, upload.files)).toBeUndefined();
  storage.addReference(id, upload.reference);
  return harness.call((e, now) => harness.coordinator.receiveAcknowledge(id, SRC0, snapshot, metricsAt(now), now, e));
}

async function paths(raw: IndexedDbCheckpointStorage): Promise<string[]> {
  return (await raw.list('')).map((f) => f.path);
}

describe('upkeep of the live remote checkpoint storage', () => {
  it('retries discarding a subsumed checkpoint whose deletion was aborted, after the next checkpoint completes', async () => {
    const { harness, storage, raw } = await openUpkeep();
    const first = await complete(harness, storage);
    const second = await complete(harness, storage);
    expect(second.discarded).toEqual([first.id]);

    abortNextTransaction(raw);
    storage.discardCheckpoint(first.id);
    await storage.idle(false);
    expect(storage.errors.at(-1)).toMatch(/^Could not delete .*chk-1\/\. Caused by: AbortError/);
    expect(storage.pendingDeletions).toEqual({ checkpoints: [first.id], files: [] });
    expect(await paths(raw)).toContain(`${checkpointDirectory(LOCATION, first.id)}/_metadata`);

    const third = await complete(harness, storage);
    storage.discardCheckpoint(second.id);
    await storage.idle(true);
    expect(third.discarded).toEqual([second.id]);
    expect(storage.pendingDeletions).toEqual({ checkpoints: [], files: [] });
    // Only the retained checkpoint's directory is left (its `_metadata` and the state the JobManager wrote for it).
    const left = await paths(raw);
    expect(left).toContain(`${checkpointDirectory(LOCATION, third.id)}/_metadata`);
    expect(left.filter((p) => !p.startsWith(`${checkpointDirectory(LOCATION, third.id)}/`))).toEqual([]);
    storage.close();
  });

  it('retries deleting a shared file the registry let go of, unless a later checkpoint registered it again', async () => {
    const { harness, storage, raw } = await openUpkeep();
    const released = sharedFilePath(LOCATION, 'released-run');
    const reused = sharedFilePath(LOCATION, 'reused-run');
    expect(await raw.writeCheckpoint(0, [{ path: released, bytes: new Uint8Array(8) }, { path: reused, bytes: new Uint8Array(8) }])).toBeUndefined();

    // Two deletions, each its own transaction: both aborted for real.
    raw.onReadWriteTransaction = (tx) => tx.abort();
    storage.discardSharedFiles(['released-run', 'reused-run']);
    await storage.idle(false);
    raw.onReadWriteTransaction = undefined;
    expect(storage.pendingDeletions.files).toEqual([released, reused]);

    // A later incremental checkpoint uploads the same run again: the registry holds it once more.
    harness.coordinator.sharedState.registerAll(99, [{ name: 'reused-run', sizeBytes: 8, contents: 'the run' }]);
    await complete(harness, storage);
    await storage.idle(true);
    expect(storage.pendingDeletions).toEqual({ checkpoints: [], files: [] });
    const left = await paths(raw);
    expect(left).toContain(reused);
    expect(left).not.toContain(released);
    storage.close();
  });

  it("keeps an aborted checkpoint's shared file that the next checkpoint uploaded again before the JobManager came to delete it", async () => {
    const { harness, storage, raw } = await openUpkeep();
    // The JobManager's requests wait behind a slow one (remote storage slowed down, a `_metadata` write).
    let release = () => {};
    void storage.enqueue(() => new Promise<void>((resolve) => (release = resolve)));

    // Checkpoint 1: the source uploads run-a and acknowledges, the sink declines: it is aborted.
    const first = statuses(harness.trigger()).find((s) => s.status === 'triggered')!.checkpointId!;
    applyEffects(storage, await uploadAndAck(harness, storage, raw, first, 'run-a'));
    const declined = harness.decline(first); console.log("DECLINE", JSON.stringify(declined.map((e) => e.type + JSON.stringify((e as any).names ?? ""))));
    applyEffects(storage, declined);
    // Checkpoint 2: nothing confirmed run-a, so the source uploads it again, under the same name.
    const second = statuses(harness.trigger()).find((s) => s.status === 'triggered')!.checkpointId!;
    applyEffects(storage, await uploadAndAck(harness, storage, raw, second, 'run-a'));
    release();
    await storage.idle(true);
    console.log('AFTER', JSON.stringify(await paths(raw)), JSON.stringify(storage.errors), JSON.stringify(storage.pendingDeletions));

    const acked = harness.call((e, now) => harness.coordinator.receiveAcknowledge(second, SINK0, snapshotOf(SINK0), metricsAt(now), now, e));
    const finalize = acked.find((e): e is Extract<CoordinatorEffect, { type: 'finalize-checkpoint' }> => e.type === 'finalize-checkpoint');
    expect(await storage.writeMetadata(finalize!.checkpoint as CompletedCheckpoint)).toBe(true);
    applyEffects(storage, harness.finalized(second, true));
    await storage.idle(true);
    expect(harness.coordinator.latestCheckpoint()?.id).toBe(second);
    // The completed checkpoint refers to run-a: it must still be there to restore from.
    expect(await paths(raw)).toContain(sharedFilePath(LOCATION, 'run-a'));
    storage.close();
  });

  it('deletes what failed to be deleted when the job ends, even without another checkpoint', async () => {
    const { harness, storage, raw } = await openUpkeep();
    const first = await complete(harness, storage);
    const second = await complete(harness, storage);
    abortNextTransaction(raw);
    storage.discardCheckpoint(first.id);
    await storage.idle(false);
    expect(storage.pendingDeletions.checkpoints).toEqual([first.id]);

    storage.discardOnTermination([second.id]);
    await storage.idle(true);
    expect(storage.pendingDeletions).toEqual({ checkpoints: [], files: [] });
    expect(await paths(raw)).toEqual([]);
    await storage.close();
  });

  it('closes its connection once the requests queued before the close are done, resolving only then, and takes no request after it', async () => {
    const { harness, storage, raw } = await openUpkeep();
    const { id } = await complete(harness, storage);
    let release = () => {};
    const queued = storage.enqueue(() => new Promise<void>((resolve) => (release = resolve)));
    let closed = false;
    const closing = storage.close().then(() => (closed = true));
    // The run's database may only be deleted once this resolved: before, the connection is still in
    // use. A close that did not wait for the queued request would have resolved within these turns.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    expect(await paths(raw)).toContain(`${checkpointDirectory(LOCATION, id)}/_metadata`);
    await expect(storage.enqueue(() => raw.list(''))).rejects.toThrow('the live run was disposed');
    release();
    await queued;
    await closing;
    await expect(raw.list('')).rejects.toThrow('the checkpoint storage is closed');
  });
});
