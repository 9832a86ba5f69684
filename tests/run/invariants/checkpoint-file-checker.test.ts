import { describe, expect, it } from 'vitest';
import { CheckpointFileChecker, type CheckpointFilesView } from '../../../engine/run/invariants/checkpoint-file-checker.ts';
import { SharedStateRegistry } from '../../../engine/checkpoint/shared-state-registry.ts';
import type { CompletedCheckpoint } from '../../../engine/checkpoint/completed-checkpoint.ts';
import type { TaskStateSnapshot } from '../../../engine/protocol.ts';

/** A retained checkpoint whose one subtask refers to `files`. */
function checkpoint(id: number, files: string[]): CompletedCheckpoint {
  const snapshot = { sharedFiles: files.map((name) => ({ name, sizeBytes: 10 })) } as unknown as TaskStateSnapshot;
  return { id, isSavepoint: false, triggerTimestamp: 0, completionTimestamp: 0, externalPath: `chk-${id}`, taskStates: new Map([['count#0', snapshot]]), parallelism: { count: 1 }, stateSize: 10, checkpointedSize: 10 };
}

function registryWith(files: string[]): SharedStateRegistry {
  const registry = new SharedStateRegistry();
  registry.registerAll(1, files.map((name) => ({ name, sizeBytes: 10, contents: name })));
  return registry;
}

function verdict(view: CheckpointFilesView): string[] {
  const checker = new CheckpointFileChecker(() => view);
  checker.onEvent({ type: 'checkpoint-completed', time: 5, checkpointId: 1, isSavepoint: false });
  return checker.verdict().map((v) => v.message);
}

describe('the checkpoint file checker', () => {
  it('passes storage that holds exactly the files the retained checkpoints refer to', () => {
    expect(verdict({ registry: registryWith(['a.sst', 'b.sst']), retained: [checkpoint(1, ['a.sst']), checkpoint(2, ['a.sst', 'b.sst'])], pendingCheckpoints: 0 })).toEqual([]);
  });

  it('flags a file deleted while a retained checkpoint refers to it, in flight or not', () => {
    expect(verdict({ registry: registryWith(['a.sst']), retained: [checkpoint(2, ['a.sst', 'b.sst'])], pendingCheckpoints: 1 })).toEqual(['b.sst is referenced by a retained checkpoint but was deleted']);
  });

  it('flags a file no retained checkpoint refers to once nothing is in flight, once however often it is seen', () => {
    const view = { registry: registryWith(['a.sst', 'old.sst']), retained: [checkpoint(2, ['a.sst'])], pendingCheckpoints: 0 };
    expect(verdict(view)).toEqual(['old.sst is in checkpoint storage but no retained checkpoint refers to it (leaked)']);
  });

  it('leaves a pending checkpoint\'s uploads alone', () => {
    expect(verdict({ registry: registryWith(['a.sst', 'new.sst']), retained: [checkpoint(2, ['a.sst'])], pendingCheckpoints: 1 })).toEqual([]);
  });
});
