/**
 * A live TaskManager sends a local copy only the shared runs the host's disk does not hold yet;
 * it links the others. When a fault deletes the runs from the disk, the JobManager tells it so,
 * and the next copy sends them again: the disk is whole again without waiting for compaction.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { LiveDriver } from '../../workers/live/live-driver.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { inProcessTaskManagers } from './in-process-task-managers.ts';
import { until as waitUntil } from './until.ts';

function incrementalRocksDb(): Scenario {
  const base = keyedCountJob({ keys: 20_000, rate: 1000, count: 1_000_000, parallelism: 2 });
  return {
    ...base,
    config: {
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
      'state.backend.rocksdb.writebuffer.size': '16kb',
      'execution.checkpointing.interval': 200,
      'execution.checkpointing.local-backup.enabled': true,
      'execution.state-recovery.from-local': true,
      'heartbeat.interval': 1000,
      'heartbeat.timeout': 5000,
    },
    cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 },
  };
}

/** This file's waits: up to 30 s. */
const until = (condition: () => boolean, timeoutMs = 30_000) => waitUntil(condition, timeoutMs);

/** Runs `count#0`'s latest completed checkpoint references, and those of them its host's disk lacks. */
function runsOfLatest(live: LiveDriver): { checkpointId: number; referenced: string[]; lacking: string[] } {
  const latest = live.coordinator.latestCheckpoint();
  if (!latest) return { checkpointId: 0, referenced: [], lacking: [] };
  const referenced = (latest.taskStates.get('count#0')?.sharedFiles ?? []).map((f) => f.name);
  const store = live.localDisks().flatMap((d) => d.stores).find((s) => s.vertexId === 'count' && s.subtaskIndex === 0);
  const held = new Set(store?.runs.map((r) => r.name) ?? []);
  return { checkpointId: latest.id, referenced, lacking: referenced.filter((name) => !held.has(name)) };
}

let driver: LiveDriver | undefined;
afterEach(() => {
  driver?.dispose();
  driver = undefined;
});

describe('live task-local copies of incremental rocksdb checkpoints', () => {
  it('send again the shared runs a fault deleted from the host’s disk, so the next copy is whole', async () => {
    driver = await LiveDriver.start(incrementalRocksDb(), { launchTaskManager: inProcessTaskManagers().launch, heartbeatScale: 0.1, speed: 0.5, rocksdbLocalDirs: 'memory' });
    const live = driver;
    const createdBy = (name: string) => live.coordinator.sharedState.files().find((f) => f.name === name)?.createdByCheckpointId ?? Infinity;
    // Right after a compaction count#0's state is one run; the next checkpoints add an L0 run each
    // and keep referencing it until the next compaction (4 L0 runs on).
    await until(() => {
      const latest = runsOfLatest(live);
      return latest.checkpointId >= 2 && latest.referenced.length === 1 && latest.lacking.length === 0;
    });
    const host = live.taskManagers.find((tm) => tm.id === live.topology().subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 0)!.taskManager)!.host;
    const deletedAt = live.coordinator.latestCheckpoint()!.id;
    expect(live.deleteLocalCopy(host, 'count', 0)).toBeUndefined();
    // The first copy after the deletion links the run that is gone; the one after sends it again.
    await until(() => runsOfLatest(live).checkpointId >= deletedAt + 2);
    const after = runsOfLatest(live);
    expect(after.checkpointId).toBeLessThanOrEqual(deletedAt + 3);
    const old = after.referenced.filter((name) => createdBy(name) <= deletedAt);
    expect(old.length).toBeGreaterThan(0);
    // (This checkpoint's own new run may still be on its way to the disk.)
    expect(after.lacking.filter((name) => old.includes(name))).toEqual([]);
  }, 60_000);
});
