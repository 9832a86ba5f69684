/**
 * What a lesson step tells the learner to look at: a named region of the page, as data. The
 * engine only names the regions; the page knows where each one is (web/lessons/look-target-place.ts)
 * and outlines it while the step is open. A closed list, so a step cannot point at a region the
 * page does not have (tests/lessons/lesson-look-at.test.ts holds every step to it).
 */
export const LOOK_TARGETS = [
  /** the checkpoint timeline: a bar per checkpoint, the gaps and min pauses between them */
  'timeline',
  /** the job's status (RUNNING, FAILED, CANCELED, FINISHED) in the run controls */
  'job-status',
  /** the job graph: the operators and their subtasks */
  'job-graph',
  /** the dashboard's Overview: the In Progress checkpoint count */
  'in-progress-count',
  /** the dashboard's Overview: the latest completed checkpoint's Start Delay per operator */
  'start-delay-column',
  /** the dashboard's Overview: the latest completed checkpoint's Alignment Duration per operator */
  'alignment-column',
  /** the dashboard's Overview: the latest completed checkpoint's Sync Duration per operator */
  'sync-duration-column',
  /** the dashboard's Overview: the latest failed checkpoint and its cause */
  'latest-failed',
  /** the dashboard's Overview: the latest restore, its subtasks (local or remote) and catch-up */
  'latest-restore',
  /** the dashboard's History: every checkpoint, one row each */
  'checkpoint-history',
  /** the dashboard's History: End to End Duration */
  'end-to-end-column',
  /** the dashboard's History: Checkpointed Data Size */
  'checkpointed-size-column',
  /** the dashboard's History: Full Checkpoint Data Size */
  'full-size-column',
  /** the dashboard's History: the persisted in-flight data of unaligned checkpoints */
  'in-flight-column',
  /** the sink's output against the failure-free run: duplicates and missing records */
  'sink-output',
  /** the chart of the sources' backlog (pendingRecords) */
  'source-backlog-chart',
  /** the rocksdb backend's chart: flushes, compactions and write stalls per second (a rocksdb run only) */
  'rocksdb-chart',
  /** the rocksdb backend's chart of block cache misses per second (a rocksdb run only) */
  'block-cache-chart',
  /** the remote checkpoint storage: the retained chk-N directories and the savepoints */
  'remote-storage',
] as const;

export type LookTarget = (typeof LOOK_TARGETS)[number];

export function isLookTarget(value: unknown): value is LookTarget {
  return (LOOK_TARGETS as readonly unknown[]).includes(value);
}
