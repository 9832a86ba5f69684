/**
 * The write-behind mirror over real runs of the simulation (rocksdb, incremental checkpoints,
 * seeded faults): storage follows the retained checkpoints in Flink's layout, every retained
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
import { CheckpointStorageMirror } from '../../engine/storage/checkpoint-storage-mirror.ts';
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
  reconciles: number;
  checkedMidRun: number;
}

/** Runs the simulation to its end, reconciling the mirror whenever the retained set changed (write-behind: not awaited). */
async function mirroredRun(storage: CheckpointStorage, seed: number, numRetained: number, onReconcile?: (n: number) => void): Promise<MirroredRun> {
  const sim = new Simulation(scenario(seed, numRetained), { lsmStorage });
  const mirror = new CheckpointStorageMirror(storage, { sharedContents: (name) => sim.coordinator.sharedState.contents(name) });
  let reconciles = 0;
  let checkedMidRun = 0;
  let last = '';
  while (sim.step()) {
    const retained = sim.coordinator.store.getAllCheckpoints();
    const key = `${retained.map((c) => c.id).join(',')}|${sim.coordinator.savepoints.length}`;
    if (key === last) continue;
    last = key;
    onReconcile?.(reconciles);
    void mirror.reconcile(retained, sim.coordinator.savepoints);
    reconciles++;
    if (reconciles % 3 === 0) {
      // Now and then, wait for the mirror and check storage against what is retained right now.
      await mirror.idle();
      if (mirror.errors.length === 0) {
        expect(await checkStorageLeaks(storage, { retainedCheckpointIds: retained.map((c) => c.id) }), `seed ${seed}, mid-run`).toEqual({ orphaned: [], missing: [], unreadable: [] });
        checkedMidRun++;
      }
    }
  }
  await mirror.idle();
  return { sim, mirror, reconciles, checkedMidRun };
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
      const { sim, mirror, reconciles, checkedMidRun } = await mirroredRun(storage, seed, numRetained);
      const where = `seed ${seed}`;
      expect(mirror.errors, where).toEqual([]);
      expect(reconciles, where).toBeGreaterThan(2);
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
      await mirror.terminate(sim.config.externalizedRetention, sim.jobStatus);
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
    // One more reconcile with a healthy store, as the next change of the retained set would do.
    await mirror.reconcile(sim.coordinator.store.getAllCheckpoints(), sim.coordinator.savepoints);
    const retained = sim.coordinator.store.getAllCheckpoints().map((c) => c.id);
    expect(mirror.storedCheckpointIds).toEqual(retained);
    expect(await checkStorageLeaks(remote, { retainedCheckpointIds: retained })).toEqual({ orphaned: [], missing: [], unreadable: [] });
    expect(remote.stats.failedRequests).toBe(mirror.errors.length);
    await remote.close();
  }, 120_000);
});

describe('the checkpoint storage mirror, alone', () => {
  it('records a checkpoint it cannot encode (and retries it next time), writes savepoints to their own directory and never deletes them', async () => {
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
    await mirror.reconcile([checkpoint(1, false, new NotPlain())]);
    expect(mirror.errors.map((e) => e.operation)).toEqual([{ op: 'mirror', detail: 'SnapshotCodecError: cannot encode a NotPlain at $.body.keyedState' }]);
    expect(mirror.storedCheckpointIds).toEqual([]);
    await mirror.reconcile([checkpoint(1)], [checkpoint(7, true)]);
    expect(mirror.storedCheckpointIds).toEqual([1]);
    const savepointDir = mirror.savepointDirectory(7)!;
    expect(savepointDir).toMatch(/^file:\/\/\/savepoints\/savepoint-job-[0-9a-f]{12}$/);
    const savepoint = await readCompletedCheckpoint(storage, savepointDir);
    expect(savepoint.ok && savepoint.checkpoint).toStrictEqual(checkpoint(7, true));
    await mirror.terminate('NO_EXTERNALIZED_CHECKPOINTS', 'CANCELED');
    expect((await storage.list('')).map((f) => f.path)).toEqual([`${savepointDir}/_metadata`, `${savepointDir}/op-v-0`]);
  });
});
