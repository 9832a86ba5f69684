/**
 * The `restore-source` expectation: where one subtask read its state on a restore. A checker of
 * its own (STYLE 8) because it looks at restores one by one, where `min-restored-subtasks` counts
 * over all of them.
 */
import type { ExpectationSpec } from '../scenario/scenario-types.ts';
import type { RestoreRecord, SubtaskRestore } from './job-events.ts';

type RestoreSourceSpec = Extract<ExpectationSpec, { type: 'restore-source' }>;

export interface RestoreSourceResult {
  held: boolean;
  /** what was seen, short, for "expected …, got …": `remote (corrupt)`, `remote (missing) in restore 1` */
  seen: string;
  /** the same in a sentence, as the other expectations' `actual` */
  actual: string;
}

/** The subtask's restore in each restore the expectation covers (1-based restore numbers). */
function coveredRestores(e: RestoreSourceSpec, restores: readonly RestoreRecord[]): { restore: number; subtask: SubtaskRestore | undefined }[] {
  const find = (r: RestoreRecord) => r.subtasks.find((s) => s.vertexId === e.vertex && s.subtaskIndex === e.subtask);
  if (e.restore !== undefined) {
    const record = restores[e.restore - 1];
    return record === undefined ? [] : [{ restore: e.restore, subtask: find(record) }];
  }
  return restores.map((r, i) => ({ restore: i + 1, subtask: find(r) })).filter((c) => c.subtask !== undefined);
}

export function checkRestoreSource(e: RestoreSourceSpec, restores: readonly RestoreRecord[]): RestoreSourceResult {
  const name = `${e.vertex}#${e.subtask}`;
  const covered = coveredRestores(e, restores);
  if (covered.length === 0) {
    const seen = e.restore !== undefined && e.restore > restores.length ? `no restore ${e.restore} (restores in the run: ${restores.length})` : `no restore of ${name}`;
    return { held: false, seen, actual: seen };
  }
  const matches = (s: SubtaskRestore | undefined) => s !== undefined && s.source === e.source && (e.reason === undefined || s.reason === e.reason);
  const wrong = covered.filter((c) => !matches(c.subtask));
  // which restore only matters when there was more than one to choose from
  const where = (c: (typeof covered)[number]) => (covered.length === 1 ? '' : ` in restore ${c.restore}`);
  const shown = wrong.length === 0 ? covered : wrong;
  const seen = shown.map((c) => `${c.subtask === undefined ? `not restored` : sourceText(c.subtask)}${where(c)}`).join(', ');
  return { held: wrong.length === 0, seen, actual: `${name} restored from ${seen}` };
}

/** `local`, `remote` or `remote (corrupt)`: a source with the reason a remote restore gave. */
export function sourceText(s: { source: string; reason?: string | undefined }): string {
  return s.reason === undefined ? s.source : `${s.source} (${s.reason})`;
}
