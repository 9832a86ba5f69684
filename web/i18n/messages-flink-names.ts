/**
 * What each of Flink's enum names means, for the tooltip the page shows on it (FlinkName.svelte).
 * The names themselves stay as Flink shows them (RUNNING, COMPLETED, EXACTLY_ONCE, HASH), in every
 * locale, so a reader finds the same words in Flink's dashboard, logs and REST API; only the
 * explanation is translated. Keys are `flinkName.<kind>.<NAME>` (flink-names.ts looks them up);
 * the types below make every value the engine can show carry one. Merged into `en` in
 * messages-en.ts; the Chinese is in zh-CN/, loaded with that locale.
 */
import type { SavepointFormat } from '../../engine/checkpoint/stats/checkpoint-stats-types.ts';
import type { JobStatus } from '../../engine/job/job-status.ts';
import type { Partitioning } from '../../engine/scenario/scenario-types.ts';
import type { ExecutionState } from '../../engine/task/task-lifecycle.ts';

type Explained<Kind extends string, Name extends string> = { readonly [N in Name as `flinkName.${Kind}.${N}`]: string };
type CheckpointStatus = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
type CheckpointingMode = 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';

export const flinkNamesEn = {
  /** the tooltip: the name as Flink shows it, then what it means */
  'flinkName.tooltip': '{name} — {explanation}',

  ...({
    'flinkName.jobStatus.CREATED': 'The job was submitted and waits for its tasks to be scheduled.',
    'flinkName.jobStatus.RUNNING': 'The job is running: its tasks are deployed and process records.',
    'flinkName.jobStatus.RESTARTING': 'A task failed: the job cancels its tasks and, as its restart strategy allows, restarts them from the latest completed checkpoint.',
    'flinkName.jobStatus.FAILING': 'The job failed and its restart strategy allows no restart: it cancels its tasks on the way to FAILED.',
    'flinkName.jobStatus.FAILED': 'The job failed for good: its restart strategy allowed no more restarts.',
    'flinkName.jobStatus.CANCELLING': 'The job is being cancelled: its tasks are stopping.',
    'flinkName.jobStatus.CANCELED': 'The job was cancelled: it stopped and does not restart.',
    'flinkName.jobStatus.FINISHED': 'The job finished: its sources reached their end and every task completed.',
  } satisfies Explained<'jobStatus', JobStatus>),
  // Flink's other job statuses, which a job imported from a Flink cluster can be in
  'flinkName.jobStatus.INITIALIZING': 'The JobManager received the job and is setting it up.',
  'flinkName.jobStatus.SUSPENDED': 'The job was suspended, for example when its JobManager lost leadership; another JobManager takes it over.',

  ...({
    'flinkName.executionState.CREATED': 'The subtask exists but has no slot yet.',
    'flinkName.executionState.DEPLOYING': 'The subtask is being deployed into a TaskManager slot.',
    'flinkName.executionState.INITIALIZING': 'The subtask restores its state (from a checkpoint, if there is one) before it processes records.',
    'flinkName.executionState.RUNNING': 'The subtask processes records.',
    'flinkName.executionState.FINISHED': 'The subtask processed all its input and ended.',
    'flinkName.executionState.CANCELING': 'The subtask is being cancelled: the job fails over or is cancelled.',
    'flinkName.executionState.CANCELED': 'The subtask was cancelled.',
    'flinkName.executionState.FAILED': 'The subtask failed with an error; the job fails over.',
  } satisfies Explained<'executionState', ExecutionState>),
  'flinkName.executionState.SCHEDULED': 'The subtask has been given a slot and waits to be deployed.',

  ...({
    'flinkName.checkpointStatus.IN_PROGRESS': 'The checkpoint was triggered and not every subtask has acknowledged it yet.',
    'flinkName.checkpointStatus.COMPLETED': 'Every subtask acknowledged the checkpoint and its metadata was written: the job can restore from it.',
    'flinkName.checkpointStatus.FAILED': 'The checkpoint was aborted (it timed out, a task failed, or storage failed) and its files were discarded.',
  } satisfies Explained<'checkpointStatus', CheckpointStatus>),

  ...({
    'flinkName.checkpointingMode.EXACTLY_ONCE':
      'After a restore every record counts in the state exactly once: a subtask with several inputs aligns their barriers (or, with unaligned checkpoints, stores the records in flight with the checkpoint).',
    'flinkName.checkpointingMode.AT_LEAST_ONCE':
      'Barriers are not aligned: a subtask goes on processing inputs whose barrier has arrived, so after a restore some records count twice.',
  } satisfies Explained<'checkpointingMode', CheckpointingMode>),

  ...({
    'flinkName.savepointFormat.CANONICAL': 'A savepoint in Flink’s own format, the same for every state backend: it can be restored with another backend, at the cost of a slower snapshot.',
    'flinkName.savepointFormat.NATIVE': 'A savepoint in the state backend’s own format (RocksDB’s files): faster to take and restore, but only with the same backend.',
  } satisfies Explained<'savepointFormat', SavepointFormat>),

  'flinkName.stateHandle.KeyGroupsStateHandle': 'A full snapshot of the keyed state of a range of key groups, in one file.',
  'flinkName.stateHandle.IncrementalRemoteKeyedStateHandle':
    'RocksDB’s incremental snapshot of a range of key groups: its SST files, the new ones uploaded, the older ones shared with earlier checkpoints.',
  'flinkName.stateHandle.OperatorStateHandle': 'Operator state, not keyed (a source’s offsets, for example): redistributed over the subtasks on a rescale.',
  'flinkName.stateHandle.InputChannelStateHandle': 'The records in flight in an input channel when an unaligned checkpoint was taken.',
  'flinkName.stateHandle.ResultSubpartitionStateHandle': 'The records in an output buffer (a result subpartition) when an unaligned checkpoint was taken.',

  ...({
    'flinkName.partitioner.FORWARD': 'Each subtask sends its records to the one subtask of the next operator with the same index.',
    'flinkName.partitioner.HASH': 'Records go to the subtask that owns their key’s key group (keyBy): the same key always lands on the same subtask.',
    'flinkName.partitioner.REBALANCE': 'Records are spread round-robin over all subtasks of the next operator.',
    'flinkName.partitioner.BROADCAST': 'Every record goes to every subtask of the next operator.',
  } satisfies Explained<'partitioner', Uppercase<Partitioning>>),
} as const;
