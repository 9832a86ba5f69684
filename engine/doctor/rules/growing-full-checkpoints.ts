/**
 * (d) The second article: "enabling incremental checkpoints should be among the first things
 * considered". A full checkpoint uploads all the state every time; when that state is large and
 * growing, every checkpoint gets longer. An incremental one uploads what changed since the last.
 */
import { completedCheckpoints } from '../checkpoint-history.ts';
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';

/** Checkpoints needed to call a size growing. */
const MIN_CHECKPOINTS = 4;
/** A checkpoint that uploads at least this share of the full size is a full one. */
const FULL_SHARE = 0.9;
/** The latest full size at least this multiple of the oldest in the history: growing. */
const GROWTH_FACTOR = 1.5;
/** Large for the playground's storage model (1 MiB takes seconds at its default bandwidth). */
const LARGE_FULL_SIZE_BYTES = 1024 * 1024;

export const growingFullCheckpoints: DoctorRule = {
  id: 'growing-full-checkpoints',
  diagnose(documents: DoctorDocuments): Finding[] {
    const completed = completedCheckpoints(documents);
    if (completed.length < MIN_CHECKPOINTS) return [];
    const oldest = completed[0]!;
    const latest = completed[completed.length - 1]!;
    const full = latest.checkpointed_size >= FULL_SHARE * latest.state_size;
    if (!full || latest.state_size < LARGE_FULL_SIZE_BYTES || latest.state_size < GROWTH_FACTOR * oldest.state_size) return [];
    const backend = documents.checkpointConfig?.state_backend ?? 'unknown';
    return [{
      code: 'growing-full-checkpoints',
      lesson: 'full-vs-incremental',
      params: { fromBytes: oldest.state_size, toBytes: latest.state_size, fromId: oldest.id, toId: latest.id, durationMs: latest.end_to_end_duration, backend },
    }];
  },
};
