/**
 * Shared files of aborted checkpoints (SharedStateRegistry's abandoned files). Run files are named
 * by their contents, so a subtask whose checkpoint was aborted uploads the same file again with its
 * next checkpoint (nothing confirmed one meanwhile). Deleting the aborted checkpoint's copy at once
 * could take that new upload with it, and the next checkpoint would complete referring to a file
 * that is gone: the live soak found a restore failing with FileNotFoundException that way. The
 * coordinator deletes them once a later checkpoint completed without them, or the attempt ended.
 */
import { describe, expect, it } from 'vitest';
import type { SharedFileHandle, SubtaskId } from '../../engine/protocol.ts';
import { CoordinatorHarness, metricsAt, ofType, SINK0, snapshotOf, SRC0, statuses } from '../support/coordinator-harness.ts';

/** A run file uploaded with a checkpoint (it carries its contents). */
function uploaded(name: string): SharedFileHandle {
  return { name, sizeBytes: 8, contents: `contents of ${name}` };
}

function ack(harness: CoordinatorHarness, checkpointId: number, subtask: SubtaskId, sharedFiles: SharedFileHandle[] = []) {
  return harness.call((e, now) => harness.coordinator.receiveAcknowledge(checkpointId, subtask, { ...snapshotOf(subtask), sharedFiles }, metricsAt(now), now, e));
}

function trigger(harness: CoordinatorHarness): number {
  const id = statuses(harness.trigger()).find((s) => s.status === 'triggered')?.checkpointId;
  if (id == null) throw new Error('the checkpoint did not start');
  return id;
}

function deletedNames(harness: CoordinatorHarness): string[] {
  return ofType(harness.log.map((l) => l.effect), 'discard-shared-files').flatMap((e) => e.names);
}

/** Checkpoint 1: the source uploads `run-a`, the sink declines, so it is aborted. */
function abortedUpload(): CoordinatorHarness {
  const harness = new CoordinatorHarness();
  const first = trigger(harness);
  ack(harness, first, SRC0, [uploaded('run-a')]);
  harness.decline(first);
  expect(harness.coordinator.sharedState.has('run-a')).toBe(false);
  return harness;
}

describe('shared files of an aborted checkpoint', () => {
  it('are not deleted when the checkpoint aborts, while the next checkpoint may upload the same file again', () => {
    const harness = abortedUpload();
    expect(deletedNames(harness)).toEqual([]);
    expect(harness.coordinator.sharedState.abandoned).toEqual(['run-a']);
  });

  it('stay when the next checkpoint uploads the same file again, and it completes referring to it', () => {
    const harness = abortedUpload();
    const second = trigger(harness);
    ack(harness, second, SRC0, [uploaded('run-a')]);
    ack(harness, second, SINK0);
    expect(harness.coordinator.latestCheckpoint()?.id).toBe(second);
    expect(deletedNames(harness)).toEqual([]);
    expect(harness.coordinator.sharedState.has('run-a')).toBe(true);
    expect(harness.coordinator.sharedState.abandoned).toEqual([]);
  });

  it('are deleted once a later checkpoint completed without them', () => {
    const harness = abortedUpload();
    const second = trigger(harness);
    ack(harness, second, SRC0, [uploaded('run-b')]);
    expect(deletedNames(harness)).toEqual([]);
    ack(harness, second, SINK0);
    expect(deletedNames(harness)).toEqual(['run-a']);
    expect(harness.coordinator.sharedState.abandoned).toEqual([]);
  });

  it('are deleted when a late acknowledgement brings them after the checkpoint was aborted, once a later one completed', () => {
    const harness = new CoordinatorHarness();
    const first = trigger(harness);
    harness.decline(first);
    expect(ack(harness, first, SRC0, [uploaded('late-run')])).toEqual([]);
    expect(harness.coordinator.sharedState.abandoned).toEqual(['late-run']);
    harness.checkpointNow();
    expect(deletedNames(harness)).toEqual(['late-run']);
  });

  it('are not released by a checkpoint older than the one that abandoned them', () => {
    const harness = new CoordinatorHarness({ config: { 'execution.checkpointing.max-concurrent-checkpoints': 2 } });
    const older = trigger(harness);
    const newer = trigger(harness);
    ack(harness, newer, SRC0, [uploaded('run-a')]);
    harness.decline(newer);
    harness.ackAll(older);
    expect(harness.coordinator.latestCheckpoint()?.id).toBe(older);
    expect(deletedNames(harness)).toEqual([]);
    expect(harness.coordinator.sharedState.abandoned).toEqual(['run-a']);
  });

  it('are deleted when the attempt ends: its tasks upload nothing more', () => {
    const harness = abortedUpload();
    harness.call((e, now) => harness.coordinator.shutdown(now, e));
    expect(deletedNames(harness)).toEqual(['run-a']);
  });
});
