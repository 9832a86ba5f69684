/**
 * Lesson 11's last claim, which a single run cannot show: a job resumed from the savepoint that
 * stop-with-savepoint took neither repeats nor loses a record; resumed from the checkpoint a cancel
 * left behind, a plain sink writes the records since that checkpoint again. Checked against an
 * independent oracle: the same job run once, failure-free, to the end of its (bounded) input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { savepointsAndRetention as lesson } from '../../engine/lessons/catalog/savepoints-and-retention.ts';
import { lessonOperations, lessonScenarioInput } from '../../engine/lessons/lesson-scenario.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';

/** records per source subtask: the input ends at 8 s, after the stop (5 s) and the cancel (6.5 s) */
const RECORDS = 4000;

/** The lesson's scenario after `upTo` steps, its sources bounded so the jobs can run to the end of the input. */
function bounded(upTo: number, sink: 'plain' | 'two-phase-commit' = 'two-phase-commit'): Scenario {
  const parsed = parseScenarioText(readFileSync(join('public', lesson.scenario), 'utf8'));
  if (!parsed.ok) throw new Error(formatScenarioErrors(parsed.errors));
  const input = lessonScenarioInput(lesson, parsed.value as Record<string, unknown>, upTo) as { job: { vertices: Record<string, unknown>[] } };
  const vertices = input.job.vertices.map((v) => (v['id'] === 'source' ? { ...v, source: { ...(v['source'] as object), count: RECORDS } } : v['id'] === 'sink' ? { ...v, sink } : v));
  const valid = validateScenario({ ...input, job: { ...input.job, vertices }, run: { until: '60 s' } });
  if (!valid.ok) throw new Error(formatScenarioErrors(valid.errors));
  return valid.scenario;
}

/** Runs the lesson's job up to step `upTo`, then a new job (the file's, no faults) from what `resumeFrom` picks, into the same sink. */
function resumed(upTo: number, sink: 'plain' | 'two-phase-commit', resumeFrom: (first: Simulation) => CompletedCheckpoint | undefined) {
  const scenario = bounded(upTo, sink);
  const first = new Simulation(scenario, { operations: lessonOperations(lesson, upTo) });
  first.runToEnd();
  const from = resumeFrom(first);
  if (!from) throw new Error(`nothing to resume from after the job was ${first.jobStatus}`);
  const second = new Simulation({ ...bounded(0, sink), faults: [] }, { fromSavepoint: from, sinkOutput: first.sinkOutput });
  second.runToEnd();
  const oracle = new Simulation({ ...bounded(0, sink), faults: [] });
  oracle.runToEnd();
  return { first, second, from, ...first.sinkOutput.compareTo(oracle.sinkOutput) };
}

describe('resuming the lesson\'s job', () => {
  it('from the savepoint stop-with-savepoint took: Count back at parallelism 2, nothing written twice, nothing lost', () => {
    const run = resumed(lesson.steps.length, 'two-phase-commit', (first) => first.coordinator.savepoints.at(-1));
    expect(run.first.jobStatus).toBe('FINISHED');
    expect(run.from.isSavepoint).toBe(true);
    expect(run.second.jobStatus).toBe('FINISHED');
    expect(run.second.restores[0]!.subtasks.filter((s) => s.vertexId === 'count')).toHaveLength(2);
    expect({ duplicates: run.duplicates, missing: run.missing }).toEqual({ duplicates: 0, missing: 0 });
  });

  it('from the newest checkpoint a cancel retained, with a plain sink: the records since that checkpoint are written again', () => {
    const run = resumed(2, 'plain', (first) => first.coordinator.store.getAllCheckpoints().at(-1));
    expect(run.first.jobStatus).toBe('CANCELED');
    expect(run.first.retainedCheckpoints).toContain(run.from.externalPath);
    expect(run.second.jobStatus).toBe('FINISHED');
    expect(run.duplicates).toBeGreaterThan(0);
    expect(run.missing).toBe(0);
  });
});
