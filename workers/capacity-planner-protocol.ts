/**
 * The capacity planner's wire protocol between the page and its worker: the page sends the form
 * as typed; the worker answers with the form's problems, or with each parallelism's point as soon
 * as it is computed and then the end of the sweep. A new sweep replaces the worker (the page
 * terminates it), so there is no cancel message.
 */
import type { CapacityPoint } from '../engine/scale/capacity-plan.ts';
import type { CapacityFieldError, CapacityForm } from '../engine/scale/capacity-question.ts';

export type PlannerRequest = { type: 'plan'; form: CapacityForm };

export type PlannerReply =
  /** the form cannot be read; nothing was run */
  | { type: 'invalid'; errors: CapacityFieldError[] }
  /** the sweep starts: its parallelisms, smallest first, and the objective it is measured against */
  | { type: 'started'; parallelisms: number[]; recoveryObjectiveMs: number; checkpointIntervalMs: number }
  /** one parallelism's outcome, in sweep order */
  | { type: 'point'; index: number; point: CapacityPoint }
  /** the sweep is over; the smallest parallelism meeting the objective, if any */
  | { type: 'done'; smallestParallelism: number | null }
  /** the scale runtime refused or broke on a point; its message, as the engine wrote it */
  | { type: 'failed'; message: string };
