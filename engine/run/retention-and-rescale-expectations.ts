/**
 * The expectations of what outlives a job and how it comes back: the checkpoints retention kept
 * once the job ended (`execution.checkpointing.externalized-checkpoint-retention`), and a restore
 * at another parallelism (a savepoint's keyed state split anew by key group).
 */
import type { ExpectationSpec } from '../scenario/scenario-types.ts';
import type { ExpectationInputs, ExpectationResult } from './expectations.ts';
import type { RestoreRecord } from './job-events.ts';

type RetainedExpectation = Extract<ExpectationSpec, { type: 'min-retained-checkpoints' | 'max-retained-checkpoints' }>;
type RestoredParallelism = Extract<ExpectationSpec, { type: 'restored-parallelism' }>;

/** Flink's globally terminal JobStatus values: retention decides only once the job reached one. */
const ENDED = new Set(['FINISHED', 'CANCELED', 'FAILED']);

export function checkRetainedCheckpoints(e: RetainedExpectation, seen: Pick<ExpectationInputs, 'jobStatus' | 'retainedCheckpoints'>): ExpectationResult {
  if (!ENDED.has(seen.jobStatus)) return { expectation: e, held: false, actual: `the job is still ${seen.jobStatus}`, seen: `job ${seen.jobStatus}` };
  const kept = seen.retainedCheckpoints ?? 0;
  const held = e.type === 'min-retained-checkpoints' ? kept >= e.value : kept <= e.value;
  return { expectation: e, held, actual: `${kept} checkpoints stayed in storage after the job was ${seen.jobStatus}`, seen: String(kept) };
}

export function checkRestoredParallelism(e: RestoredParallelism, restores: readonly RestoreRecord[]): ExpectationResult {
  const shown = restores.map((r) => ({ parallelism: parallelismOf(r, e.vertex), from: r.isSavepoint ? 'savepoint' : 'checkpoint', id: r.checkpointId }));
  const match = shown.find((r) => r.parallelism === e.parallelism && (e.from === undefined || r.from === e.from));
  if (match) return { expectation: e, held: true, actual: `${e.vertex} restored at parallelism ${e.parallelism} from ${match.from} ${match.id}`, seen: `${e.parallelism} from ${match.from} ${match.id}` };
  const seen = shown.map((r) => `${r.parallelism} from ${r.from} ${r.id}`).join(', ') || 'no restore';
  return { expectation: e, held: false, actual: `${e.vertex} restored at ${seen}`, seen };
}

export function describeRestoredParallelism(e: RestoredParallelism): string {
  return `${e.vertex} to restore at parallelism ${e.parallelism}${e.from === undefined ? '' : ` from a ${e.from}`}`;
}

/** How many subtasks of `vertex` a restore brought back: its parallelism in the attempt it started. */
function parallelismOf(restore: RestoreRecord, vertex: string): number {
  return restore.subtasks.filter((s) => s.vertexId === vertex).length;
}
