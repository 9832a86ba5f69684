/**
 * The timeline of an imported Flink job (web/timeline/imported-timeline.ts): each history entry a
 * bar from its trigger to its end, on an axis from the first trigger, with the status Flink gave
 * it, and the run's gaps and min-pause read from the same model.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckpointStatisticsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import { importFlinkStatisticsText } from '../../engine/interop/flink-statistics-import.ts';
import { importedTimeline } from '../../web/timeline/imported-timeline.ts';

function history(file: string): CheckpointStatisticsDocument[] {
  const result = importFlinkStatisticsText(readFileSync(`tests/flink-samples/${file}`, 'utf8'));
  if (!result.ok || !result.statistics.checkpoints) throw new Error(`${file} is not a /checkpoints response`);
  return result.statistics.checkpoints.history;
}

const FLINK_115 = '01-checkpoints-flink-kubernetes-operator-flink115-history10.json';
const FLINK_19 = '08-checkpoints-soojae-study-flink191-38completed.json';

describe('the timeline of an imported job', () => {
  it('draws each checkpoint of the Flink 1.15 sample from its trigger, ms after the first, for its end-to-end duration', () => {
    const model = importedTimeline(history(FLINK_115), 0);
    const bars = [...model.checkpoints].sort((a, b) => a.id - b.id);
    expect(bars.map((c) => c.id)).toEqual([87, 88, 89, 90, 91, 92, 93, 94, 95, 96]);
    expect(bars[0]).toMatchObject({ start: 0, end: 18, status: 'COMPLETED', isSavepoint: false });
    // 90 was triggered at 1653212825603, 5 s 999 ms after 87 (1653212819604), and took 38 ms
    expect(bars.find((c) => c.id === 90)).toMatchObject({ start: 5_999, end: 6_037 });
    expect(model.now).toBe(1653212837604 + 17 - 1653212819604);
    expect(model.lanes).toBe(1);
  });

  it('measures the gaps between the imported checkpoints, and the min-pause after each completed one', () => {
    const model = importedTimeline(history(FLINK_115), 500);
    expect(model.gaps).toHaveLength(9);
    // 87 ended at 18 ms, 88 was triggered at 1653212821603 - 1653212819604 = 1999 ms
    expect(model.gaps.find((g) => g.afterId === 87)).toMatchObject({ beforeId: 88, from: 18, length: 1_981 });
    expect(model.pauses.find((p) => p.afterId === 87)).toEqual({ from: 18, to: 518, afterId: 87 });
  });

  it('draws the Flink 1.9 sample’s history and nothing a run records (faults, restores, outages)', () => {
    const model = importedTimeline(history(FLINK_19), 0);
    expect(model.checkpoints).toHaveLength(10);
    expect(model.checkpoints.every((c) => c.status === 'COMPLETED')).toBe(true);
    expect(Math.min(...model.checkpoints.map((c) => c.start))).toBe(0);
    expect([model.faults, model.restores, model.outages, model.dropped]).toEqual([[], [], [], []]);
  });

  it('colours a failed checkpoint as failed with Flink’s failure message, and leaves an in-progress one open to the end', () => {
    const [newest, older] = history(FLINK_115);
    const failed = { ...older!, className: 'failed', status: 'FAILED', failure_timestamp: older!.trigger_timestamp + 40, failure_message: 'Checkpoint expired before completing.' } as CheckpointStatisticsDocument;
    const pending = { ...newest!, className: 'in_progress', status: 'IN_PROGRESS', end_to_end_duration: -1 } as unknown as CheckpointStatisticsDocument;
    const model = importedTimeline([pending, failed], 0);
    expect(model.checkpoints.find((c) => c.id === failed.id)).toMatchObject({ status: 'FAILED', reason: 'Checkpoint expired before completing.' });
    expect(model.checkpoints.find((c) => c.id === pending.id)).toMatchObject({ status: 'IN_PROGRESS', end: model.now });
  });

  it('is empty for an import without a history', () => {
    expect(importedTimeline([], 0).checkpoints).toEqual([]);
  });
});
