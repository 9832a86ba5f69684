/**
 * The adapter from the page's imported Flink job to what the dashboard's tabs read
 * (web/dashboard/imported-dashboard-statistics.ts), on the shared Flink 1.15 and 1.9 samples, on a
 * History Server archive with a checkpoint's details and configuration, and on subtasks responses
 * a sim run wrote and the page fetched by URL; and the page's one imported job adding every import.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFlinkStatisticsText, type ImportedFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { importedDashboardStatistics, importedVertexIds, notReportedBy } from '../../web/dashboard/imported-dashboard-statistics.ts';
import { ImportedFlinkJob } from '../../web/dashboard/imported-flink-job.svelte.ts';
import { archiveOf, rocksdbConfig } from '../interop/imported-job-archive.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

const FLINK_115 = readFileSync('tests/flink-samples/01-checkpoints-flink-kubernetes-operator-flink115-history10.json', 'utf8');
const FLINK_19 = readFileSync('tests/flink-samples/08-checkpoints-soojae-study-flink191-38completed.json', 'utf8');

function imported(text: string): ImportedFlinkStatistics {
  const result = importFlinkStatisticsText(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.statistics;
}

const ARCHIVE = archiveOf({
  intervalMs: 10_000,
  vertices: [
    { id: 'cbc357ccb763df2852fee8c4fc7d55f2', subtasks: 2 },
    { id: '90bea66de1c231edf33913ecd54406c1', subtasks: 3 },
  ],
  durationsMs: [120, 90, 300],
  stateSizeBytes: 4_000_000,
  checkpointedSizeBytes: 400_000,
  failed: 1,
  config: rocksdbConfig(),
});

/** The word-count scenario run in the sim for 4 s: its /checkpoints response and one checkpoint's subtasks responses, each with its REST path. */
async function wordCountResponses(): Promise<{ checkpoints: string; checkpointId: number; subtasks: { path: string; text: string; vertexId: string }[] }> {
  const parsed = parseScenarioText(readFileSync('public/scenarios/word-count.yaml', 'utf8'));
  if (!parsed.ok) throw new Error('word-count.yaml is not YAML');
  const valid = validateScenario(parsed.value);
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  const simulation = new Simulation(valid.scenario, { lsmStorage: await nodeLsmStorage() });
  simulation.runUntil(4_000);
  const stats = simulation.coordinator.stats;
  const checkpoints = stats.checkpointingStatistics();
  const checkpointId = checkpoints.history.find((c) => c.status === 'COMPLETED')!.id;
  const subtasks = valid.scenario.job.vertices.map((v) => ({
    vertexId: v.id,
    path: `/jobs/a1b2/checkpoints/details/${checkpointId}/subtasks/${v.id}`,
    text: JSON.stringify(stats.taskCheckpointStatistics(checkpointId, v.id)),
  }));
  return { checkpoints: JSON.stringify(checkpoints), checkpointId, subtasks };
}

