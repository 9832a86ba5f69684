import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { FaultSpec, Scenario } from '../../engine/scenario/scenario-types.ts';
import { planCheckpoint, type PlannedSubtask } from '../../engine/checkpoint/checkpoint-plan.ts';
import type { SubtaskId } from '../../engine/protocol.ts';
import { pipeline, sequenceSource, vertex } from '../support/scenario-builder.ts';

/**
 * FLIP-147 (execution.checkpointing.checkpoints-after-tasks-finish, on by default since Flink
 * 1.15): a task whose input ended sends end-of-data, takes part in one more checkpoint (its final
 * one) and finishes only when that completes; the two-phase-commit sink commits its last
 * transaction on that completion. The job: source → keyed count (hash) → 2PC sink (forward),
 * parallelism 2; count#0 is loaded far more than count#1 (the keys' key groups), so sink#1's
 * input ends well before the job finishes, and a failover can land in between.
 */
function boundedJob(options: { afterTasksFinish: boolean; periodic: boolean; faults?: FaultSpec[] }): Scenario {
  return pipeline(
    [
      vertex('source', sequenceSource(10, 2000, 3000), 2),
      vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, 2, 300),
      vertex('sink', { type: 'sink', sink: 'two-phase-commit' }, 2),
    ],
    [
      ['source', 'count', 'hash'],
      ['count', 'sink', 'forward'],
    ],
    {
      config: {
        ...(options.periodic ? { 'execution.checkpointing.interval': '20 ms' } : {}),
        'execution.checkpointing.checkpoints-after-tasks-finish': options.afterTasksFinish,
        'restart-strategy.type': 'fixed-delay',
        'restart-strategy.fixed-delay.attempts': 10,
        'restart-strategy.fixed-delay.delay': '50 ms',
      },
      faults: options.faults ?? [],
    },
  );
}

/** When, in a run, a source first finished, a sink subtask's input first ended, the first checkpoint completed after that, the first sink subtask finished, and the job finished. */
interface FinishTimeline {
  sourceFinishedAt: number;
  sinkInputEndedAt: number;
  finalCheckpointAt: number | undefined;
  sinkFinishedAt: number;
  jobFinishedAt: number;
  /** records the sink had committed when its input ended */
  committedAtInputEnd: number;
}

function timeline(scenario: Scenario): { sim: Simulation; at: FinishTimeline } {
  const sim = new Simulation(scenario);
  let sourceFinishedAt = Infinity;
  let sinkInputEndedAt = Infinity;
  let sinkFinishedAt = Infinity;
  let committedAtInputEnd = 0;
  while (!sim.jobMaster.isTerminal && sim.step()) {
    const sinks = sim.tasks.filter((t) => t.id.vertexId === 'sink');
    if (sourceFinishedAt === Infinity && sim.tasks.some((t) => t.isSource && t.lifecycle.state === 'FINISHED')) sourceFinishedAt = sim.now;
    if (sinkInputEndedAt === Infinity && sinks.some((t) => t.hasEndedInput)) {
      sinkInputEndedAt = sim.now;
      committedAtInputEnd = sim.sinkOutput.totalRecords;
    }
    if (sinkFinishedAt === Infinity && sinks.some((t) => t.lifecycle.state === 'FINISHED')) sinkFinishedAt = sim.now;
  }
  const completed = sim.events.flatMap((e) => (e.type === 'checkpoint-completed' ? [e.time] : []));
  const finalCheckpointAt = completed.find((t) => t >= sinkInputEndedAt);
  return { sim, at: { sourceFinishedAt, sinkInputEndedAt, finalCheckpointAt, sinkFinishedAt, jobFinishedAt: sim.now, committedAtInputEnd } };
}

/**
 * The independent oracle: the failure-free run with Flink's defaults (checkpoints after tasks
 * finish, periodic checkpointing), whose sink holds every count exactly once.
 */
function againstFailureFree(scenario: Scenario) {
  const faulty = new Simulation(scenario);
  faulty.runToEnd();
  const reference = new Simulation(boundedJob({ afterTasksFinish: true, periodic: true }));
  reference.runToEnd();
  return { faulty, reference, ...faulty.sinkOutput.compareTo(reference.sinkOutput) };
}

const failCount0 = (at_ms: number): FaultSpec => ({ at_ms, type: 'fail-task', vertex: 'count', subtask: 0 });

