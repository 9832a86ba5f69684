/**
 * Random Flink checkpoint REST documents in the current (2.x) shape, built field by field from
 * the REST DTOs, independent of the playground's stats tracker: any figures Flink's types allow,
 * "NaN" percentiles, Long.MAX_VALUE intervals, in-progress and failed entries, null latest entries.
 */
import fc from 'fast-check';
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  CompletedSubtaskCheckpointStatisticsDocument,
  PendingSubtaskCheckpointStatisticsDocument,
  StatsSummaryDocument,
  TaskCheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../engine/checkpoint/stats/rest-document-types.ts';

const long = fc.integer({ min: 0, max: 2 ** 40 });
const timestamp = fc.oneof(fc.constant(-1), fc.integer({ min: 1_500_000_000_000, max: 1_800_000_000_000 }));
const count = fc.nat({ max: 10_000 });
const jacksonDouble = fc.oneof(fc.constant('NaN' as const), fc.double({ min: 0, max: 1e9, noNaN: true }));
const vertexId = fc.stringMatching(/^[0-9a-f]{32}$/);
const status = fc.constantFrom('IN_PROGRESS' as const, 'COMPLETED' as const, 'FAILED' as const);

export const statsSummary: fc.Arbitrary<StatsSummaryDocument> = fc.record({
  min: long, max: long, avg: long, p50: jacksonDouble, p90: jacksonDouble, p95: jacksonDouble, p99: jacksonDouble, p999: jacksonDouble,
});

const taskStatistics: fc.Arbitrary<TaskCheckpointStatisticsDocument> = fc.record({
  id: count, status, latest_ack_timestamp: timestamp, checkpointed_size: long, state_size: long, end_to_end_duration: long,
  alignment_buffered: long, processed_data: long, persisted_data: long, num_subtasks: count, num_acknowledged_subtasks: count,
});

function sharedFields(withTasks: boolean) {
  return {
    id: count,
    is_savepoint: fc.boolean(),
    savepointFormat: fc.constantFrom(null, 'CANONICAL' as const, 'NATIVE' as const),
    trigger_timestamp: timestamp,
    latest_ack_timestamp: timestamp,
    checkpointed_size: long,
    state_size: long,
    end_to_end_duration: long,
    alignment_buffered: long,
    processed_data: long,
    persisted_data: long,
    num_subtasks: count,
    num_acknowledged_subtasks: count,
    checkpoint_type: fc.constantFrom('CHECKPOINT' as const, 'UNALIGNED_CHECKPOINT' as const, 'SAVEPOINT' as const, 'SYNC_SAVEPOINT' as const),
    tasks: withTasks ? fc.dictionary(vertexId, taskStatistics, { maxKeys: 3 }) : fc.constant({}),
  };
}

const STATUS_OF_CLASS = { completed: 'COMPLETED', failed: 'FAILED', in_progress: 'IN_PROGRESS' } as const;

/** One entry of any subtype, keys in Jackson's order: className first, the subtype's own fields last. */
export function checkpointStatistics(withTasks: boolean): fc.Arbitrary<CheckpointStatisticsDocument> {
  const parts = fc.tuple(
    fc.constantFrom('completed' as const, 'failed' as const, 'in_progress' as const),
    fc.record(sharedFields(withTasks)),
    fc.option(fc.string(), { nil: null }),
    fc.boolean(),
    timestamp,
  );
  return parts.map(([className, shared, text, flag, failedAt]) => {
    const { id, ...rest } = shared;
    const base = { className, id, status: STATUS_OF_CLASS[className], ...rest };
    if (className === 'completed') return { ...base, external_path: text, discarded: flag } as CheckpointStatisticsDocument;
    if (className === 'failed') return { ...base, failure_timestamp: failedAt, failure_message: text } as CheckpointStatisticsDocument;
    return base as CheckpointStatisticsDocument;
  });
}

const completedEntry = checkpointStatistics(false).filter((e) => e.className === 'completed');
const failedEntry = checkpointStatistics(false).filter((e) => e.className === 'failed');

export const checkpointingStatistics: fc.Arbitrary<CheckpointingStatisticsDocument> = fc.record({
  counts: fc.record({ restored: count, total: count, in_progress: count, completed: count, failed: count }),
  summary: fc.record({
    checkpointed_size: statsSummary, state_size: statsSummary, end_to_end_duration: statsSummary,
    alignment_buffered: statsSummary, processed_data: statsSummary, persisted_data: statsSummary,
  }),
  latest: fc.record({
    completed: fc.option(completedEntry, { nil: null }),
    savepoint: fc.option(completedEntry, { nil: null }),
    failed: fc.option(failedEntry, { nil: null }),
    restored: fc.option(
      fc.record({ id: count, restore_timestamp: timestamp, is_savepoint: fc.boolean(), external_path: fc.option(fc.string(), { nil: null }) }),
      { nil: null },
    ),
  }),
  history: fc.array(checkpointStatistics(false), { maxLength: 10 }),
}) as fc.Arbitrary<CheckpointingStatisticsDocument>;

const completedSubtask = (index: number): fc.Arbitrary<CompletedSubtaskCheckpointStatisticsDocument> =>
  fc.record({
    ack_timestamp: timestamp, end_to_end_duration: long, checkpointed_size: long, state_size: long,
    checkpoint: fc.record({ sync: long, async: long }),
    alignment: fc.record({ buffered: long, processed: long, persisted: long, duration: long }),
    start_delay: long, unaligned_checkpoint: fc.boolean(), aborted: fc.boolean(),
  }).map((s) => ({ className: 'completed', index, status: 'completed', ...s }));

const subtask = (index: number) =>
  fc.oneof(completedSubtask(index), fc.constant<PendingSubtaskCheckpointStatisticsDocument>({ className: 'pending', index, status: 'pending_or_failed' }));

export const taskCheckpointStatisticsWithSubtaskDetails: fc.Arbitrary<TaskCheckpointStatisticsWithSubtaskDetailsDocument> = fc
  .tuple(
    taskStatistics,
    fc.record({
      checkpointed_size: statsSummary, state_size: statsSummary, end_to_end_duration: statsSummary,
      checkpoint_duration: fc.record({ sync: statsSummary, async: statsSummary }),
      alignment: fc.record({ buffered: statsSummary, processed: statsSummary, persisted: statsSummary, duration: statsSummary }),
      start_delay: statsSummary,
    }),
    fc.nat({ max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => subtask(i)))),
  )
  .map(([task, summary, subtasks]) => ({ ...task, summary, subtasks }));

export const checkpointConfig: fc.Arbitrary<CheckpointConfigDocument> = fc.record({
  mode: fc.constantFrom('exactly_once' as const, 'at_least_once' as const),
  interval: fc.oneof(fc.constant(2 ** 63), long),
  timeout: long,
  min_pause: long,
  max_concurrent: fc.integer({ min: 1, max: 10 }),
  externalization: fc.record({ enabled: fc.boolean(), delete_on_cancellation: fc.boolean() }),
  state_backend: fc.constantFrom('HashMapStateBackend', 'EmbeddedRocksDBStateBackend'),
  checkpoint_storage: fc.constantFrom('JobManagerCheckpointStorage', 'FileSystemCheckpointStorage'),
  unaligned_checkpoints: fc.boolean(),
  tolerable_failed_checkpoints: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  aligned_checkpoint_timeout: long,
  checkpoints_after_tasks_finish: fc.boolean(),
  state_changelog_enabled: fc.boolean(),
  changelog_periodic_materialization_interval: long,
  changelog_storage: fc.constantFrom('memory', 'filesystem'),
});
