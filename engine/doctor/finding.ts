/**
 * One thing the checkpoint doctor found: a message code and its parameters (so the CLI and the page
 * render it in English or Simplified Chinese), and the lesson that shows the problem and its fix.
 * Findings are values, never text, so `--json` and the page read the same figures.
 */

/** Every message the doctor can say; doctor-messages.ts must render each in both languages. */
export const FINDING_CODES = [
  'always-checkpointing',
  'backpressure-start-delay',
  'long-alignment',
  'growing-full-checkpoints',
  'slow-async-phase',
  'slow-async-phase-uncompressed',
  'heap-timers-sync-phase',
  'long-sync-phase-rocksdb',
  'failures-near-tolerable-limit',
  'slow-remote-restore',
  'at-least-once-duplicates',
  'at-least-once-sink-unknown',
  'subtask-skew',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];

/** The lessons the doctor links to (engine/lessons/catalog ids; a test checks each exists). */
export const DOCTOR_LESSON_IDS = [
  'interval-and-min-pause',
  'backpressure-and-unaligned',
  'full-vs-incremental',
  'parallelism-and-checkpoint-duration',
  'timers-and-compression',
  'timeout-and-tolerable-failures',
  'task-local-recovery',
  'exactly-once-vs-at-least-once',
] as const;

export type DoctorLessonId = (typeof DOCTOR_LESSON_IDS)[number];

/** Durations are in ms and sizes in bytes, as in Flink's documents; the renderer formats them. */
export type FindingParams = Readonly<Record<string, string | number>>;

export interface Finding {
  code: FindingCode;
  lesson: DoctorLessonId;
  params: FindingParams;
}
