/**
 * The expectations lessons state about checkpoints: the figures read from job events
 * (checkpoint-observations.ts), how a `statistic` expectation summarises and bounds them, and how
 * the scenario file writes them.
 */
import { describe, expect, it } from 'vitest';
import { aggregate, checkExpectations, type ExpectationInputs } from '../../engine/run/expectations.ts';
import { NO_CHECKPOINT_OBSERVATIONS, type CheckpointObservations } from '../../engine/run/checkpoint-observations.ts';
import { CheckpointStatsTracker } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import { observeCheckpoints } from '../../engine/run/checkpoint-observations.ts';
import type { JobEvent } from '../../engine/run/job-events.ts';
import type { ExpectationSpec } from '../../engine/scenario/scenario-types.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { minimalFile } from '../scenario/scenario-samples.ts';

const triggered = (time: number, checkpointId: number): JobEvent => ({ type: 'checkpoint-triggered', time, checkpointId, isSavepoint: false });
const completed = (time: number, checkpointId: number): JobEvent => ({ type: 'checkpoint-completed', time, checkpointId, isSavepoint: false });
const failed = (time: number, checkpointId: number, reason: string): JobEvent => ({ type: 'checkpoint-failed', time, checkpointId, reason });

function observe(events: JobEvent[]): CheckpointObservations {
  return observeCheckpoints(events, new CheckpointStatsTracker({ historySize: 10, vertices: [] }));
}

function inputs(checkpoints: Partial<CheckpointObservations>): ExpectationInputs {
  return {
    jobStatus: 'RUNNING',
    sinkRecords: 0,
    duplicates: 0,
    missing: 0,
    completedCheckpoints: 0,
    failedCheckpoints: 0,
    restores: 0,
    restoredSubtasks: [],
    checkpoints: { ...NO_CHECKPOINT_OBSERVATIONS, ...checkpoints },
    catchUps: [],
  };
}

const held = (e: ExpectationSpec, seen: ExpectationInputs) => checkExpectations([e], seen)[0]!.held;

describe('checkpoint observations from job events', () => {
  it('measures the pause from a completion to the next trigger, and 0 for a checkpoint triggered while another runs', () => {
    const seen = observe([triggered(0, 1), completed(300, 1), triggered(1000, 2), triggered(2000, 3), completed(2200, 2), completed(2500, 3), triggered(2500, 4)]);
    expect(seen.pausesMs).toEqual([700, 0, 0]);
    expect(seen.concurrent).toEqual([1, 1, 2, 1]);
    expect(seen.endToEndMs).toEqual([300, 1200, 500]);
  });

  it('measures a trigger exactly min-pause after a fractional completion time as the whole min-pause', () => {
    // 3631.9399250244137 + 500 = 4131.939925024413, which subtracts back to 499.99999999999955
    const completion = 3631.9399250244137;
    const seen = observe([triggered(3000, 1), completed(completion, 1), triggered(completion + 500, 2)]);
    expect(seen.pausesMs).toEqual([500]);
    expect(held({ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'min', min: 500 }, inputs(seen))).toBe(true);
  });

  it('keeps failure reasons, and a failed checkpoint is no longer in progress', () => {
    const seen = observe([triggered(0, 1), failed(2000, 1, 'CHECKPOINT_EXPIRED'), triggered(2100, 2)]);
    expect(seen.failureReasons).toEqual(['CHECKPOINT_EXPIRED']);
    expect(seen.concurrent).toEqual([1, 1]);
    expect(seen.pausesMs).toEqual([]); // nothing completed yet to measure a pause from
  });

  it('leaves savepoints out of the periodic checkpoints', () => {
    const seen = observe([triggered(0, 1), { type: 'checkpoint-triggered', time: 10, checkpointId: 2, isSavepoint: true }, completed(100, 1)]);
    expect(seen.concurrent).toEqual([1]);
    expect(seen.endToEndMs).toEqual([100]);
  });
});

