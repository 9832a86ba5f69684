/**
 * A JobManager failover mid-run (the page reloaded while a live run was going): the new
 * JobManager recovers the latest completed checkpoint from its HA store and restores it
 * (CheckpointCoordinator#restoreLatestCheckpointedStateToAll). Unlike a savepoint it stays
 * Flink's: its shared files are registered, ids go on after it, and newer checkpoints subsume it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RestoreSourceChecker } from '../../engine/run/invariants/restore-source-checker.ts';
import { checkSharedStateLeaks } from '../../engine/checkpoint/shared-state-leak-checker.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import type { CheckpointStorageEffect } from '../../engine/storage/checkpoint-storage-mirror.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

/** A bounded keyed count into a two-phase-commit sink, incremental rocksdb, checkpoints every 100 ms. */
function job(): Scenario {
  const base = keyedCountJob({ keys: 40, rate: 2000, count: 4000 });
  const vertices = base.job.vertices.map((v) => (v.operator.type === 'sink' ? { ...v, operator: { type: 'sink' as const, sink: 'two-phase-commit' as const } } : v));
  return {
    ...base,
    job: { ...base.job, vertices },
    config: {
      'execution.checkpointing.interval': 100,
      'execution.checkpointing.mode': 'EXACTLY_ONCE',
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
      'state.backend.rocksdb.writebuffer.size': '16kb',
    },
  };
}

/** Runs the job until `interruptAt`, abandons it there, and starts a second JobManager that recovers its latest checkpoint. */
function interruptedAndRecovered(interruptAt: number) {
  const first = new Simulation(job(), { lsmStorage });
  first.runUntil(interruptAt);
  const recovered = first.coordinator.latestCheckpoint();
  if (!recovered) throw new Error(`no checkpoint had completed by ${interruptAt} ms`);
  const storageEffects: CheckpointStorageEffect[] = [];
  const sharedFile = (name: string) => first.coordinator.sharedState.contents(name);
  const second = new Simulation(job(), { lsmStorage, recoverFrom: { checkpoint: recovered, sharedFile }, sinkOutput: first.sinkOutput, storageEffects: (e) => storageEffects.push(e) });
  return { first, recovered, second, storageEffects };
}

describe('a JobManager failover that recovers the latest completed checkpoint', () => {
  it('restores that checkpoint first and finishes exactly-once against the failure-free run', () => {
    const { first, recovered, second } = interruptedAndRecovered(1000);
    expect(first.job.isTerminal).toBe(false);
    second.runToEnd();
    const reference = new Simulation(job(), { lsmStorage });
    reference.runToEnd();
    expect(second.jobStatus).toBe('FINISHED');
    expect(second.restores[0]).toMatchObject({ checkpointId: recovered.id, isSavepoint: false });
    expect(second.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('goes on with checkpoint ids after the recovered one', () => {
    const { recovered, second } = interruptedAndRecovered(1000);
    second.runToEnd();
    const ids = second.coordinator.store.getAllCheckpoints().map((c) => c.id);
    expect(Math.min(...ids)).toBeGreaterThan(recovered.id);
  });

  it('restores the recovered checkpoint again on a failover before a newer one completes', () => {
    const { recovered, second } = interruptedAndRecovered(1000);
    const checker = new RestoreSourceChecker();
    for (const event of second.events) checker.onEvent(event);
    second.onEvent((event) => checker.onEvent(event));
    second.runUntil(1);
    expect(second.coordinator.latestCheckpoint()?.id).toBe(recovered.id);
    expect(second.failTask('count', 0)).toBeUndefined();
    second.runToEnd();
    expect(second.restores.map((r) => r.checkpointId).slice(0, 2)).toEqual([recovered.id, recovered.id]);
    expect(second.jobStatus).toBe('FINISHED');
    expect(checker.verdict()).toEqual([]);
  });

  it('subsumes and discards the recovered checkpoint once newer ones complete, leaking none of its shared files', () => {
    const { recovered, second, storageEffects } = interruptedAndRecovered(1000);
    expect(second.coordinator.sharedState.files().length).toBeGreaterThan(0);
    second.runToEnd();
    const discarded = storageEffects.flatMap((e) => (e.type === 'discard-checkpoint' ? [e.checkpointId] : []));
    expect(discarded).toContain(recovered.id);
    expect(second.coordinator.store.getAllCheckpoints().map((c) => c.id)).not.toContain(recovered.id);
    expect(checkSharedStateLeaks(second.coordinator.sharedState, second.coordinator.store.getAllCheckpoints())).toEqual({ orphaned: [], missing: [] });
  });

  it('lets the next incremental checkpoint reuse shared files the recovered one uploaded', () => {
    const { recovered, second } = interruptedAndRecovered(1000);
    const recoveredFiles = new Set([...recovered.taskStates.values()].flatMap((s) => (s.sharedFiles ?? []).map((f) => f.name)));
    second.runToEnd();
    const firstAfter = Math.min(...second.events.flatMap((e) => (e.type === 'checkpoint-completed' ? [e.checkpointId] : [])));
    const usedLater = second.coordinator.sharedState.deleted.concat(second.coordinator.sharedState.files().map((f) => f.name));
    expect(firstAfter).toBe(recovered.id + 1);
    expect(usedLater.some((name) => recoveredFiles.has(name))).toBe(true);
  });

  it('keeps a savepoint the job is submitted from: it is never subsumed', () => {
    const first = new Simulation(job(), { lsmStorage });
    first.runUntil(1000);
    expect(first.triggerCheckpoint('savepoint')).toBeUndefined();
    first.runUntil(1500);
    const savepoint = first.coordinator.savepoints.at(-1)!;
    const storageEffects: CheckpointStorageEffect[] = [];
    const second = new Simulation(job(), { lsmStorage, fromSavepoint: savepoint, sinkOutput: first.sinkOutput, storageEffects: (e) => storageEffects.push(e) });
    second.runToEnd();
    expect(second.restores[0]?.checkpointId).toBe(savepoint.id);
    expect(storageEffects.some((e) => e.type === 'discard-checkpoint' && e.checkpointId === savepoint.id)).toBe(false);
  });
});
