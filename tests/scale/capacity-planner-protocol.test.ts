/**
 * The capacity planner's worker protocol, driven in Node through the function the worker wraps:
 * a readable form streams one point per parallelism (smallest first) and then the smallest that
 * meets the objective, the same answer as planCapacity; an unreadable one runs nothing and says
 * which field is wrong and how.
 */
import { describe, expect, it } from 'vitest';
import { planCapacity } from '../../engine/scale/capacity-plan.ts';
import { EXAMPLE_CAPACITY_FORM, MAX_SWEEP_POINTS, readCapacityQuestion, type CapacityForm } from '../../engine/scale/capacity-question.ts';
import type { PlannerReply } from '../../workers/capacity-planner-protocol.ts';
import { answerPlannerRequest } from '../../workers/capacity-planner-session.ts';

function ask(form: Partial<CapacityForm>): PlannerReply[] {
  const replies: PlannerReply[] = [];
  answerPlannerRequest({ type: 'plan', form: { ...EXAMPLE_CAPACITY_FORM, ...form } }, (reply) => replies.push(structuredClone(reply)));
  return replies;
}

describe('the capacity planner worker', () => {
  it('streams one point per parallelism, smallest first, then the smallest meeting the objective', () => {
    const replies = ask({ parallelisms: '200 50, 100,80 100' });
    expect(replies.map((r) => r.type)).toEqual(['started', 'point', 'point', 'point', 'point', 'done']);
    expect(replies[0]).toMatchObject({ type: 'started', parallelisms: [50, 80, 100, 200], recoveryObjectiveMs: 120_000, checkpointIntervalMs: 60_000 });
    const points = replies.flatMap((r) => (r.type === 'point' ? [r] : []));
    expect(points.map((p) => [p.index, p.point.parallelism])).toEqual([[0, 50], [1, 80], [2, 100], [3, 200]]);

    const read = readCapacityQuestion({ ...EXAMPLE_CAPACITY_FORM, parallelisms: '50, 80, 100, 200' });
    if (!read.ok) throw new Error('the example form should be readable');
    const plan = planCapacity(read.question);
    expect(points.map((p) => p.point)).toEqual(plan.points);
    expect(replies.at(-1)).toEqual({ type: 'done', smallestParallelism: plan.smallest?.parallelism ?? null });
    expect(plan.smallest).toBeDefined();
  });

  it('reads sizes and durations in Flink syntax into the question', () => {
    const read = readCapacityQuestion({ ...EXAMPLE_CAPACITY_FORM, ratePerS: '2,000,000', recordCost: '2 ms', stateSize: '1 tb', checkpointInterval: '90 s', recoveryObjective: '5 min' });
    expect(read.ok && read.question).toMatchObject({ ratePerS: 2_000_000, recordCostUs: 2000, stateBytes: 1024 ** 4, checkpointIntervalMs: 90_000, recoveryObjectiveMs: 300_000 });
  });

  it('answers no sweep point when every parallelism meets nothing', () => {
    const replies = ask({ parallelisms: '50', recoveryObjective: '1 s' });
    expect(replies.at(-1)).toEqual({ type: 'done', smallestParallelism: null });
  });

  const badForms: Array<[string, Partial<CapacityForm>, object]> = [
    ['a rate that is not a number', { ratePerS: 'fast' }, { field: 'ratePerS', problem: 'not-a-number' }],
    ['a rate of zero', { ratePerS: '0' }, { field: 'ratePerS', problem: 'not-above-zero' }],
    ['an empty state size', { stateSize: ' ' }, { field: 'stateSize', problem: 'empty' }],
    ['a state size in an unknown unit', { stateSize: '100 gigs' }, { field: 'stateSize', problem: 'unreadable', parserMessage: expect.stringContaining('unknown memory unit'), parserProblem: expect.objectContaining({ code: 'memory.unknown-unit' }) }],
    ['a record cost that is no duration', { recordCost: 'slow' }, { field: 'recordCost', problem: 'unreadable', parserMessage: expect.stringContaining('slow'), parserProblem: expect.objectContaining({ code: expect.stringMatching(/^duration\./) }) }],
    ['a record cost of zero', { recordCost: '0 us' }, { field: 'recordCost', problem: 'not-above-zero' }],
    ['a checkpoint interval under Flink’s 10 ms', { checkpointInterval: '5 ms' }, { field: 'checkpointInterval', problem: 'below-minimum', detail: '10 ms' }],
    ['an objective over an hour', { recoveryObjective: '2 h' }, { field: 'recoveryObjective', problem: 'above-maximum', detail: '1 h' }],
    ['a bandwidth that is negative', { remoteBandwidthMbPerS: '-5' }, { field: 'remoteBandwidthMbPerS', problem: 'not-a-number' }],
    ['a parallelism that is not a whole number', { parallelisms: '10, 2.5' }, { field: 'parallelisms', problem: 'not-a-parallelism', detail: '2.5' }],
    ['a parallelism of zero', { parallelisms: '0, 10' }, { field: 'parallelisms', problem: 'not-a-parallelism', detail: '0' }],
    ['a parallelism above 10000', { parallelisms: '20000' }, { field: 'parallelisms', problem: 'not-a-parallelism', detail: '20000' }],
    ['too many parallelisms', { parallelisms: Array.from({ length: MAX_SWEEP_POINTS + 1 }, (_, i) => i + 1).join(',') }, { field: 'parallelisms', problem: 'too-many-parallelisms', detail: String(MAX_SWEEP_POINTS) }],
  ];
  for (const [what, form, error] of badForms) {
    it(`runs nothing and names the field for ${what}`, () => {
      expect(ask(form)).toEqual([{ type: 'invalid', errors: [error] }]);
    });
  }

  it('reports every wrong field at once', () => {
    const [reply] = ask({ ratePerS: '', stateChurnPerS: 'lots', parallelisms: '' });
    expect(reply?.type === 'invalid' && reply.errors.map((e) => e.field)).toEqual(['ratePerS', 'stateChurnPerS', 'parallelisms']);
  });
});
