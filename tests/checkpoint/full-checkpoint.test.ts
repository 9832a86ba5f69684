/**
 * A checkpoint triggered with checkpointType FULL (Flink 1.19+, POST /jobs/:id/checkpoints): an
 * incremental backend uploads all its state for that one checkpoint, reusing no shared file, and
 * the checkpoints after it are incremental again, building on its files (SharingFilesStrategy
 * FORWARD). Flink's REST API still reports it as a CHECKPOINT.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { CheckpointTriggerType, Scenario } from '../../engine/scenario/scenario-types.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { minimalFile } from '../scenario/scenario-samples.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

/** a time when a CONFIGURED checkpoint of this job reuses most files (no compaction rewrote them just before) */
const TRIGGER_AT = 1900;

/** A keyed count on `backend` whose state grows; one manual checkpoint at TRIGGER_AT. */
function job(backend: 'rocksdb' | 'hashmap', checkpointType: CheckpointTriggerType | undefined): Scenario {
  const base = keyedCountJob({ keys: 2000, rate: 2000, count: 8000, parallelism: 2 });
  return {
    ...base,
    config: {
      'execution.checkpointing.interval': 400,
      'state.backend.type': backend,
      'execution.checkpointing.incremental': true,
      'state.backend.rocksdb.writebuffer.size': '64kb',
    },
    faults: [{ at_ms: TRIGGER_AT, type: 'trigger-checkpoint', ...(checkpointType === undefined ? {} : { checkpoint_type: checkpointType }) }],
  };
}

interface HistoryEntry {
  id: number;
  status: string;
  checkpoint_type: string;
  trigger_timestamp: number;
  state_size: number;
  checkpointed_size: number;
}

/** The manual checkpoint's history entry and the completed one right after it. */
function manualAndNext(backend: 'rocksdb' | 'hashmap', checkpointType: CheckpointTriggerType | undefined) {
  const sim = new Simulation(job(backend, checkpointType), { lsmStorage });
  let manualId: number | undefined;
  let manualCheckpoint: CompletedCheckpoint | undefined;
  sim.jobMaster.onEvent((e) => {
    if (e.type === 'checkpoint-triggered' && e.time === TRIGGER_AT && !e.isSavepoint) manualId ??= e.checkpointId;
    // Taken when it completes: a later checkpoint subsumes it.
    if (e.type === 'checkpoint-completed' && e.checkpointId === manualId) manualCheckpoint = sim.jobMaster.completed(e.checkpointId);
  });
  sim.runToEnd();
  const history = (sim.coordinator.stats.checkpointingStatistics() as { history: HistoryEntry[] }).history;
  const manual = history.find((h) => h.id === manualId)!;
  const next = history.filter((h) => h.id > manualId! && h.status === 'COMPLETED').sort((a, b) => a.id - b.id)[0]!;
  return { sim, manual, next, manualCheckpoint };
}

describe('a FULL checkpoint', () => {
  it.each<[string, 'rocksdb' | 'hashmap', CheckpointTriggerType | undefined, { uploadsEverything: boolean }]>([
    ['an incremental rocksdb backend, checkpointType FULL', 'rocksdb', 'FULL', { uploadsEverything: true }],
    ['an incremental rocksdb backend, checkpointType CONFIGURED', 'rocksdb', 'CONFIGURED', { uploadsEverything: false }],
    ['an incremental rocksdb backend, no checkpointType', 'rocksdb', undefined, { uploadsEverything: false }],
    ['the hashmap backend (always full), checkpointType FULL', 'hashmap', 'FULL', { uploadsEverything: true }],
  ])('on %s: checkpointed size equals the full size only when everything is uploaded', (_, backend, checkpointType, { uploadsEverything }) => {
    const { sim, manual } = manualAndNext(backend, checkpointType);
    expect(sim.jobStatus).toBe('FINISHED');
    expect(manual).toMatchObject({ status: 'COMPLETED', checkpoint_type: 'CHECKPOINT' });
    expect(manual.state_size).toBeGreaterThan(0);
    if (uploadsEverything) expect(manual.checkpointed_size).toBe(manual.state_size);
    else expect(manual.checkpointed_size).toBeLessThan(manual.state_size);
  });

  it.each<[CheckpointTriggerType, { reusesFiles: boolean }]>([
    ['FULL', { reusesFiles: false }],
    ['CONFIGURED', { reusesFiles: true }],
  ])('with checkpointType %s, reuses shared files of an earlier checkpoint: %o', (checkpointType, { reusesFiles }) => {
    const { manualCheckpoint } = manualAndNext('rocksdb', checkpointType);
    const files = [...manualCheckpoint!.taskStates.values()].flatMap((s) => s.sharedFiles ?? []);
    expect(files.length).toBeGreaterThan(0);
    expect(files.some((f) => f.contents === undefined)).toBe(reusesFiles);
  });

  it('lets the next checkpoint build on its files again (incremental after it)', () => {
    const { manual, next } = manualAndNext('rocksdb', 'FULL');
    expect(next.id).toBeGreaterThan(manual.id);
    expect(next.checkpointed_size).toBeLessThan(next.state_size);
  });

  it('keeps the output exactly-once', () => {
    const { sim } = manualAndNext('rocksdb', 'FULL');
    const reference = new Simulation({ ...job('rocksdb', undefined), faults: [] }, { lsmStorage });
    reference.runToEnd();
    expect(sim.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });
});

describe('the trigger-checkpoint fault of a scenario file', () => {
  it.each<[string, unknown, string | undefined]>([
    ['no checkpoint_type', undefined, undefined],
    ['checkpoint_type FULL', 'FULL', undefined],
    ['checkpoint_type CONFIGURED', 'CONFIGURED', undefined],
    ['checkpoint_type INCREMENTAL (Flink refuses it too)', 'INCREMENTAL', 'checkpoint_type'],
    ['checkpoint_type full (names are upper case)', 'full', 'checkpoint_type'],
  ])('reads %s', (_, checkpointType, errorPath) => {
    const file = { ...minimalFile(), faults: [{ at: '1 s', type: 'trigger-checkpoint', ...(checkpointType === undefined ? {} : { checkpoint_type: checkpointType }) }] };
    const result = validateScenario(file);
    if (errorPath === undefined) {
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.scenario.faults[0]).toEqual({ at_ms: 1000, type: 'trigger-checkpoint', ...(checkpointType === undefined ? {} : { checkpoint_type: checkpointType }) });
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.map((e) => e.path).join(' ')).toContain(errorPath);
    }
  });
});
