/**
 * The catch-up time after a failover (the second article's 容量规划): from RUNNING again until the
 * sources' pendingRecords is back at its level before the failure and stays there; the
 * `catch-up-time` expectation that bounds it, and how the scenario file writes it.
 */
import { describe, expect, it } from 'vitest';
import type { BacklogSample } from '../../engine/metrics/source-backlog.ts';
import { catchUpTimes, type CatchUp } from '../../engine/run/catch-up-time.ts';
import { checkExpectations, type ExpectationInputs } from '../../engine/run/expectations.ts';
import { NO_CHECKPOINT_OBSERVATIONS } from '../../engine/run/checkpoint-observations.ts';
import type { JobEvent, RestoreRecord } from '../../engine/run/job-events.ts';
import type { ExpectationSpec } from '../../engine/scenario/scenario-types.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { minimalFile } from '../scenario/scenario-samples.ts';

const restore = (time: number): RestoreRecord => ({ time, checkpointId: 1, isSavepoint: false, subtasks: [] });
const status = (time: number, s: 'RUNNING' | 'RESTARTING'): JobEvent => ({ type: 'job-status', time, status: s });
/** One sample a second from 1 s on: backlog[i] at (i + 1) s. */
const samples = (backlog: number[]): BacklogSample[] => backlog.map((pendingRecords, i) => ({ time: (i + 1) * 1000, pendingRecords }));

describe('the catch-up time of a restore', () => {
  // A failure at 4 s, RUNNING again at 6 s; the run is now at 12 s.
  const events = [status(0, 'RUNNING'), status(4000, 'RESTARTING'), status(6000, 'RUNNING')];
  it.each<[string, number[], CatchUp]>([
    ['is from RUNNING again to the first sample back at about 0', [0, 0, 0, 0, 2000, 3000, 500, 3, 0, 0, 0, 0], { catchUpMs: 2000, elapsedMs: 6000 }],
    ['waits until the backlog stays down: a dip is not caught up', [0, 0, 0, 0, 2000, 3000, 0, 400, 5, 0, 0, 0], { catchUpMs: 3000, elapsedMs: 6000 }],
    ['is back at the level the backlog had before the failure', [300, 250, 280, 0, 2000, 3000, 900, 290, 100, 300, 0, 0], { catchUpMs: 2000, elapsedMs: 6000 }],
    ['is null while the backlog is still above it', [0, 0, 0, 0, 2000, 3000, 2800, 2500, 2000, 1500, 1000, 500], { catchUpMs: null, elapsedMs: 6000 }],
    ['is 0 when nothing piled up', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], { catchUpMs: 0, elapsedMs: 6000 }],
  ])('%s', (_name, backlog, expected) => {
    expect(catchUpTimes([restore(6000)], events, samples(backlog), 12_000)).toEqual([expected]);
  });

  it('ends at the next failure: each restore is judged on its own stretch', () => {
    const twice = [...events, status(9000, 'RESTARTING'), status(10_000, 'RUNNING')];
    const backlog = [0, 0, 0, 0, 2000, 3000, 800, 600, 400, 5000, 4000, 0];
    expect(catchUpTimes([restore(6000), restore(10_000)], twice, samples(backlog), 12_000)).toEqual([
      { catchUpMs: null, elapsedMs: 3000 },
      { catchUpMs: 2000, elapsedMs: 2000 },
    ]);
  });
});

describe('the catch-up-time expectation', () => {
  const seen = (catchUps: CatchUp[]): ExpectationInputs => ({
    jobStatus: 'RUNNING',
    sinkRecords: 0,
    duplicates: 0,
    missing: 0,
    completedCheckpoints: 0,
    failedCheckpoints: 0,
    restores: catchUps.length,
    restoredSubtasks: [],
    checkpoints: NO_CHECKPOINT_OBSERVATIONS,
    catchUps,
  });
  const caughtUp = (ms: number): CatchUp => ({ catchUpMs: ms, elapsedMs: ms + 5000 });
  const notYet = (elapsedMs: number): CatchUp => ({ catchUpMs: null, elapsedMs });

  it.each<[string, ExpectationSpec, CatchUp[], boolean]>([
    ['holds for a max when every restore caught up within it', { type: 'catch-up-time', max: 5000 }, [caughtUp(1000), caughtUp(4000)], true],
    ['fails a max when the slowest restore took longer', { type: 'catch-up-time', max: 5000 }, [caughtUp(1000), caughtUp(9000)], false],
    ['fails a max while a restore has not caught up', { type: 'catch-up-time', max: 5000 }, [notYet(1000)], false],
    ['holds for a min once a restore is slower, caught up or not', { type: 'catch-up-time', min: 20_000 }, [notYet(25_000)], true],
    ['fails a min while the slow restore is young', { type: 'catch-up-time', min: 20_000 }, [notYet(3000)], false],
    ['does not hold before a restore', { type: 'catch-up-time', min: 0 }, [], false],
  ])('%s', (_name, expectation, catchUps, held) => {
    expect(checkExpectations([expectation], seen(catchUps))[0]!.held).toBe(held);
  });

  it('says what it saw', () => {
    const [result] = checkExpectations([{ type: 'catch-up-time', max: 5000 }], seen([caughtUp(1000), notYet(7000)]));
    expect(result!.actual).toBe('1 of 2 restores not caught up after 7 s');
  });
});

describe('catch-up-time in the scenario file', () => {
  const withExpectation = (expectation: unknown) => validateScenario({ ...minimalFile(), expectations: [expectation] });

  it('reads min and max as Flink durations', () => {
    const read = withExpectation({ type: 'catch-up-time', min: '2 s', max: '1 min' });
    expect(read.ok && read.scenario.expectations).toEqual([{ type: 'catch-up-time', min: 2000, max: 60_000 }]);
  });

  it.each([
    [{ type: 'catch-up-time' }, 'expectations[0].max', /needs a min, a max or both/],
    [{ type: 'catch-up-time', max: 'soon' }, 'expectations[0].max', /./],
    [{ type: 'catch-up-time', max: '5 s', aggregate: 'p50' }, 'expectations[0].aggregate', /./],
  ])('rejects %o at %s', (expectation, path, message) => {
    const read = withExpectation(expectation);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.errors.find((e) => e.path === path)?.message).toMatch(message);
  });
});