describe('an imported job as the dashboard tabs read it', () => {
  it('gives the Overview and History the Flink 1.15 sample’s counts, latest completed, savepoint and restore, and history as Flink wrote them', () => {
    const statistics = imported(FLINK_115);
    const tabs = importedDashboardStatistics(statistics, statistics.flinkVersions);
    expect(tabs.source).toBe('imported');
    expect(tabs.checkpointing?.counts).toEqual({ restored: 1, total: 79, in_progress: 0, completed: 69, failed: 10 });
    expect(tabs.checkpointing?.latest.completed?.id).toBe(96);
    expect(tabs.checkpointing?.latest.savepoint?.id).toBe(51);
    expect(tabs.checkpointing?.latest.failed).toBeNull();
    expect(tabs.checkpointing?.latest.restored).toMatchObject({ id: 27, is_savepoint: true });
    expect(tabs.checkpointing?.history.map((c) => c.id)).toEqual([96, 95, 94, 93, 92, 91, 90, 89, 88, 87]);
    // a run's own facts do not exist for an import
    expect(tabs.events).toEqual([]);
    expect(tabs.restores).toEqual([]);
    expect(tabs.options).toBeNull();
    expect(tabs.checkpointConfig).toBeNull();
  });

  it('says which figures Flink 1.9 did not report (percentiles, checkpointed size, in-flight data), naming the releases the response fits', () => {
    const statistics = imported(FLINK_19);
    expect(statistics.flinkVersions[0]).toBe('1.9');
    const tabs = importedDashboardStatistics(statistics, statistics.flinkVersions);
    expect(tabs.checkpointing?.counts.completed).toBe(38);
    expect(notReportedBy(tabs.flinkVersions, 'percentiles')).toBe('1.9–1.11');
    expect(notReportedBy(tabs.flinkVersions, 'checkpointed_size')).toBe('1.9–1.11');
    expect(notReportedBy(tabs.flinkVersions, 'processed_data')).toBe('1.9–1.11');
  });

  it('says nothing is missing for the Flink 1.15 sample, nor for a run', () => {
    const statistics = imported(FLINK_115);
    for (const feature of ['percentiles', 'checkpointed_size', 'processed_data'] as const) {
      expect(notReportedBy(statistics.flinkVersions, feature)).toBeNull();
      expect(notReportedBy(null, feature)).toBeNull();
    }
  });

  it('names no release when the imported documents fit none together', () => {
    expect(notReportedBy([], 'percentiles')).toBeNull();
  });

  it('opens a checkpoint with its details response where imported, else with its history entry (no operators)', () => {
    const statistics = imported(ARCHIVE);
    const tabs = importedDashboardStatistics(statistics, statistics.flinkVersions);
    expect(Object.keys(tabs.checkpointDetails(3)!.tasks)).toEqual(['cbc357ccb763df2852fee8c4fc7d55f2', '90bea66de1c231edf33913ecd54406c1']);
    expect(tabs.checkpointDetails(2)).toMatchObject({ id: 2, end_to_end_duration: 90, tasks: {} });
    expect(tabs.checkpointDetails(42)).toBeUndefined();
    expect(tabs.checkpointConfig).toMatchObject({ interval: 30_000, min_pause: 5_000, state_backend: 'EmbeddedRocksDBStateBackend' });
  });

  it('lists the operators by the vertex ids the responses name, since Flink’s checkpoint documents carry no names', () => {
    const statistics = imported(ARCHIVE);
    expect(importedVertexIds(statistics)).toEqual(['cbc357ccb763df2852fee8c4fc7d55f2', '90bea66de1c231edf33913ecd54406c1']);
    const tabs = importedDashboardStatistics(statistics, statistics.flinkVersions);
    expect(tabs.vertices).toEqual([
      { id: 'cbc357ccb763df2852fee8c4fc7d55f2', name: 'cbc357ccb763df2852fee8c4fc7d55f2' },
      { id: '90bea66de1c231edf33913ecd54406c1', name: '90bea66de1c231edf33913ecd54406c1' },
    ]);
    expect(tabs.placement('cbc357ccb763df2852fee8c4fc7d55f2').size).toBe(0);
  });
});

describe('the page’s one imported job', () => {
  it('adds every import to the same job: the checkpoints, then each operator’s subtasks fetched by URL, matched to their checkpoint and operator', async () => {
    const { checkpoints, checkpointId, subtasks } = await wordCountResponses();
    const job = new ImportedFlinkJob();
    expect(await job.addText(checkpoints)).toBe(true);
    for (const response of subtasks) expect(await job.addText(response.text, response.path)).toBe(true);
    expect(job.endpoints).toHaveLength(1 + subtasks.length);

    const tabs = importedDashboardStatistics(job.documents, job.versions);
    expect(tabs.checkpointing?.history.some((c) => c.id === checkpointId)).toBe(true);
    expect(tabs.vertices.map((v) => v.id)).toEqual(['lines', 'words', 'count', 'sink']);
    const count = tabs.taskCheckpointStatistics(checkpointId, 'count');
    expect(count?.subtasks.length).toBeGreaterThan(0);
    expect(count).toEqual(JSON.parse(subtasks.find((s) => s.vertexId === 'count')!.text));
    expect(tabs.taskCheckpointStatistics(checkpointId + 1_000, 'count')).toBeUndefined();
  });

  it('keeps what it holds when an import is refused, and says where the JSON was wrong', async () => {
    const job = new ImportedFlinkJob();
    await job.addText(FLINK_115);
    expect(await job.addText('{"jobs": []}')).toBe(false);
    expect(job.problems[0]?.path).toBe('$');
    expect(job.documents.checkpoints?.counts.total).toBe(79);
    expect(job.held).toBe(true);
  });

  it('narrows the releases to those that write every imported response', async () => {
    const job = new ImportedFlinkJob();
    await job.addText(ARCHIVE);
    expect(job.versions[0]).toBe('1.17');
    await job.addText(FLINK_115);
    expect(job.versions).toEqual([]);
  });
});
