/**
 * The write-behind mirror over real runs of the simulation (rocksdb, incremental checkpoints,
 * seeded faults), fed the JobMaster's storage effects as they happen: storage follows the
 * retained checkpoints in Flink's layout, every retained
 * checkpoint reads back exactly, and the storage leak checker finds nothing, during the run and
 * after it ended, on the memory store and on IndexedDB (fake-indexeddb).
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import type { CheckpointLocation, CheckpointStorage } from '../../engine/storage/checkpoint-storage.ts';
import { checkpointDirectory } from '../../engine/storage/checkpoint-layout.ts';
import { readCompletedCheckpoint } from '../../engine/storage/checkpoint-files.ts';
import { CheckpointStorageMirror, type CheckpointStorageEffect } from '../../engine/storage/checkpoint-storage-mirror.ts';
import { checkStorageLeaks } from '../../engine/storage/storage-leak-checker.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { CostModelledStorage } from '../../engine/storage/cost-modelled-storage.ts';
import { IndexedDbCheckpointStorage } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { randomFaultJob } from '../support/random-fault-job.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

const LOCATION: CheckpointLocation = { checkpointDir: 'file:///checkpoints', jobId: 'job' };
let databases = 0;

function scenario(seed: number, numRetained: number): Scenario {
  const base = randomFaultJob(seed, { mode: 'EXACTLY_ONCE', sink: 'two-phase-commit', unaligned: true });
  return {
    ...base,
    config: {
      ...base.config,
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
      'state.backend.rocksdb.writebuffer.size': '16kb',
      'execution.checkpointing.num-retained': numRetained,
      'execution.checkpointing.dir': LOCATION.checkpointDir,
    },
  };
}

interface MirroredRun {
  sim: Simulation;
  mirror: CheckpointStorageMirror;
  /** checkpoints the mirror was handed */
  completions: number;
  checkedMidRun: number;
  /** the job's job-terminated effect, held back so the test sees storage before retention applies */
  terminated: CheckpointStorageEffect | undefined;
}

/** Runs the simulation to its end, its storage effects handed to the mirror as they come (write-behind: not awaited). */
async function mirroredRun(storage: CheckpointStorage, seed: number, numRetained: number, onCompletion?: (n: number) => void): Promise<MirroredRun> {
  let terminated: CheckpointStorageEffect | undefined;
  let completions = 0;
  let checked = 0;
  let checkedMidRun = 0;
  const sim: Simulation = new Simulation(scenario(seed, numRetained), {
    lsmStorage,
    storageEffects: (effect) => {
      if (effect.type === 'job-terminated') return void (terminated = effect);
      if (effect.type === 'checkpoint-completed') onCompletion?.(completions);
      if (effect.type === 'checkpoint-completed') completions++;
      void mirror.apply(effect);
    },
  });
  const mirror = new CheckpointStorageMirror(storage, { sharedContents: (name) => sim.coordinator.sharedState.contents(name) });
  while (sim.step()) {
    if (completions === checked || completions % 3 !== 0) continue;
    checked = completions;
    // Now and then, wait for the mirror and check storage against what is retained right now.
    await mirror.idle();
    if (mirror.errors.length === 0) {
      const retained = sim.coordinator.store.getAllCheckpoints();
      expect(await checkStorageLeaks(storage, { retainedCheckpointIds: retained.map((c) => c.id) }), `seed ${seed}, mid-run`).toEqual({ orphaned: [], missing: [], unreadable: [] });
      checkedMidRun++;
    }
  }
  await mirror.idle();
  return { sim, mirror, completions, checkedMidRun, terminated };
}

const STORES: Array<{ name: string; open: () => Promise<CheckpointStorage> }> = [
  { name: 'memory', open: async () => new MemoryCheckpointStorage({ location: LOCATION }) },
  { name: 'indexeddb (fake-indexeddb)', open: () => IndexedDbCheckpointStorage.open({ databaseName: `mirror-${++databases}`, location: LOCATION }) },
];

