/**
 * (h) The second article's task-local recovery: a restore that reads every subtask's state from
 * remote storage takes long for large state; with a local copy (local backup and recovery from
 * local), a task rescheduled to its previous slot reads its own disk. Only a playground run knows
 * the restores' durations: Flink's checkpoint statistics hold the restore, not how long it took.
 */
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';

/** A subtask that takes a second or more to read its state back keeps the job down that long. */
const SLOW_RESTORE_MS = 1000;

export const slowRemoteRestore: DoctorRule = {
  id: 'slow-remote-restore',
  diagnose(documents: DoctorDocuments): Finding[] {
    const run = documents.run;
    if (run === undefined || run.localRecovery) return [];
    const remote = run.restores.flatMap((r) => r.subtasks).filter((s) => s.source === 'remote');
    if (remote.length === 0) return [];
    const slowest = remote.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
    if (slowest.durationMs < SLOW_RESTORE_MS) return [];
    return [{
      code: 'slow-remote-restore',
      lesson: 'task-local-recovery',
      params: { restores: run.restores.length, slowestMs: Math.round(slowest.durationMs), vertex: slowest.vertexId, subtask: slowest.subtaskIndex, sizeBytes: slowest.bytes },
    }];
  },
};