describe('the statistic expectation', () => {
  it.each([
    ['min', 1],
    ['max', 9],
    ['avg', 4],
    ['p50', 3],
    ['p90', 9],
  ] as const)('summarises [3, 1, 9, 3] with %s as %d', (how, expected) => {
    expect(aggregate([3, 1, 9, 3], how)).toBe(expected);
  });

  it.each([
    [{ min: 2 }, true],
    [{ min: 4 }, false],
    [{ max: 3 }, true],
    [{ max: 2 }, false],
    [{ min: 3, max: 3 }, true],
  ])('bounds the p50 pause of [0, 3, 5] (3 ms) with %o: held %s', (bounds, expected) => {
    expect(held({ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'p50', ...bounds }, inputs({ pausesMs: [0, 3, 5] }))).toBe(expected);
  });

  it('does not hold while nothing was measured', () => {
    const [result] = checkExpectations([{ type: 'statistic', statistic: 'alignment-duration', aggregate: 'max', max: 100 }], inputs({}));
    expect(result).toMatchObject({ held: false, actual: 'no alignment-duration measured yet' });
  });

  it('counts only failures of the reason it names', () => {
    const seen = inputs({ failureReasons: ['CHECKPOINT_EXPIRED', 'IO_EXCEPTION', 'CHECKPOINT_EXPIRED'] });
    expect(held({ type: 'min-failed-checkpoints', value: 2, reason: 'CHECKPOINT_EXPIRED' }, seen)).toBe(true);
    expect(held({ type: 'min-failed-checkpoints', value: 2, reason: 'IO_EXCEPTION' }, seen)).toBe(false);
    expect(held({ type: 'min-failed-checkpoints', value: 3 }, seen)).toBe(true);
  });
});

describe('the min-restored-subtasks expectation', () => {
  const restore = (source: 'local' | 'remote', reason?: string) => ({ vertexId: 'count', subtaskIndex: 0, source, ...(reason ? { reason } : {}), bytes: 1, remoteBytes: 0, durationMs: 1 });
  const seen = { ...inputs({}), restoredSubtasks: [restore('local'), restore('remote', 'corrupt'), restore('remote', 'missing'), restore('local')] };

  it.each([
    [{ source: 'local', value: 2 }, true],
    [{ source: 'local', value: 3 }, false],
    [{ source: 'remote', value: 2 }, true],
    [{ source: 'remote', reason: 'corrupt', value: 1 }, true],
    [{ source: 'remote', reason: 'corrupt', value: 2 }, false],
    [{ source: 'remote', reason: 'different-slot', value: 1 }, false],
  ] as const)('counts subtask restores by source and reason: %o held %s', (bounds, expected) => {
    expect(held({ type: 'min-restored-subtasks', ...bounds }, seen)).toBe(expected);
  });
});

describe('the scenario file', () => {
  const withExpectation = (expectation: unknown) => validateScenario({ ...minimalFile(), expectations: [expectation] });

  it('reads a statistic with Flink durations as milliseconds, and concurrent-checkpoints as a count', () => {
    const read = withExpectation({ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'min', min: '500 ms', max: '2 s' });
    expect(read.ok && read.scenario.expectations).toEqual([{ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'min', min: 500, max: 2000 }]);
    const count = withExpectation({ type: 'statistic', statistic: 'concurrent-checkpoints', aggregate: 'max', max: 1 });
    expect(count.ok && count.scenario.expectations).toEqual([{ type: 'statistic', statistic: 'concurrent-checkpoints', aggregate: 'max', max: 1 }]);
  });

  it.each([
    [{ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'p50' }, 'expectations[0].max', /needs a min, a max or both/],
    [{ type: 'statistic', statistic: 'checkpoint-pauses', aggregate: 'p50', max: 0 }, 'expectations[0].statistic', /unknown checkpoint statistic/],
    [{ type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'median', max: 0 }, 'expectations[0].aggregate', /unknown statistic aggregate/],
    [{ type: 'min-failed-checkpoints', value: 1, reason: 'EXPIRED' }, 'expectations[0].reason', /unknown checkpoint failure reason/],
    [{ type: 'min-restored-subtasks', value: 1, source: 'disk' }, 'expectations[0].source', /unknown restore source/],
    [{ type: 'min-restored-subtasks', value: 1, source: 'remote', reason: 'broken' }, 'expectations[0].reason', /unknown local recovery fallback reason/],
  ])('rejects %o at %s', (expectation, path, message) => {
    const read = withExpectation(expectation);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.errors.find((e) => e.path === path)?.message).toMatch(message);
  });
});
