/**
 * (e) The first article's 2.2.1: the asynchronous phase uploads each subtask's snapshot to
 * checkpoint storage. When it dominates, the upload is the bottleneck: faster storage, or more
 * parallelism so each subtask uploads less; for full snapshots, snapshot compression (it has no
 * effect on incremental RocksDB checkpoints, as the second article notes).
 */
import { completedCheckpoints } from '../checkpoint-history.ts';
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';
import { medianOf, vertexSubtasks, firstVertexWhere } from '../vertex-subtasks.ts';

/** Under half a second an upload is not worth tuning. */
const ASYNC_FLOOR_MS = 500;
/** "Dominates": the async phase is at least half the subtask's end-to-end time. */
const ASYNC_SHARE = 0.5;
/** A checkpoint that uploads at least this share of the full size is a full one, which compression shrinks. */
const FULL_SHARE = 0.9;

export const slowAsyncPhase: DoctorRule = {
  id: 'slow-async-phase',
  diagnose(documents: DoctorDocuments): Finding[] {
    const worst = firstVertexWhere(documents, (s) => s.checkpoint.async, (f) => f.value >= ASYNC_FLOOR_MS && f.value >= ASYNC_SHARE * f.endToEnd);
    if (worst === undefined) return [];
    const subtasks = vertexSubtasks(documents).get(worst.vertex)!;
    const params = {
      vertex: worst.vertex,
      asyncMs: worst.value,
      endToEndMs: worst.endToEnd,
      parallelism: subtasks[subtasks.length - 1]!.subtasks.length,
      sizeBytes: medianOf(subtasks, (s) => s.checkpointed_size),
    };
    const code = compressionWouldHelp(documents) ? 'slow-async-phase-uncompressed' : 'slow-async-phase';
    // A single subtask uploading everything is the first thing to change; otherwise show compression.
    const lesson = params.parallelism > 1 && code === 'slow-async-phase-uncompressed' ? 'timers-and-compression' : 'parallelism-and-checkpoint-duration';
    return [{ code, lesson, params }];
  },
};

/** Known only for a playground run: compression is off and the checkpoints are full. */
function compressionWouldHelp(documents: DoctorDocuments): boolean {
  if (documents.run === undefined || documents.run.snapshotCompression) return false;
  const latest = completedCheckpoints(documents).at(-1);
  return latest !== undefined && latest.checkpointed_size >= FULL_SHARE * latest.state_size;
}
