/**
 * What the capacity planner's worker does with a request, apart from the worker itself so that
 * Node tests drive it: read the form, then run the sweep one parallelism at a time and post each
 * point the moment it is known (the page plots the sweep as it grows).
 */
import { capacityPoint } from '../engine/scale/capacity-plan.ts';
import { readCapacityQuestion } from '../engine/scale/capacity-question.ts';
import type { PlannerReply, PlannerRequest } from './capacity-planner-protocol.ts';

export function answerPlannerRequest(request: PlannerRequest, post: (reply: PlannerReply) => void): void {
  const read = readCapacityQuestion(request.form);
  if (!read.ok) {
    post({ type: 'invalid', errors: read.errors });
    return;
  }
  const { question } = read;
  post({ type: 'started', parallelisms: [...question.parallelisms], recoveryObjectiveMs: question.recoveryObjectiveMs, checkpointIntervalMs: question.checkpointIntervalMs });
  let smallestParallelism: number | null = null;
  try {
    question.parallelisms.forEach((parallelism, index) => {
      const point = capacityPoint(question, parallelism);
      if (smallestParallelism === null && point.meetsObjective) smallestParallelism = parallelism;
      post({ type: 'point', index, point });
    });
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  post({ type: 'done', smallestParallelism });
}