describe.each(STORES)('the checkpoint storage mirror over the simulation: $name', ({ open }) => {
  it('keeps storage equal to the retained checkpoints (exact read-back, no leaks) through faults and restores, then cleans up as the job ends', async () => {
    let restored = 0;
    let checkpointsRead = 0;
    for (const [seed, numRetained] of [
      [25, 1],
      [27, 2],
      [10, 3],
    ] as const) {
      const storage = await open();
      const { sim, mirror, completions, checkedMidRun, terminated } = await mirroredRun(storage, seed, numRetained);
      const where = `seed ${seed}`;
      expect(mirror.errors, where).toEqual([]);
      expect(completions, where).toBeGreaterThan(2);
      expect(checkedMidRun, where).toBeGreaterThan(0);
      restored += sim.restores.length;

      const retained = sim.coordinator.store.getAllCheckpoints();
      expect(mirror.storedCheckpointIds, where).toEqual(retained.map((c) => c.id));
      expect(await checkStorageLeaks(storage, { retainedCheckpointIds: retained.map((c) => c.id) }), where).toEqual({ orphaned: [], missing: [], unreadable: [] });
      for (const checkpoint of retained) {
        const back = await readCompletedCheckpoint(storage, checkpointDirectory(LOCATION, checkpoint.id));
        expect(back.ok, where).toBe(true);
        expect(back.ok && back.checkpoint, where).toStrictEqual(checkpoint);
        checkpointsRead++;
      }

      // The job ended (FINISHED): Flink discards every checkpoint of a finished job.
      expect(sim.jobStatus, where).toBe('FINISHED');
      expect(terminated, where).toEqual({ type: 'job-terminated', retain: false, discard: retained.map((c) => c.id) });
      await mirror.apply(terminated!);
      expect(await storage.list(`${LOCATION.checkpointDir}/${LOCATION.jobId}/`), where).toEqual([]);
      expect(await checkStorageLeaks(storage, { retainedCheckpointIds: retained.map((c) => c.id), termination: { policy: sim.config.externalizedRetention, jobStatus: sim.jobStatus } })).toEqual({
        orphaned: [],
        missing: [],
        unreadable: [],
      });
      await storage.close();
    }
    expect(restored).toBeGreaterThan(0);
    expect(checkpointsRead).toBeGreaterThan(3);
  }, 120_000);

  it('catches up after the store was failing for a while (errors recorded, retried, no leaks at the end)', async () => {
    const inner = await open();
    const remote = new CostModelledStorage(inner, { latencyMs: 20, bandwidthMbPerS: 50 }, async () => {});
    const { sim, mirror } = await mirroredRun(remote, 25, 1, (n) => {
      remote.knobs.failing = n >= 2 && n < 6;
    });
    expect(mirror.errors.length).toBeGreaterThan(0);
    expect(mirror.errors.every((e) => e.error.reason === 'IO_EXCEPTION' && e.error.cause === 'injected')).toBe(true);
    // A healthy store again: what failed is tried again, as before the next request.
    await mirror.retryFailed();
    const retained = sim.coordinator.store.getAllCheckpoints().map((c) => c.id);
    expect(mirror.storedCheckpointIds).toEqual(retained);
    expect(await checkStorageLeaks(remote, { retainedCheckpointIds: retained })).toEqual({ orphaned: [], missing: [], unreadable: [] });
    expect(remote.stats.failedRequests).toBe(mirror.errors.length);
    await remote.close();
  }, 120_000);
});

describe('the checkpoint storage mirror, alone', () => {
  it('records a checkpoint it cannot encode (and writes it when handed it again), writes savepoints to their own directory and never deletes them', async () => {
    const storage = new MemoryCheckpointStorage({ location: LOCATION });
    const mirror = new CheckpointStorageMirror(storage, { savepointDir: 'file:///savepoints', seed: 9 });
    class NotPlain {}
    const checkpoint = (id: number, isSavepoint = false, keyedState: unknown = { n: id }) => ({
      id,
      isSavepoint,
      triggerTimestamp: 0,
      completionTimestamp: 1,
      externalPath: '',
      taskStates: new Map([['v#0', { subtask: { vertexId: 'v', subtaskIndex: 0 }, keyedState, stateSize: 1, checkpointedSize: 1 }]]),
      parallelism: { v: 1 },
      stateSize: 1,
      checkpointedSize: 1,
    });
    await mirror.add(checkpoint(1, false, new NotPlain()));
    expect(mirror.errors.map((e) => e.operation)).toEqual([{ op: 'mirror', detail: 'SnapshotCodecError: cannot encode a NotPlain at $.body.keyedState' }]);
    expect(mirror.storedCheckpointIds).toEqual([]);
    await mirror.add(checkpoint(1));
    await mirror.add(checkpoint(7, true));
    expect(mirror.storedCheckpointIds).toEqual([1]);
    const savepointDir = mirror.savepointDirectory(7)!;
    expect(savepointDir).toMatch(/^file:\/\/\/savepoints\/savepoint-job-[0-9a-f]{12}$/);
    const savepoint = await readCompletedCheckpoint(storage, savepointDir);
    expect(savepoint.ok && savepoint.checkpoint).toStrictEqual(checkpoint(7, true));
    await mirror.apply({ type: 'job-terminated', retain: false, discard: [1] });
    expect((await storage.list('')).map((f) => f.path)).toEqual([`${savepointDir}/_metadata`, `${savepointDir}/op-v-0`]);
  });
});