describe('checkpoints after tasks finish (FLIP-147)', () => {
  it("a failover after the sink's input ended commits nothing twice", () => {
    const { at } = timeline(boundedJob({ afterTasksFinish: true, periodic: true }));
    // The failover lands after sink#1's input ended and before the job finished.
    const failAt = at.sinkInputEndedAt + 1;
    expect(failAt).toBeLessThan(at.jobFinishedAt);
    const { faulty, duplicates, missing } = againstFailureFree(boundedJob({ afterTasksFinish: true, periodic: true, faults: [failCount0(failAt)] }));
    expect(faulty.jobStatus).toBe('FINISHED');
    expect(faulty.restarts).toBe(1);
    expect({ duplicates, missing }).toEqual({ duplicates: 0, missing: 0 });
  });

  it('commits the last transaction when the final checkpoint completes, before the job is FINISHED', () => {
    const { sim, at } = timeline(boundedJob({ afterTasksFinish: true, periodic: true }));
    expect(sim.jobStatus).toBe('FINISHED');
    // Nothing was committed when the input ended: the sink waited for a checkpoint covering it.
    expect(at.committedAtInputEnd).toBeLessThan(sim.sinkOutput.totalRecords);
    expect(at.finalCheckpointAt).toBeDefined();
    expect(at.sinkFinishedAt).toBeGreaterThan(at.finalCheckpointAt!);
    expect(at.jobFinishedAt).toBeGreaterThan(at.finalCheckpointAt!);
  });

  it('with the option off, periodic checkpoints fail with NOT_ALL_REQUIRED_TASKS_RUNNING once a task finished', () => {
    const reasonsAfterFinish = (afterTasksFinish: boolean) => {
      const { sim, at } = timeline(boundedJob({ afterTasksFinish, periodic: true }));
      return sim.coordinator.droppedRequests.filter((r) => r.timestamp >= at.sourceFinishedAt).map((r) => r.reason);
    };
    expect(reasonsAfterFinish(false)).toContain('NOT_ALL_REQUIRED_TASKS_RUNNING');
    expect(reasonsAfterFinish(true)).not.toContain('NOT_ALL_REQUIRED_TASKS_RUNNING');
  });

  /**
   * The finish rules, every combination. "before": just after sink#1's input ended; "after":
   * just after the final checkpoint completed, or, where there is none, just after sink#1
   * finished. Without periodic checkpointing the sink commits at the end of its input (Flink's
   * CommitterOperator#endInput) and a failover restarts from nothing: the committed records come
   * again. With the option off (checkpointing on) the sink commits nothing at the end and its
   * task finishes at once: its last records are never committed, as in Flink before FLIP-147.
   */
  const rules: Array<{ afterTasksFinish: boolean; periodic: boolean; failover: 'before' | 'after'; duplicates: 'none' | 'some'; missing: 'none' | 'some' }> = [
    { afterTasksFinish: true, periodic: true, failover: 'before', duplicates: 'none', missing: 'none' },
    { afterTasksFinish: true, periodic: true, failover: 'after', duplicates: 'none', missing: 'none' },
    { afterTasksFinish: true, periodic: false, failover: 'before', duplicates: 'some', missing: 'none' },
    { afterTasksFinish: true, periodic: false, failover: 'after', duplicates: 'some', missing: 'none' },
    { afterTasksFinish: false, periodic: true, failover: 'before', duplicates: 'none', missing: 'some' },
    { afterTasksFinish: false, periodic: true, failover: 'after', duplicates: 'none', missing: 'some' },
    { afterTasksFinish: false, periodic: false, failover: 'before', duplicates: 'some', missing: 'none' },
    { afterTasksFinish: false, periodic: false, failover: 'after', duplicates: 'some', missing: 'none' },
  ];
  it.each(rules)(
    'option $afterTasksFinish, periodic checkpoints $periodic, failover $failover the final checkpoint: $duplicates duplicates, $missing missing, FINISHED',
    ({ afterTasksFinish, periodic, failover, duplicates, missing }) => {
      const { at } = timeline(boundedJob({ afterTasksFinish, periodic }));
      // A final checkpoint exactly when Flink takes one: the option and checkpointing both on.
      expect(at.finalCheckpointAt !== undefined && at.finalCheckpointAt <= at.sinkFinishedAt).toBe(afterTasksFinish && periodic);
      const failAt = failover === 'before' ? at.sinkInputEndedAt + 0.05 : (afterTasksFinish && periodic ? at.finalCheckpointAt! : at.sinkFinishedAt) + 0.05;
      expect(failAt).toBeLessThan(at.jobFinishedAt);
      const run = againstFailureFree(boundedJob({ afterTasksFinish, periodic, faults: [failCount0(failAt)] }));
      expect(run.faulty.jobStatus).toBe('FINISHED');
      expect(run.faulty.restarts).toBe(1);
      expect(run.duplicates > 0 ? 'some' : 'none').toBe(duplicates);
      expect(run.missing > 0 ? 'some' : 'none').toBe(missing);
    },
  );
});

