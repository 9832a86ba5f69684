/**
 * (b) The second article: a start delay (trigger to first barrier at the operator) that stays high
 * means barriers crawl through full buffers — the job runs under constant backpressure. Add
 * parallelism or resources, or let barriers overtake the buffers with unaligned checkpoints.
 */
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';
import { firstVertexWhere } from '../vertex-subtasks.ts';

/** Below half a second a barrier's trip through a few network buffers is normal, not backpressure. */
const START_DELAY_FLOOR_MS = 500;
/** The delay must be at least half of the subtask's end-to-end time: the barrier's trip dominates. */
const START_DELAY_SHARE = 0.5;

export const backpressureStartDelay: DoctorRule = {
  id: 'backpressure-start-delay',
  diagnose(documents: DoctorDocuments): Finding[] {
    const worst = firstVertexWhere(documents, (s) => s.start_delay, (f) => f.value >= START_DELAY_FLOOR_MS && f.value >= START_DELAY_SHARE * f.endToEnd);
    if (worst === undefined) return [];
    const unaligned = documents.checkpointConfig?.unaligned_checkpoints;
    return [{
      code: 'backpressure-start-delay',
      lesson: 'backpressure-and-unaligned',
      params: { vertex: worst.vertex, startDelayMs: worst.value, endToEndMs: worst.endToEnd, unaligned: unaligned === undefined ? 'unknown' : unaligned ? 'on' : 'off' },
    }];
  },
};
