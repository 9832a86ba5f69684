/**
 * (c) The second article: under exactly-once, an operator with several inputs blocks the channels
 * whose barrier has arrived until the others catch up. A long alignment calls for unaligned
 * checkpoints, or for execution.checkpointing.aligned-checkpoint-timeout, which switches a
 * checkpoint to unaligned once it has aligned that long.
 */
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';
import { firstVertexWhere } from '../vertex-subtasks.ts';

/** Alignment under a fifth of a second costs little latency; above it, records wait visibly. */
const ALIGNMENT_FLOOR_MS = 200;
/** Alignment must be at least a quarter of the subtask's end-to-end time to be worth changing. */
const ALIGNMENT_SHARE = 0.25;

export const longAlignment: DoctorRule = {
  id: 'long-alignment',
  diagnose(documents: DoctorDocuments): Finding[] {
    // AT_LEAST_ONCE never aligns: Flink counts the barriers and lets records through.
    if (documents.checkpointConfig?.mode === 'at_least_once') return [];
    const worst = firstVertexWhere(documents, (s) => s.alignment.duration, (f) => f.value >= ALIGNMENT_FLOOR_MS && f.value >= ALIGNMENT_SHARE * f.endToEnd);
    if (worst === undefined) return [];
    const alignedTimeoutMs = documents.checkpointConfig?.aligned_checkpoint_timeout ?? -1;
    return [{ code: 'long-alignment', lesson: 'backpressure-and-unaligned', params: { vertex: worst.vertex, alignmentMs: worst.value, endToEndMs: worst.endToEnd, alignedTimeoutMs } }];
  },
};
