/**
 * Task-local recovery of incremental rocksdb checkpoints in the simulation: a local copy holds
 * every SST run its checkpoint references, those reused from earlier checkpoints included (Flink's
 * native RocksDB checkpoint directory of hard links), so a local restore reads nothing remote; the
 * host's disk keeps each run once and only the runs of the retained copies; a damaged reused run
 * sends that subtask to remote storage with the reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import type { HostLocalDisk } from '../../engine/recovery/host-local-disk.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

const INCREMENTAL_LOCAL = {
  'state.backend.type': 'rocksdb',
  'execution.checkpointing.incremental': true,
  'state.backend.rocksdb.writebuffer.size': '16kb',
  'execution.checkpointing.local-backup.enabled': true,
  'execution.state-recovery.from-local': true,
  'execution.checkpointing.interval': 500,
} as const;

/** 5,000 keys counted on two hosts with one TaskManager each; state grows, so later checkpoints reuse runs. */
function job(faults: Scenario['faults']): Scenario {
  const base = keyedCountJob({ keys: 5000, rate: 2000, count: 10_000, parallelism: 2 });
  base.job.vertices[2]!.operator = { type: 'sink', sink: 'two-phase-commit' };
  return {
    ...base,
    config: { ...INCREMENTAL_LOCAL },
    faults,
    cluster: { hosts: 2, task_managers_per_host: 1, slots_per_task_manager: 2 },
    costs: { ...base.costs, remote_bandwidth_mb_per_s: 5, remote_latency_ms: 50, local_bandwidth_mb_per_s: 500, local_latency_ms: 0.5 },
  };
}

/**
 * After checkpoint 6 completed, before 7 did: with this job every second checkpoint follows a
 * compaction that rewrote all runs, and the others (6 among them) reuse runs of the one before.
 */
const KILL_AT = 3100;

function run(scenario: Scenario, until?: number): Simulation {
  const sim = new Simulation(scenario, { lsmStorage });
  if (until === undefined) sim.runToEnd();
  else sim.runUntil(until);
  return sim;
}

/** Reused runs of a subtask's snapshot in a completed checkpoint: referenced, not uploaded by it. */
function reusedRuns(sim: Simulation, checkpointId: number, subtaskIndex: number): string[] {
  const checkpoint = sim.coordinator.store.getAllCheckpoints().find((c) => c.id === checkpointId)!;
  const snapshot = checkpoint.taskStates.get(`count#${subtaskIndex}`)!;
  return (snapshot.sharedFiles ?? []).filter((f) => f.contents === undefined).map((f) => f.name);
}

function countStores(sim: Simulation) {
  return sim.localDisks().flatMap((d) => d.stores.map((s) => ({ host: d.host, ...s }))).filter((s) => s.vertexId === 'count');
}

function diskOf(sim: Simulation, host: string): HostLocalDisk {
  return sim.hostLocalDisks().find((d) => d.host === host)!;
}

