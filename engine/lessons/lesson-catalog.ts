/**
 * The lessons, in the order a learner takes them: one per point of the two seed articles (the
 * first a Chinese guide to tuning checkpoints, the second a Chinese translation of Flink's
 * "Tuning Checkpoints and Large State"). tests/lessons/lessons.test.ts runs every one.
 */
import type { Lesson } from './lesson.ts';
import { backpressureAndUnaligned } from './catalog/backpressure-and-unaligned.ts';
import { capacityPlanning } from './catalog/capacity-planning.ts';
import { exactlyOnceVsAtLeastOnce } from './catalog/exactly-once-vs-at-least-once.ts';
import { failOnCheckpointingErrors } from './catalog/fail-on-checkpointing-errors.ts';
import { fullVsIncremental } from './catalog/full-vs-incremental.ts';
import { intervalAndMinPause } from './catalog/interval-and-min-pause.ts';
import { parallelismAndCheckpointDuration } from './catalog/parallelism-and-checkpoint-duration.ts';
import { maxConcurrentCheckpoints } from './catalog/max-concurrent-checkpoints.ts';
import { savepointsAndRetention } from './catalog/savepoints-and-retention.ts';
import { taskLocalRecovery } from './catalog/task-local-recovery.ts';
import { timersAndCompression } from './catalog/timers-and-compression.ts';
import { timeoutAndTolerableFailures } from './catalog/timeout-and-tolerable-failures.ts';

export const LESSONS: readonly Lesson[] = [
  intervalAndMinPause,
  maxConcurrentCheckpoints,
  timeoutAndTolerableFailures,
  exactlyOnceVsAtLeastOnce,
  backpressureAndUnaligned,
  fullVsIncremental,
  parallelismAndCheckpointDuration,
  taskLocalRecovery,
  timersAndCompression,
  capacityPlanning,
  savepointsAndRetention,
  failOnCheckpointingErrors,
];

export function findLesson(id: string): Lesson | undefined {
  return LESSONS.find((lesson) => lesson.id === id);
}
