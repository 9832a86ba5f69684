import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeLsmStorage } from '../../engine/cli/wa-sqlite-node.ts';
import { importFlinkStatisticsText, type ImportedFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';
import { reproduceAndCompare } from '../../engine/reproduce/calibrated-reproduction.ts';
import { reproduceScenario } from '../../engine/reproduce/reproduce-scenario.ts';
import type { ComparisonFigure, ComparisonRow } from '../../engine/reproduce/reproduction-comparison.ts';
import { reproduceProblemMessage } from '../../engine/reproduce/reproduction-messages.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { archiveOf, rocksdbConfig, type ArchivedJob } from './imported-job-archive.ts';

const sample = (name: string) => readFileSync(new URL(`../flink-samples/${name}`, import.meta.url), 'utf8');
const FLINK_115 = '01-checkpoints-flink-kubernetes-operator-flink115-history10.json';
const FLINK_191 = '08-checkpoints-soojae-study-flink191-38completed.json';

/** The model is "like the job" when its figure is within this factor of the imported one, either way. */
const WITHIN = 2;

function imported(text: string): ImportedFlinkStatistics {
  const result = importFlinkStatisticsText(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.statistics;
}

function row(rows: readonly ComparisonRow[], figure: ComparisonFigure): ComparisonRow {
  return rows.find((r) => r.figure === figure)!;
}

function expectWithinFactor(r: ComparisonRow): void {
  expect(r.ratio, `${r.figure}: imported ${r.imported}, model ${r.model}`).not.toBeNull();
  expect(r.ratio!).toBeGreaterThanOrEqual(1 / WITHIN);
  expect(r.ratio!).toBeLessThanOrEqual(WITHIN);
}

/** A large RocksDB job, incremental: 8 GiB of state, 600 MiB per checkpoint, 32 → 128 → 16 subtasks. */
const LARGE_JOB: ArchivedJob = {
  intervalMs: 30_000,
  vertices: [
    { id: 'cbc357ccb763df2852fee8c4fc7d55f2', subtasks: 32 },
    { id: '90bea66de1c231edf33913ecd54406c1', subtasks: 128 },
    { id: '6cdc5bb954874d922eaee11a8e7ca5be', subtasks: 16 },
  ],
  durationsMs: [4200, 3900, 5100, 4400, 12000, 4100, 3800, 4600, 4300, 4000],
  stateSizeBytes: 8 * 2 ** 30,
  checkpointedSizeBytes: 600 * 2 ** 20,
  failed: 2,
  config: rocksdbConfig({ mode: 'at_least_once', min_pause: 5_000, tolerable_failed_checkpoints: 3 }),
};

describe('reproducing the shared real Flink samples (no configuration, no per-vertex details)', () => {
  it.each([FLINK_115, FLINK_191])('%s: the model validates, runs, and its median duration and checkpointed size are within 2× of the imported', (name) => {
    const reproduction = reproduceAndCompare(imported(sample(name)));
    if (!reproduction.ok) throw new Error(reproduction.problem.code);
    const valid = validateScenario(reproduction.reproduced.document);
    expect(valid.ok).toBe(true);
    expectWithinFactor(row(reproduction.comparison, 'median-duration'));
    expectWithinFactor(row(reproduction.comparison, 'checkpointed-size'));
    expectWithinFactor(row(reproduction.comparison, 'full-size'));
    expect(row(reproduction.comparison, 'completed').model).toBeGreaterThanOrEqual(10);
  });

  it('takes the interval from the history’s trigger times when the config endpoint was not imported', () => {
    const derived = reproduceScenario(imported(sample(FLINK_115)));
    if (!derived.ok) throw new Error(derived.problem.code);
    expect((derived.reproduced.document['config'] as Record<string, unknown>)['execution.checkpointing.interval']).toBe('2000 ms');
  });

  it('builds source → keyed → sink at the job’s parallelism when there are no per-vertex details', () => {
    const derived = reproduceScenario(imported(sample(FLINK_115)));
    if (!derived.ok) throw new Error(derived.problem.code);
    const valid = validateScenario(derived.reproduced.document);
    if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
    expect(valid.scenario.job.vertices.map((v) => v.operator.type)).toEqual(['source', 'keyed-aggregate', 'sink']);
    expect(valid.scenario.job.edges.map((e) => e.partitioning)).toEqual(['hash', 'forward']);
  });

  it('says in both languages what was modelled and what was not', () => {
    const derived = reproduceScenario(imported(sample(FLINK_191)));
    if (!derived.ok) throw new Error(derived.problem.code);
    const valid = validateScenario(derived.reproduced.document);
    if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
    const english = valid.scenario.description;
    const chinese = valid.scenario.translations?.['zh-CN']?.description ?? '';
    expect(english).toMatch(/Not modelled: the records' contents, the real operators .*the network/);
    expect(chinese).toMatch(/没有模拟的部分：数据的内容、真实的算子.*网络/);
    expect(english).toContain('Nothing is scaled down: the job fits in a browser as it is.');
    expect(chinese).toContain('没有按比例缩小');
    expect(valid.scenario.translations?.['zh-CN']?.name).toBe('导入的 Flink 作业的模型');
  });
});

describe('reproducing a job with its configuration and per-vertex details', () => {
  const statistics = imported(archiveOf(LARGE_JOB));

  it('carries the checkpointing configuration over under Flink’s option keys', () => {
    const derived = reproduceScenario(statistics);
    if (!derived.ok) throw new Error(derived.problem.code);
    expect(derived.reproduced.document['config']).toMatchObject({
      'execution.checkpointing.interval': '30000 ms',
      'execution.checkpointing.timeout': '600000 ms',
      'execution.checkpointing.min-pause': '5000 ms',
      'execution.checkpointing.max-concurrent-checkpoints': 1,
      'execution.checkpointing.mode': 'AT_LEAST_ONCE',
      'execution.checkpointing.unaligned.enabled': false,
      'execution.checkpointing.tolerable-failed-checkpoints': 3,
      'execution.checkpointing.externalized-checkpoint-retention': 'RETAIN_ON_CANCELLATION',
      'state.backend.type': 'rocksdb',
      // 600 MiB of 8 GiB per checkpoint: the job's RocksDB is incremental
      'execution.checkpointing.incremental': true,
    });
  });

  it('keeps the vertices, their order and their parallelism ratios, scaled to at most 8 subtasks, and says the factor', () => {
    const derived = reproduceScenario(statistics);
    if (!derived.ok) throw new Error(derived.problem.code);
    const valid = validateScenario(derived.reproduced.document);
    if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
    expect(valid.scenario.job.vertices.map((v) => [v.name, v.parallelism])).toEqual([
      ['Source 1 (cbc357cc)', 2],
      ['Keyed 2 (90bea66d)', 8],
      ['Sink 3 (6cdc5bb9)', 1],
    ]);
    expect(derived.reproduced.parallelismScale).toBe(16);
    expect(derived.reproduced.stateScale).toBeGreaterThan(1000);
    expect(valid.scenario.description).toMatch(/parallelism ×1\/16/);
    expect(valid.scenario.description).toMatch(/state ×1\/\d{4,}/);
    expect(valid.scenario.translations?.['zh-CN']?.description).toMatch(/状态 ×1\/\d{4,}，并行度 ×1\/16/);
  });

  it('runs on RocksDB with sizes scaled back and the median duration, checkpointed and full size within 2×', async () => {
    const reproduction = reproduceAndCompare(statistics, await nodeLsmStorage());
    if (!reproduction.ok) throw new Error(reproduction.problem.code);
    expectWithinFactor(row(reproduction.comparison, 'median-duration'));
    expectWithinFactor(row(reproduction.comparison, 'checkpointed-size'));
    expectWithinFactor(row(reproduction.comparison, 'full-size'));
    expect(row(reproduction.comparison, 'failed')).toMatchObject({ imported: 2, ratio: null });
  }, 120_000);
});

describe('statistics that cannot be modelled', () => {
  const noCompleted = JSON.stringify({
    counts: { restored: 0, total: 0, in_progress: 0, completed: 0, failed: 0 },
    summary: { state_size: { min: 0, max: 0, avg: 0 }, end_to_end_duration: { min: 0, max: 0, avg: 0 }, alignment_buffered: { min: 0, max: 0, avg: 0 } },
    latest: { completed: null, savepoint: null, failed: null, restored: null },
    history: [],
  });

  it('refuses statistics without a completed checkpoint, naming the field and what is needed, in en and zh-CN', () => {
    const derived = reproduceScenario(imported(noCompleted));
    expect(derived).toEqual({ ok: false, problem: { code: 'no-completed-checkpoint', field: '$.history' } });
    if (derived.ok) return;
    expect(reproduceProblemMessage(derived.problem, 'en')).toMatch(/^`\$\.history`: the statistics hold no completed checkpoint \(expected .*COMPLETED/);
    expect(reproduceProblemMessage(derived.problem, 'zh-CN')).toMatch(/^`\$\.history`: 统计中没有完成的 checkpoint/);
  });

  it('refuses a configuration alone: it has no durations or sizes', () => {
    expect(reproduceScenario(imported(JSON.stringify(rocksdbConfig())))).toMatchObject({ ok: false, problem: { code: 'no-completed-checkpoint' } });
  });

  it('refuses one checkpoint without the configuration: the interval is unknown', () => {
    const one = { ...LARGE_JOB, durationsMs: [4200] };
    const archive = JSON.parse(archiveOf(one)) as { archive: { path: string }[] };
    archive.archive = archive.archive.filter((e) => !e.path.endsWith('/config'));
    const derived = reproduceScenario(imported(JSON.stringify(archive)));
    expect(derived).toEqual({ ok: false, problem: { code: 'no-interval', field: '$.interval' } });
  });

  it('takes a configuration with periodic checkpoints off (Long.MAX_VALUE) as no interval, and the history’s gaps instead', () => {
    const archive = JSON.parse(archiveOf({ ...LARGE_JOB, config: rocksdbConfig({ interval: 9223372036854775807 }) })) as unknown;
    const derived = reproduceScenario(imported(JSON.stringify(archive)));
    if (!derived.ok) throw new Error(derived.problem.code);
    expect((derived.reproduced.document['config'] as Record<string, unknown>)['execution.checkpointing.interval']).toBe('30000 ms');
  });
});
