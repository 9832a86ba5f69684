/**
 * The Gantt view's pure layout (web/dashboard/checkpoint-gantt-layout.ts and its geometry): the
 * strip of recent checkpoints, the outlier rule max(p95, 1.5 × median), the stacked phases, the
 * straggler order, aborted, pending and unaligned subtasks; on a real Flink sample and on a real
 * run of a scenario with a hot key.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  CheckpointStatisticsDocument,
  CompletedSubtaskCheckpointStatisticsDocument,
  PendingSubtaskCheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../engine/checkpoint/stats/rest-document-types.ts';
import { importFlinkStatisticsText } from '../../engine/interop/flink-statistics-import.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { ganttGeometry, GANTT_AXIS_PX, GANTT_GROUP_PX, GANTT_ROW_PX, tickValues } from '../../web/dashboard/checkpoint-gantt-geometry.ts';
import { layoutCheckpoint, layoutStrip, outlierThreshold, stackedPhases, stripColor } from '../../web/dashboard/checkpoint-gantt-layout.ts';
import { importedGanttStatistics, runGanttStatistics } from '../../web/dashboard/gantt-statistics.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

const checkpoint = (id: number, over: Partial<CheckpointStatisticsDocument> = {}): CheckpointStatisticsDocument =>
  ({
    className: 'completed', id, status: 'COMPLETED', is_savepoint: false, savepointFormat: null, trigger_timestamp: 1000 * id, latest_ack_timestamp: 1000 * id + 100,
    checkpointed_size: 0, state_size: 0, end_to_end_duration: 100, alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: 2,
    num_acknowledged_subtasks: 2, checkpoint_type: 'CHECKPOINT', tasks: {}, external_path: null, discarded: false, ...over,
  }) as CheckpointStatisticsDocument;

const done = (index: number, phases: { delay?: number; align?: number; sync?: number; async?: number; e2e?: number }, over: Partial<CompletedSubtaskCheckpointStatisticsDocument> = {}): CompletedSubtaskCheckpointStatisticsDocument => {
  const { delay = 0, align = 0, sync = 0, async = 0 } = phases;
  const e2e = phases.e2e ?? delay + align + sync + async;
  return {
    className: 'completed', index, status: 'completed', ack_timestamp: 5000 + e2e, end_to_end_duration: e2e, checkpointed_size: 0, state_size: 0,
    checkpoint: { sync, async }, alignment: { buffered: 0, processed: 0, persisted: 0, duration: align }, start_delay: delay, unaligned_checkpoint: false, aborted: false, ...over,
  };
};
const pending = (index: number): PendingSubtaskCheckpointStatisticsDocument => ({ className: 'pending', index, status: 'pending_or_failed' });

const summary = { min: 0, max: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 };
const taskStats = (subtasks: TaskCheckpointStatisticsWithSubtaskDetailsDocument['subtasks']): TaskCheckpointStatisticsWithSubtaskDetailsDocument => ({
  id: 5, status: 'COMPLETED', latest_ack_timestamp: 0, checkpointed_size: 0, state_size: 0, end_to_end_duration: 0, alignment_buffered: 0, processed_data: 0,
  persisted_data: 0, num_subtasks: subtasks.length, num_acknowledged_subtasks: subtasks.length,
  summary: { checkpointed_size: summary, state_size: summary, end_to_end_duration: summary, checkpoint_duration: { sync: summary, async: summary }, alignment: { buffered: summary, processed: summary, persisted: summary, duration: summary }, start_delay: summary },
  subtasks,
});

describe('outlierThreshold', () => {
  it('is 1.5 × the median when that is above the p95', () => {
    // p95 of 10,10,10,11 interpolates to 10.85; 1.5 × median (10) = 15
    expect(outlierThreshold([10, 11, 10, 10])).toBe(15);
  });

  it('is the p95 (linear between order statistics) when that is above 1.5 × the median', () => {
    // sorted 15 16 17 18 18 18 19 20 26 38: p95 at position 8.55 = 26 + 0.55 × 12 = 32.6; 1.5 × 18 = 27
    expect(outlierThreshold([17, 19, 20, 18, 18, 26, 38, 15, 16, 18])).toBeCloseTo(32.6, 9);
  });

  it('says nothing (NaN) of fewer than two values, so a lone subtask is never an outlier', () => {
    expect(outlierThreshold([])).toBeNaN();
    expect(outlierThreshold([500])).toBeNaN();
  });
});

describe('layoutStrip', () => {
  it('puts the oldest checkpoint on the left, each as wide as its duration', () => {
    const strip = layoutStrip([checkpoint(3, { end_to_end_duration: 300 }), checkpoint(2, { end_to_end_duration: 100 }), checkpoint(1, { end_to_end_duration: 200 })], { widthPx: 604, gapPx: 2 });
    expect(strip.bars.map((b) => b.checkpointId)).toEqual([1, 2, 3]);
    expect(strip.bars.map((b) => b.width)).toEqual([200, 100, 300]);
    expect(strip.bars.map((b) => b.x)).toEqual([0, 202, 304]);
  });

  it('keeps a 0 ms checkpoint wide enough to click and still fits the width', () => {
    const strip = layoutStrip([checkpoint(2, { end_to_end_duration: 0 }), checkpoint(1, { end_to_end_duration: 1000 })], { widthPx: 100, gapPx: 0, minBarPx: 4 });
    expect(strip.bars[1]!.width).toBeGreaterThanOrEqual(3.8);
    const last = strip.bars[strip.bars.length - 1]!;
    expect(last.x + last.width).toBeCloseTo(100, 9);
  });

  it('shows at most the latest 60 checkpoints', () => {
    const history = Array.from({ length: 80 }, (_, i) => checkpoint(80 - i));
    const strip = layoutStrip(history, { widthPx: 1000 });
    expect(strip.bars).toHaveLength(60);
    expect(strip.bars[0]!.checkpointId).toBe(21);
    expect(strip.bars[59]!.checkpointId).toBe(80);
  });

  it('names each status colour, savepoints apart', () => {
    expect(stripColor({ status: 'COMPLETED', is_savepoint: false })).toBe('completed');
    expect(stripColor({ status: 'COMPLETED', is_savepoint: true })).toBe('savepoint');
    expect(stripColor({ status: 'IN_PROGRESS', is_savepoint: false })).toBe('in-progress');
    expect(stripColor({ status: 'FAILED', is_savepoint: true })).toBe('failed');
  });

  it('outlines checkpoint 90 (38 ms) of the Flink 1.15 sample, whose others took 15–26 ms', () => {
    const imported = importFlinkStatisticsText(readFileSync('/work/shared/flink-samples/01-checkpoints-flink-kubernetes-operator-flink115-history10.json', 'utf8'));
    if (!imported.ok) throw new Error(JSON.stringify(imported.problems));
    const statistics = importedGanttStatistics(imported.statistics, '?');
    const strip = layoutStrip(statistics.history, { widthPx: 800 });
    expect(strip.bars.map((b) => b.checkpointId)).toEqual([87, 88, 89, 90, 91, 92, 93, 94, 95, 96]);
    expect(strip.bars.filter((b) => b.outlier).map((b) => b.checkpointId)).toEqual([90]);
    expect(strip.outlierAboveMs).toBeCloseTo(32.6, 9);
  });
});

describe('importedGanttStatistics', () => {
  it('lists the checkpoints of the history and those only imported as details, newest first, with their subtasks responses', () => {
    const subtasks = taskStats([done(0, { async: 10 })]);
    const statistics = importedGanttStatistics(
      {
        checkpoints: { history: [checkpoint(9), checkpoint(7)] } as never,
        checkpointDetails: { '8': checkpoint(8), '9': checkpoint(9) },
        checkpointSubtaskDetails: [{ checkpointId: 8, vertexId: 'cbc357cc', statistics: subtasks }, { checkpointId: 8, vertexId: null, statistics: subtasks }],
      },
      'operator ?',
    );
    expect(statistics.history.map((c) => c.id)).toEqual([9, 8, 7]);
    expect(statistics.vertices(8).map((v) => [v.vertexId, v.name])).toEqual([['cbc357cc', 'cbc357cc'], ['operator ?', 'operator ?']]);
    expect(statistics.vertices(9)).toEqual([]);
  });
});

describe('stackedPhases', () => {
  it('lays start delay, alignment, sync and async end to end from the trigger', () => {
    expect(stackedPhases(done(0, { delay: 40, align: 10, sync: 5, async: 120 }))).toEqual([
      { phase: 'start-delay', startMs: 0, durationMs: 40 },
      { phase: 'alignment', startMs: 40, durationMs: 10 },
      { phase: 'sync', startMs: 50, durationMs: 5 },
      { phase: 'async', startMs: 55, durationMs: 120 },
    ]);
  });

  it('gives no room to a phase Flink did not measure (-1) or that took no time', () => {
    expect(stackedPhases(done(0, { delay: -1, align: 0, sync: 3, async: 7 }))).toEqual([
      { phase: 'sync', startMs: 0, durationMs: 3 },
      { phase: 'async', startMs: 3, durationMs: 7 },
    ]);
  });
});

describe('layoutCheckpoint', () => {
  it('puts the slowest subtask of each operator first and outlines the one above max(p95, 1.5 × median)', () => {
    const chart = layoutCheckpoint(checkpoint(5, { end_to_end_duration: 900 }), [
      { vertexId: 'count', name: 'Count', statistics: taskStats([done(0, { async: 100 }), done(1, { async: 900 }), done(2, { async: 110 }), done(3, { async: 95 })]) },
    ]);
    const rows = chart.groups[0]!.rows;
    expect(rows.map((r) => r.subtask)).toEqual([1, 2, 0, 3]);
    expect(rows.map((r) => r.outlier)).toEqual([true, false, false, false]);
    expect(chart.spanMs).toBe(900);
  });

  it('puts subtasks that have not acknowledged first, then orders operators by their slowest subtask', () => {
    const chart = layoutCheckpoint(checkpoint(5, { status: 'IN_PROGRESS', end_to_end_duration: 700 }), [
      { vertexId: 'source', name: 'Source', statistics: taskStats([done(0, { sync: 1, async: 5 }), done(1, { sync: 1, async: 6 })]) },
      { vertexId: 'count', name: 'Count', statistics: taskStats([done(0, { delay: 300, async: 50 }), pending(1)]) },
      { vertexId: 'sink', name: 'Sink', statistics: undefined },
    ]);
    expect(chart.groups.map((g) => g.vertexId)).toEqual(['count', 'source']);
    const count = chart.groups[0]!.rows;
    expect(count.map((r) => [r.subtask, r.state, r.endToEndMs])).toEqual([[1, 'pending', 700], [0, 'acknowledged', 350]]);
    expect(count[0]!.segments).toEqual([]);
  });

  it('marks an aborted subtask and leaves it out of the outlier rule', () => {
    const chart = layoutCheckpoint(checkpoint(5, { status: 'FAILED' }), [
      { vertexId: 'count', name: 'Count', statistics: taskStats([done(0, { async: 10 }), done(1, { async: 11 }), done(2, { async: 5000 }, { aborted: true })]) },
    ]);
    const aborted = chart.groups[0]!.rows.find((r) => r.subtask === 2)!;
    expect(aborted.state).toBe('aborted');
    expect(aborted.outlier).toBe(false);
    // the median of 10 and 11 is 10.5; 1.5 × 10.5 is above their p95 (10.95)
    expect(chart.groups[0]!.outlierAboveMs).toBe(15.75);
  });

  it('tells a subtask that took an unaligned checkpoint apart', () => {
    const chart = layoutCheckpoint(checkpoint(5), [
      { vertexId: 'join', name: 'Join', statistics: taskStats([done(0, { align: 30, async: 10 }, { unaligned_checkpoint: true }), done(1, { align: 30, async: 10 })]) },
    ]);
    expect(chart.groups[0]!.rows.map((r) => [r.subtask, r.unaligned])).toEqual([[0, true], [1, false]]);
  });
});

describe('ganttGeometry', () => {
  it('places an axis, then per operator a heading and a line per subtask, on one time scale', () => {
    const chart = layoutCheckpoint(checkpoint(5, { end_to_end_duration: 200 }), [
      { vertexId: 'a', name: 'A', statistics: taskStats([done(0, { async: 200 }), done(1, { async: 100 })]) },
      { vertexId: 'b', name: 'B', statistics: taskStats([done(0, { async: 50 })]) },
    ]);
    const geometry = ganttGeometry(chart, 1000);
    expect(geometry.lines.map((l) => [l.kind, l.y])).toEqual([
      ['group', GANTT_AXIS_PX],
      ['row', GANTT_AXIS_PX + GANTT_GROUP_PX],
      ['row', GANTT_AXIS_PX + GANTT_GROUP_PX + GANTT_ROW_PX],
      ['group', GANTT_AXIS_PX + GANTT_GROUP_PX + 2 * GANTT_ROW_PX],
      ['row', GANTT_AXIS_PX + 2 * GANTT_GROUP_PX + 2 * GANTT_ROW_PX],
    ]);
    expect(geometry.scale * 200).toBeCloseTo(geometry.plotWidth, 9);
    expect(geometry.ticks.map((t) => t.ms)).toEqual([0, 50, 100, 150, 200]);
  });

  it('ticks on a 1-2-5 step', () => {
    expect(tickValues(17)).toEqual([0, 5, 10, 15]);
    expect(tickValues(2300)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(tickValues(0)).toEqual([0]);
  });
});

describe('the Gantt layout of a real run', () => {
  let lsmStorage: LsmStorageFactory;
  beforeAll(async () => {
    lsmStorage = await nodeLsmStorage();
  });

  it('puts the hot-key subtask of the count operator first and outlines it', () => {
    const text = parseScenarioText(readFileSync('tests/doctor/scenarios/skewed-subtask.yaml', 'utf8'));
    if (!text.ok) throw new Error('not YAML');
    const valid = validateScenario(text.value);
    if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
    const simulation = new Simulation(valid.scenario, { lsmStorage });
    simulation.runToEnd();
    const stats = simulation.coordinator.stats;
    const gantt = runGanttStatistics(stats.checkpointingStatistics(), valid.scenario.job.vertices, (id, vertexId) => stats.taskCheckpointStatistics(id, vertexId));
    const latest = gantt.history.find((c) => c.status === 'COMPLETED')!;
    const chart = layoutCheckpoint(latest, gantt.vertices(latest.id));
    const count = chart.groups.find((g) => g.vertexId === 'count')!;
    expect(count.rows).toHaveLength(2);
    expect(count.rows[0]!.outlier).toBe(true);
    expect(count.rows[0]!.endToEndMs).toBeGreaterThan(3 * count.rows[1]!.endToEndMs);
    // downstream operators wait for the hot subtask's barriers too: operators go slowest first
    const slowest = chart.groups.map((g) => g.rows[0]!.endToEndMs);
    expect(slowest).toEqual([...slowest].sort((a, b) => b - a));
  }, 180_000);
});
