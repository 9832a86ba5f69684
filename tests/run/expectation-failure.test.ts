import { describe, expect, it } from 'vitest';
import { checkExpectations, type ExpectationInputs } from '../../engine/run/expectations.ts';
import { failureLine } from '../../engine/run/expectation-failure.ts';
import { NO_CHECKPOINT_OBSERVATIONS } from '../../engine/run/checkpoint-observations.ts';
import type { ExpectationSpec } from '../../engine/scenario/scenario-types.ts';

const seen: ExpectationInputs = {
  jobStatus: 'FAILED',
  sinkRecords: 800,
  duplicates: 3,
  missing: 0,
  completedCheckpoints: 1,
  failedCheckpoints: 2,
  restores: 1,
  restoredSubtasks: [],
  restoreRecords: [{ time: 4000, checkpointId: 3, isSavepoint: false, subtasks: [{ vertexId: 'count', subtaskIndex: 2, source: 'remote', reason: 'corrupt', bytes: 10, remoteBytes: 10, durationMs: 5 }] }],
  checkpoints: { ...NO_CHECKPOINT_OBSERVATIONS, endToEndMs: [1000, 1200, 2400], checkpointedBytes: [3 * 1024 * 1024], pausesMs: [] },
  catchUps: [{ catchUpMs: 31_000, elapsedMs: 31_000 }],
};

describe('the line a failed expectation prints', () => {
  it.each<[ExpectationSpec, string]>([
    [{ type: 'restore-source', vertex: 'count', subtask: 2, source: 'local' }, 'expected count#2 to restore from local, got remote (corrupt)'],
    [{ type: 'statistic', statistic: 'end-to-end-duration', aggregate: 'p90', max: 2000 }, 'expected p90 end-to-end-duration ≤ 2 s, got 2.4 s'],
    [{ type: 'statistic', statistic: 'end-to-end-duration', aggregate: 'min', min: 1500, max: 2000 }, 'expected min end-to-end-duration between 1.5 s and 2 s, got 1 s'],
    [{ type: 'statistic', statistic: 'checkpointed-size', aggregate: 'max', max: 1024 * 1024 }, 'expected max checkpointed-size ≤ 1 MiB, got 3 MiB'],
    [{ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'p50', max: 10 }, 'expected p50 checkpoint-pause ≤ 10 ms, got nothing measured yet'],
    [{ type: 'catch-up-time', max: 20_000 }, 'expected the slowest catch-up time ≤ 20 s, got 31 s'],
    [{ type: 'job-status', status: 'FINISHED' }, 'expected job status FINISHED, got FAILED'],
    [{ type: 'exactly-once' }, 'expected exactly-once output (duplicates 0, missing 0), got duplicates 3, missing 0'],
    [{ type: 'min-sink-records', value: 1000 }, 'expected sink records ≥ 1000, got 800'],
    [{ type: 'min-completed-checkpoints', value: 3 }, 'expected completed checkpoints ≥ 3, got 1'],
    [{ type: 'max-failed-checkpoints', value: 0 }, 'expected failed checkpoints ≤ 0, got 2'],
    [{ type: 'min-restores', value: 2 }, 'expected restores ≥ 2, got 1'],
  ])('%j', (spec, line) => {
    const [result] = checkExpectations([spec], seen);
    expect({ held: result!.held, line: failureLine(result!) }).toEqual({ held: false, line });
  });
});