describe('task-local recovery of incremental rocksdb checkpoints', () => {
  it('restores every keyed subtask from its local copy after a TaskManager is killed, reading 0 remote bytes, with the failure-free output', () => {
    const scenario = job([{ at_ms: KILL_AT, type: 'kill-task-manager', task_manager: 'tm-0' }]);
    const sim = run(scenario, KILL_AT - 1);
    // The checkpoint to restore reuses runs of earlier ones: what a copy of its uploads alone lacked.
    const latest = sim.coordinator.store.getAllCheckpoints().at(-1)!;
    for (const index of [0, 1]) expect(reusedRuns(sim, latest.id, index).length, `count#${index}`).toBeGreaterThan(0);
    sim.runToEnd();
    const restore = sim.restores[0]!;
    expect(restore.checkpointId).toBe(latest.id);
    const counts = restore.subtasks.filter((s) => s.vertexId === 'count');
    expect(counts.map((s) => [s.source, s.remoteBytes])).toEqual([
      ['local', 0],
      ['local', 0],
    ]);
    for (const s of counts) expect(s.bytes).toBeGreaterThan(0);
    const reference = run({ ...scenario, faults: [] });
    expect(sim.jobStatus).toBe('FINISHED');
    expect(sim.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('keeps on each host exactly the runs of the latest confirmed copy per subtask, each once', () => {
    const sim = run(job([]), 4200);
    const completed = sim.coordinator.store.getAllCheckpoints().filter((c) => !c.isSavepoint);
    expect(completed.at(-1)!.id).toBeGreaterThanOrEqual(5);
    for (const store of countStores(sim)) {
      const key = { allocationId: store.allocationId, jobId: store.jobId, subtask: { vertexId: store.vertexId, subtaskIndex: store.subtaskIndex } };
      const confirmed = store.copies.filter((c) => c.confirmed);
      expect(confirmed, store.directory).toHaveLength(1);
      // Copies newer than the confirmed one are pending (their checkpoint is not complete yet) and link runs too.
      const retained = store.copies.map((c) => diskOf(sim, store.host).retrieve(key, c.checkpointId)!);
      const linked = new Set(retained.flatMap((c) => c.runs));
      expect(store.runs.map((r) => r.name).sort(), store.directory).toEqual([...linked].sort());
      const latest = retained.find((c) => c.checkpointId === confirmed[0]!.checkpointId)!;
      if (retained.length === 1) expect(store.runs.map((r) => r.name).sort()).toEqual([...latest.runs].sort());
      // The confirmed copy's checkpoint reused runs of earlier ones: shared, not stored again.
      expect(reusedRuns(sim, latest.checkpointId, store.subtaskIndex).length).toBeGreaterThan(0);
    }
    // Each run counts once in the disk's bytes.
    for (const listing of sim.localDisks()) {
      const runs = listing.stores.flatMap((s) => s.runs);
      expect(new Set(runs.map((r) => r.path)).size).toBe(runs.length);
      const sharedBytes = runs.reduce((n, r) => n + r.bytes, 0);
      const copyBytes = listing.stores.reduce((n, s) => n + s.copies.reduce((m, c) => m + c.bytes, 0), 0);
      expect(listing.bytes).toBeGreaterThanOrEqual(sharedBytes);
      if (listing.stores.some((s) => s.copies.length > 1)) expect(listing.bytes).toBeLessThan(copyBytes);
    }
  });

  it('falls back to remote for the subtask whose reused run a fault corrupted or deleted, with the reason, and locally for the others', () => {
    const kill = { at_ms: KILL_AT, type: 'kill-task-manager', task_manager: 'tm-0' } as const;
    // A first run finds a run that count#0's latest confirmed copy reused from earlier checkpoints.
    const probe = run(job([kill]), KILL_AT - 1);
    const [store] = countStores(probe).filter((s) => s.subtaskIndex === 0);
    const latest = store!.copies.filter((c) => c.confirmed).at(-1)!;
    const reused = reusedRuns(probe, latest.checkpointId, 0);
    expect(reused.length).toBeGreaterThan(0);
    for (const [type, reason] of [
      ['corrupt-local-copy', 'corrupt'],
      ['delete-local-copy', 'missing'],
    ] as const) {
      // The same seeded run, with the fault on that run just before the kill.
      const scenario = job([{ at_ms: KILL_AT - 10, type, host: store!.host, vertex: 'count', subtask: 0, run: reused[0]! }, kill]);
      const sim = run(scenario);
      const fault = sim.events.flatMap((e) => (e.type === 'fault' && e.fault?.kind === type ? [e.fault] : []))[0];
      expect(fault).toMatchObject({ run: reused[0], paths: [`${store!.directory}/shared/${reused[0]}`] });
      const restore = sim.restores[0]!;
      expect(restore.checkpointId).toBe(latest.checkpointId);
      const counts = restore.subtasks.filter((s) => s.vertexId === 'count');
      expect(counts.map((s) => [s.source, s.reason, s.remoteBytes === s.bytes])).toEqual([
        ['remote', reason, true],
        ['local', undefined, false],
      ]);
      expect(counts[1]!.remoteBytes).toBe(0);
      const reference = run({ ...scenario, faults: [] });
      expect(sim.sinkOutput.compareTo(reference.sinkOutput), type).toEqual({ duplicates: 0, missing: 0 });
    }
  });
});
