/**
 * Checkpoint statistics are consistent: Flink's `/jobs/:id/checkpoints` document and the
 * per-checkpoint details add up, and agree with the job events.
 * - counts: total = in_progress + completed + failed, none negative (Flink's CheckpointStatsCounts;
 *   a checkpoint that failed before it was created adds to both total and failed:
 *   incrementFailedCheckpointsWithoutInProgress); total equals the `checkpoint-triggered` events
 *   plus the trigger failures without an id (the decider's drops are no statistics), completed the
 *   `checkpoint-completed` events;
 * - every checkpoint: acknowledged ≤ total subtasks (equal once completed), its vertices' subtasks
 *   sum to its own; sizes and in-flight data ≥ 0; durations ≥ 0 once acknowledged (−1 before the
 *   first acknowledgement, as Flink reports it); no acknowledgement or failure before the trigger;
 * - the summary: min ≤ avg ≤ max, min ≥ 0.
 */
import { isFailedCheckpointWithoutId } from '../../checkpoint/checkpoint-request-decider.ts';
import type { JobEvent } from '../job-events.ts';
import type { InvariantChecker, InvariantViolation, RunOutcome } from './invariant-checker.ts';

interface CheckpointEntry {
  id: number;
  status: string;
  trigger_timestamp: number;
  latest_ack_timestamp: number;
  checkpointed_size: number;
  state_size: number;
  end_to_end_duration: number;
  processed_data: number;
  persisted_data: number;
  num_subtasks: number;
  num_acknowledged_subtasks: number;
  failure_timestamp?: number;
  tasks?: Record<string, Omit<CheckpointEntry, 'tasks' | 'trigger_timestamp'>>;
}

interface CheckpointsDocument {
  counts: { restored: number; total: number; in_progress: number; completed: number; failed: number };
  summary: Record<string, { min: number; max: number; avg: number }>;
  history: CheckpointEntry[];
}

export class CheckpointStatsChecker implements InvariantChecker {
  readonly invariant = 'checkpoint-statistics';
  #triggered = 0;
  #completed = 0;
  #restores = 0;

  onEvent(event: JobEvent): void {
    if (event.type === 'checkpoint-triggered') this.#triggered++;
    else if (event.type === 'checkpoint-request-dropped' && isFailedCheckpointWithoutId(event.reason)) this.#triggered++;
    else if (event.type === 'checkpoint-completed') this.#completed++;
    else if (event.type === 'restore') this.#restores++;
  }

  verdict({ report }: RunOutcome): InvariantViolation[] {
    const doc = report.checkpoints as CheckpointsDocument;
    const problems = [
      ...countProblems(doc.counts, { triggered: this.#triggered, completed: this.#completed, restores: this.#restores }),
      ...summaryProblems(doc.summary),
      ...doc.history.flatMap((c) => entryProblems(c, `checkpoint ${c.id}`)),
      ...Object.values(report.checkpointDetails).flatMap((c) => detailProblems(c as CheckpointEntry)),
    ];
    return problems.map((message) => ({ invariant: this.invariant, time: null, message }));
  }
}

function countProblems(c: CheckpointsDocument['counts'], seen: { triggered: number; completed: number; restores: number }): string[] {
  const out: string[] = [];
  for (const [name, n] of Object.entries(c)) if (!(n >= 0)) out.push(`counts.${name} is ${n}`);
  if (c.in_progress + c.completed + c.failed !== c.total) out.push(`in_progress ${c.in_progress} + completed ${c.completed} + failed ${c.failed} is not total ${c.total}`);
  if (c.total !== seen.triggered) out.push(`counts.total is ${c.total}, but ${seen.triggered} checkpoints were triggered or failed before they were created`);
  if (c.completed !== seen.completed) out.push(`counts.completed is ${c.completed}, but ${seen.completed} checkpoints completed`);
  if (c.restored !== seen.restores) out.push(`counts.restored is ${c.restored}, but ${seen.restores} restores happened`);
  return out;
}

function summaryProblems(summary: CheckpointsDocument['summary']): string[] {
  return Object.entries(summary).flatMap(([name, s]) => {
    const out: string[] = [];
    if (s.min < 0) out.push(`summary.${name}.min is ${s.min}`);
    if (!(s.min <= s.avg && s.avg <= s.max)) out.push(`summary.${name}: min ${s.min}, avg ${s.avg}, max ${s.max} are out of order`);
    return out;
  });
}

function entryProblems(c: Omit<CheckpointEntry, 'tasks' | 'trigger_timestamp'> & { trigger_timestamp?: number }, what: string): string[] {
  const out: string[] = [];
  if (!(c.num_acknowledged_subtasks >= 0 && c.num_acknowledged_subtasks <= c.num_subtasks)) out.push(`${what}: ${c.num_acknowledged_subtasks} of ${c.num_subtasks} subtasks acknowledged`);
  if (c.status === 'COMPLETED' && c.num_acknowledged_subtasks !== c.num_subtasks) out.push(`${what} completed with ${c.num_acknowledged_subtasks} of ${c.num_subtasks} subtasks acknowledged`);
  for (const field of ['checkpointed_size', 'state_size', 'processed_data', 'persisted_data'] as const) if (!(c[field] >= 0)) out.push(`${what}: ${field} is ${c[field]}`);
  const acked = c.num_acknowledged_subtasks > 0;
  if (acked ? !(c.end_to_end_duration >= 0) : c.end_to_end_duration !== -1 && !(c.end_to_end_duration >= 0)) out.push(`${what}: end_to_end_duration is ${c.end_to_end_duration}`);
  if (c.trigger_timestamp !== undefined) {
    if (acked && c.latest_ack_timestamp < c.trigger_timestamp) out.push(`${what}: acknowledged at ${c.latest_ack_timestamp}, before its trigger at ${c.trigger_timestamp}`);
    if (c.failure_timestamp !== undefined && c.failure_timestamp < c.trigger_timestamp) out.push(`${what}: failed at ${c.failure_timestamp}, before its trigger at ${c.trigger_timestamp}`);
  }
  return out;
}

function detailProblems(c: CheckpointEntry): string[] {
  const tasks = Object.entries(c.tasks ?? {});
  const out = tasks.flatMap(([vertex, t]) => entryProblems(t, `checkpoint ${c.id}, vertex ${vertex}`));
  if (tasks.length > 0) {
    const subtasks = tasks.reduce((n, [, t]) => n + t.num_subtasks, 0);
    const acked = tasks.reduce((n, [, t]) => n + t.num_acknowledged_subtasks, 0);
    if (subtasks !== c.num_subtasks) out.push(`checkpoint ${c.id}: its vertices have ${subtasks} subtasks, the checkpoint ${c.num_subtasks}`);
    if (acked !== c.num_acknowledged_subtasks) out.push(`checkpoint ${c.id}: its vertices acknowledged ${acked}, the checkpoint ${c.num_acknowledged_subtasks}`);
  }
  return out;
}
