/**
 * The checkpoint doctor: every rule, in the order a reader should fix things (the job's rhythm
 * first, then what slows a checkpoint, then failures, restores and output).
 */
import type { DoctorDocuments } from './doctor-documents.ts';
import type { DoctorRule } from './doctor-rule.ts';
import type { Finding } from './finding.ts';
import { alwaysCheckpointing } from './rules/always-checkpointing.ts';
import { atLeastOnceDuplicates } from './rules/at-least-once-duplicates.ts';
import { backpressureStartDelay } from './rules/backpressure-start-delay.ts';
import { failuresNearTolerableLimit } from './rules/failures-near-tolerable-limit.ts';
import { growingFullCheckpoints } from './rules/growing-full-checkpoints.ts';
import { longAlignment } from './rules/long-alignment.ts';
import { longSyncPhase } from './rules/long-sync-phase.ts';
import { slowAsyncPhase } from './rules/slow-async-phase.ts';
import { slowRemoteRestore } from './rules/slow-remote-restore.ts';
import { subtaskSkew } from './rules/subtask-skew.ts';

export const DOCTOR_RULES: readonly DoctorRule[] = [
  alwaysCheckpointing,
  backpressureStartDelay,
  longAlignment,
  growingFullCheckpoints,
  slowAsyncPhase,
  longSyncPhase,
  subtaskSkew,
  failuresNearTolerableLimit,
  slowRemoteRestore,
  atLeastOnceDuplicates,
];

export function diagnose(documents: DoctorDocuments): Finding[] {
  return DOCTOR_RULES.flatMap((rule) => rule.diagnose(documents));
}
