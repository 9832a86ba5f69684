/**
 * (j) One subtask far slower than the others of its vertex: its key groups hold more state (hot
 * keys). More parallelism does not help a single hot key; `ckpt-lab key-group` shows which subtask
 * a key lands on, to find them.
 */
import type { CompletedSubtaskCheckpointStatisticsDocument } from '../../checkpoint/stats/rest-document-types.ts';
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';
import { median } from '../median.ts';
import { vertexSubtasks } from '../vertex-subtasks.ts';

/** "Far slower": at least three times the median of the vertex's other subtasks. */
const SKEW_FACTOR = 3;
/** Differences under a fifth of a second are noise in a checkpoint's duration. */
const SKEW_FLOOR_MS = 200;

export const subtaskSkew: DoctorRule = {
  id: 'subtask-skew',
  diagnose(documents: DoctorDocuments): Finding[] {
    // Only the first vertex (in the job graph's order) that shows it: a late subtask delays the
    // barriers of its downstream subtasks too, which would repeat the finding for each vertex.
    for (const [vertex, checkpoints] of vertexSubtasks(documents)) {
      const latest = checkpoints[checkpoints.length - 1]!;
      const skew = slowestSubtask(latest.subtasks);
      if (skew === undefined) continue;
      return [{
        code: 'subtask-skew',
        lesson: 'parallelism-and-checkpoint-duration',
        params: { vertex, checkpointId: latest.checkpointId, subtask: skew.index, slowMs: skew.slowMs, othersMs: skew.othersMs, parallelism: latest.subtasks.length },
      }];
    }
    return [];
  },
};

/**
 * End to end, as Flink's UI compares subtasks: a hot subtask is late both ways, with more state to
 * snapshot and, when its keys also get more records, with its barrier stuck behind them.
 */
const snapshotTime = (s: CompletedSubtaskCheckpointStatisticsDocument) => s.end_to_end_duration;

function slowestSubtask(subtasks: readonly CompletedSubtaskCheckpointStatisticsDocument[]) {
  if (subtasks.length < 2) return undefined;
  const slowest = subtasks.reduce((a, b) => (snapshotTime(b) > snapshotTime(a) ? b : a));
  const others = subtasks.filter((s) => s !== slowest);
  const othersMs = median(others.map(snapshotTime));
  const slowMs = snapshotTime(slowest);
  if (slowMs < SKEW_FLOOR_MS || slowMs < SKEW_FACTOR * othersMs) return undefined;
  return { index: slowest.index, slowMs, othersMs };
}