describe('a task finishes only once its receivers processed its end-of-data (getAllDataProcessedFuture)', () => {
  // Unaligned checkpoints let the final checkpoint complete while the slow counts still hold the
  // sources' data, in flight: a source that finished then would have the next checkpoint trigger
  // the counts directly, counting barriers as received behind data they never read.
  const unalignedSlowCounts = (afterTasksFinish: boolean): Scenario =>
    pipeline(
      [
        vertex('source', sequenceSource(10, 5000, 1000), 2),
        vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, 2, 2000),
        vertex('sink', { type: 'sink', sink: 'two-phase-commit' }, 2),
      ],
      [
        ['source', 'count', 'hash'],
        ['count', 'sink', 'forward'],
      ],
      {
        config: {
          'execution.checkpointing.interval': '50 ms',
          'execution.checkpointing.unaligned.enabled': true,
          'execution.checkpointing.checkpoints-after-tasks-finish': afterTasksFinish,
          'restart-strategy.type': 'fixed-delay',
          'restart-strategy.fixed-delay.attempts': 10,
          'restart-strategy.fixed-delay.delay': '50 ms',
        },
      },
    );

  it.each([true, false])('with checkpoints after tasks finish %s: whenever a source is FINISHED, every count subtask has read its end-of-data', (afterTasksFinish) => {
    const sim = new Simulation(unalignedSlowCounts(afterTasksFinish));
    let sourcesFinishedWhileCountsRead = 0;
    while (!sim.jobMaster.isTerminal && sim.step()) {
      const finishedSources = sim.tasks.filter((t) => t.isSource && t.lifecycle.state === 'FINISHED').map((t) => t.id.subtaskIndex);
      if (finishedSources.length === 0) continue;
      const counts = sim.tasks.filter((t) => t.id.vertexId === 'count');
      // each count's channel from a finished source (channel i comes from source#i) delivered its end-of-data
      const unread = counts.flatMap((t) => finishedSources.map((i) => t.gates[0]!.channels[i]!).filter((c) => !c.endOfData && !c.finished));
      if (afterTasksFinish) expect(unread, `at ${sim.now} ms a source is FINISHED`).toEqual([]);
      else if (unread.length > 0) sourcesFinishedWhileCountsRead++;
    }
    expect(sim.jobStatus).toBe('FINISHED');
    // without a final checkpoint to wait for, a source finishes at once (Flink before 1.14 too)
    if (!afterTasksFinish) expect(sourcesFinishedWhileCountsRead).toBeGreaterThan(0);
  });

  it('restores exactly-once from a checkpoint taken after the sources finished', () => {
    const base = unalignedSlowCounts(true);
    const faulty = new Simulation({ ...base, faults: [{ at_ms: 900, type: 'fail-task', vertex: 'count', subtask: 0 }] });
    faulty.runToEnd();
    const reference = new Simulation(base);
    reference.runToEnd();
    expect(faulty.restores.length).toBe(1);
    expect(faulty.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });
});

describe('the checkpoint plan (DefaultCheckpointPlanCalculator)', () => {
  const id = (vertexId: string, subtaskIndex = 0): SubtaskId => ({ vertexId, subtaskIndex });
  const running = (vertexId: string): PlannedSubtask => ({ id: id(vertexId), running: true, finished: false, finalSnapshot: undefined });
  const finished = (vertexId: string): PlannedSubtask => ({ id: id(vertexId), running: false, finished: true, finalSnapshot: undefined });
  const deploying = (vertexId: string): PlannedSubtask => ({ id: id(vertexId), running: false, finished: false, finalSnapshot: undefined });
  // source → map → sink, one subtask each
  const precedents = (s: SubtaskId) => ({ source: [], map: [id('source')], sink: [id('map')] })[s.vertexId as 'source' | 'map' | 'sink'];
  const plan = (subtasks: PlannedSubtask[], checkpointsAfterTasksFinish = true) =>
    planCheckpoint({ subtasks, precedents, parallelism: { source: 1, map: 1, sink: 1 }, checkpointsAfterTasksFinish });
  const names = (ids: readonly SubtaskId[]) => ids.map((s) => s.vertexId);

  it.each([
    { state: 'all running', subtasks: [running('source'), running('map'), running('sink')], trigger: ['source'], ack: ['source', 'map', 'sink'], finishedTasks: [] },
    { state: 'the source finished', subtasks: [finished('source'), running('map'), running('sink')], trigger: ['map'], ack: ['map', 'sink'], finishedTasks: ['source'] },
    { state: 'source and map finished', subtasks: [finished('source'), finished('map'), running('sink')], trigger: ['sink'], ack: ['sink'], finishedTasks: ['source', 'map'] },
  ])('with $state: triggers the running tasks without running precedents, and every running task acknowledges', ({ subtasks, trigger, ack, finishedTasks }) => {
    const p = plan(subtasks);
    if (!p.ok) throw new Error('expected a plan');
    expect(names(p.tasksToTrigger)).toEqual(trigger);
    expect(names(p.tasksToAck)).toEqual(ack);
    expect(p.finishedTasks.map((s) => s.subtask.vertexId)).toEqual(finishedTasks);
    expect(p.finishedTasks.every((s) => s.finished)).toBe(true);
  });

  it.each([
    { state: 'a task finished with the option off', subtasks: [finished('source'), running('map'), running('sink')], option: false },
    { state: 'a task still deploying', subtasks: [running('source'), deploying('map'), running('sink')], option: true },
  ])('refuses a plan (NOT_ALL_REQUIRED_TASKS_RUNNING) with $state', ({ subtasks, option }) => {
    expect(plan(subtasks, option).ok).toBe(false);
  });
});
