/**
 * The `mixed-restore` expectation: one subtask restored part of its state handles from its
 * host's local copy and the rest from remote storage (Flink's prioritized restore per handle).
 */
import type { ExpectationSpec } from '../scenario/scenario-types.ts';
import type { RestoreRecord, SubtaskRestore } from './job-events.ts';

type MixedRestoreSpec = Extract<ExpectationSpec, { type: 'mixed-restore' }>;

/** `3 local, 1 remote`: where the subtask's handles came from in one restore. */
function handleCounts(s: SubtaskRestore): string {
  const handles = s.handles ?? [];
  const local = handles.filter((h) => h.source === 'local').length;
  return `${local} local, ${handles.length - local} remote`;
}

function mixes(s: SubtaskRestore | undefined): boolean {
  const sources = new Set((s?.handles ?? []).map((h) => h.source));
  return sources.has('local') && sources.has('remote');
}

export function checkMixedRestore(e: MixedRestoreSpec, restores: readonly RestoreRecord[]): { held: boolean; seen: string; actual: string } {
  const name = `${e.vertex}#${e.subtask}`;
  const covered = (e.restore === undefined ? restores : restores.slice(e.restore - 1, e.restore))
    .map((r) => r.subtasks.find((s) => s.vertexId === e.vertex && s.subtaskIndex === e.subtask))
    .filter((s): s is SubtaskRestore => s !== undefined);
  if (covered.length === 0) {
    const seen = e.restore !== undefined && e.restore > restores.length ? `no restore ${e.restore} (restores in the run: ${restores.length})` : `no restore of ${name}`;
    return { held: false, seen, actual: seen };
  }
  const held = covered.some(mixes);
  const seen = covered.map((s) => `${s.source}${s.reason === undefined ? '' : ` (${s.reason})`}, handles ${handleCounts(s)}`).join('; ');
  return { held, seen, actual: `${name} restored ${seen}` };
}
