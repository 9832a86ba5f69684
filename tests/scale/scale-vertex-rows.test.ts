/**
 * The scale run's job graph rows (web/scale/scale-vertex-rows.ts): one row per vertex with its
 * parallelism and its aggregate, read from the run's documents, checked against the run's own
 * records (the restores' subtasks, the latest checkpoint's per-task sizes).
 */
import { describe, expect, it } from 'vitest';
import type { CheckpointingStatisticsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import { ScaleRuntime } from '../../engine/scale/scale-runtime.ts';
import type { RestoreRecord } from '../../engine/run/job-events.ts';
import { restoreSourcesByVertex, scaleVertexRows } from '../../web/scale/scale-vertex-rows.ts';
import { scaleTopology } from '../../workers/scale-topology.ts';
import { scaleScenario } from './scale-scenarios.ts';

function runWithKillAndHostLoss(): ScaleRuntime {
  const runtime = new ScaleRuntime(
    scaleScenario({
      parallelism: 40,
      hosts: 4,
      ratePerSubtask: 1000,
      countCostUs: 250,
      scale: { state_size: '40 gb' },
      faults: [
        { at: '3 min', type: 'kill-task-manager', task_manager: 'tm-1' },
        { at: '6 min', type: 'lose-host', host: 'host-2' },
      ],
      until: '10 min',
    }),
  );
  runtime.runToEnd();
  return runtime;
}

describe('the scale job graph rows', () => {
  const runtime = runWithKillAndHostLoss();
  const checkpointing = runtime.coordinator.stats.checkpointingStatistics() as CheckpointingStatisticsDocument;
  const rows = scaleVertexRows({
    topology: scaleTopology(runtime),
    metrics: runtime.metrics(),
    checkpointing,
    checkpointDetails: (id) => runtime.coordinator.stats.checkpointDetails(id),
    restores: runtime.restores,
  });

  it('has one row per vertex with its parallelism, in the job graph\'s order', () => {
    expect(rows.map((r) => [r.id, r.parallelism])).toEqual([['events', 40], ['count', 40], ['sink', 40]]);
  });

  it('counts the latest restore\'s subtasks per vertex by where they read their state, with the slowest read', () => {
    const latest = runtime.restores.at(-1)!;
    for (const row of rows) {
      const subtasks = latest.subtasks.filter((s) => s.vertexId === row.id);
      expect(row.restore).toEqual({
        local: subtasks.filter((s) => s.source === 'local').length,
        remote: subtasks.filter((s) => s.source === 'remote').length,
        slowestMs: Math.max(...subtasks.map((s) => s.durationMs)),
      });
    }
    // the host loss: host-2's keyed subtasks read remotely, the others from their local copies
    const count = rows.find((r) => r.id === 'count')!.restore!;
    expect(count.local).toBeGreaterThan(0);
    expect(count.remote).toBeGreaterThan(0);
    expect(count.local + count.remote).toBe(40);
  });

  it('shows the state size of the latest completed checkpoint per vertex, and the sources\' backlog', () => {
    const latest = runtime.coordinator.stats.checkpointDetails(checkpointing.latest.completed!.id)!;
    expect(rows.map((r) => r.stateSize)).toEqual(['events', 'count', 'sink'].map((id) => latest.tasks[id]!.state_size));
    expect(rows.find((r) => r.id === 'count')!.stateSize).toBeGreaterThan(rows.find((r) => r.id === 'events')!.stateSize!);
    expect(rows.find((r) => r.id === 'events')!.pendingRecords).toBe(runtime.metrics().vertices['events']!.pendingRecords);
  });

  it('says nothing of a restore or a checkpoint before there was one', () => {
    const fresh = new ScaleRuntime(runtime.scenario);
    const before = scaleVertexRows({ topology: scaleTopology(fresh), metrics: null, checkpointing: null, checkpointDetails: () => undefined, restores: [] });
    expect(before.map((r) => [r.restore, r.stateSize, r.busyMsPerS])).toEqual([[null, null, null], [null, null, null], [null, null, null]]);
    expect(restoreSourcesByVertex(undefined as RestoreRecord | undefined)).toBeNull();
  });
});
