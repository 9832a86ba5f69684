import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFlinkStatistics, importFlinkStatisticsText } from '../../engine/interop/flink-statistics-import.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';

/** A run with failures, restores, completed and failed checkpoints: its documents as `ckpt-lab run --json` writes them. */
function playgroundRun() {
  const text = parseScenarioText(readFileSync(new URL('../../public/scenarios/exactly-once-under-failures.yaml', import.meta.url), 'utf8'));
  if (!text.ok) throw new Error('scenario text');
  const valid = validateScenario(text.value);
  if (!valid.ok) throw new Error('scenario');
  const { report, simulation } = runScenario(valid.scenario);
  const stats = simulation.coordinator.stats;
  const vertexIds = valid.scenario.job.vertices.map((v) => v.id);
  const subtasks = Object.keys(report.checkpointDetails).flatMap((id) =>
    vertexIds.flatMap((vertexId) => {
      const statistics = stats.taskCheckpointStatistics(Number(id), vertexId);
      return statistics === undefined ? [] : [{ checkpointId: Number(id), vertexId, statistics }];
    }),
  );
  return { report, subtasks };
}

const run = playgroundRun();
const JOB = '8f2a0c4b6d1e3f5a7b9c0d2e4f6a8b0c';

function imported(document: unknown) {
  const result = importFlinkStatisticsText(JSON.stringify(document));
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
  return result.statistics;
}

describe('a playground run’s documents, imported as Flink’s', () => {
  it('the run is one worth importing: restores, several checkpoints, subtask documents', () => {
    const checkpoints = run.report.checkpoints as { counts: { completed: number; restored: number } };
    expect(checkpoints.counts.completed).toBeGreaterThan(3);
    expect(checkpoints.counts.restored).toBeGreaterThanOrEqual(2);
    expect(run.subtasks.length).toBeGreaterThan(3);
  });

  it('come back equal: checkpoints, config, every checkpoint’s details and every subtasks document', () => {
    expect(imported(run.report.checkpoints).checkpoints).toEqual(run.report.checkpoints);
    expect(imported(run.report.checkpointConfig).checkpointConfig).toEqual(run.report.checkpointConfig);
    for (const [id, details] of Object.entries(run.report.checkpointDetails)) {
      expect(imported(details).checkpointDetails).toEqual({ [id]: details });
    }
    for (const { checkpointId, statistics } of run.subtasks) {
      expect(imported(statistics).checkpointSubtaskDetails).toEqual([{ checkpointId, vertexId: null, statistics }]);
    }
  });

  it('are read in the current shape: Flink 1.17 and later', () => {
    expect(imported(run.report.checkpoints).flinkVersions).toEqual(['1.17', '1.18', '1.19', '1.20', '2.0', '2.1', '2.2']);
  });

  it('come back whole from a History Server archive of them, the job’s other responses skipped', () => {
    const entry = (path: string, document: unknown) => ({ path: `/jobs/${JOB}${path}`, json: JSON.stringify(document) });
    const archive = {
      archive: [
        { path: '/jobs/overview', json: JSON.stringify({ jobs: [] }) },
        entry('', { jid: JOB, state: 'FINISHED' }),
        entry('/checkpoints', run.report.checkpoints),
        entry('/checkpoints/config', run.report.checkpointConfig),
        ...Object.entries(run.report.checkpointDetails).map(([id, details]) => entry(`/checkpoints/details/${id}`, details)),
        ...run.subtasks.map((s) => entry(`/checkpoints/details/${s.checkpointId}/subtasks/${s.vertexId}`, s.statistics)),
      ],
    };
    const result = importFlinkStatistics(archive);
    if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
    expect(result.statistics).toEqual({
      endpoint: 'history-server-archive',
      flinkVersions: ['1.17', '1.18', '1.19', '1.20', '2.0', '2.1', '2.2'],
      checkpoints: run.report.checkpoints,
      checkpointConfig: run.report.checkpointConfig,
      checkpointDetails: run.report.checkpointDetails,
      checkpointSubtaskDetails: run.subtasks,
    });
  });
});
