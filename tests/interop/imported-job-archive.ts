/**
 * A History Server archive of a job, written as Flink 1.15+'s REST handlers write their responses
 * (/checkpoints, /checkpoints/config, one checkpoint's details), for the "Reproduce in the
 * playground" tests: the shared samples hold only /checkpoints responses, so the configuration
 * and per-vertex details are built here, figure by figure, from what the test says the job is.
 */
export interface ArchivedJob {
  intervalMs: number;
  /** per vertex: its Flink id and subtasks, in the order the details list them */
  vertices: { id: string; subtasks: number }[];
  /** end-to-end durations of the completed checkpoints, newest first */
  durationsMs: number[];
  stateSizeBytes: number;
  checkpointedSizeBytes: number;
  failed: number;
  config: Record<string, unknown>;
}

export function archiveOf(job: ArchivedJob): string {
  const jobId = '5b1f2d6c0c9e4a3db0f7c2c8e1a3d4b5';
  const history = job.durationsMs.map((duration, i) => completed(job, job.durationsMs.length - i, duration));
  const subtasks = job.vertices.reduce((n, v) => n + v.subtasks, 0);
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
    return { min: sorted[0], max: sorted.at(-1), avg: sorted.reduce((a, b) => a + b, 0) / sorted.length, p50: at(0.5), p90: at(0.9), p95: at(0.95), p99: at(0.99), p999: at(0.999) };
  };
  const sizes = summary(history.map(() => job.stateSizeBytes));
  const checkpoints = {
    counts: { restored: 0, total: history.length + job.failed, in_progress: 0, completed: history.length, failed: job.failed },
    summary: {
      checkpointed_size: summary(history.map(() => job.checkpointedSizeBytes)),
      state_size: sizes,
      end_to_end_duration: summary(job.durationsMs),
      alignment_buffered: summary([0]),
      processed_data: summary([0]),
      persisted_data: summary([0]),
    },
    latest: { completed: history[0], savepoint: null, failed: null, restored: null },
    history,
  };
  const details = { ...history[0], tasks: Object.fromEntries(job.vertices.map((v) => [v.id, task(job, v.subtasks)])) };
  const entry = (path: string, json: unknown) => ({ path: `/jobs/${jobId}${path}`, json: JSON.stringify(json) });
  return JSON.stringify({
    archive: [entry('/checkpoints', checkpoints), entry('/checkpoints/config', job.config), entry(`/checkpoints/details/${details.id}`, details)],
  });
}

function completed(job: ArchivedJob, id: number, duration: number) {
  const trigger = 1_700_000_000_000 + id * job.intervalMs;
  const subtasks = job.vertices.reduce((n, v) => n + v.subtasks, 0);
  return {
    className: 'completed',
    id,
    status: 'COMPLETED',
    is_savepoint: false,
    savepointFormat: null,
    trigger_timestamp: trigger,
    latest_ack_timestamp: trigger + duration,
    checkpointed_size: job.checkpointedSizeBytes,
    state_size: job.stateSizeBytes,
    end_to_end_duration: duration,
    alignment_buffered: 0,
    processed_data: 0,
    persisted_data: 0,
    num_subtasks: subtasks,
    num_acknowledged_subtasks: subtasks,
    checkpoint_type: 'CHECKPOINT',
    tasks: {},
    external_path: `s3://bucket/checkpoints/chk-${id}`,
    discarded: false,
  };
}

function task(job: ArchivedJob, subtasks: number) {
  const share = Math.round(job.stateSizeBytes / job.vertices.length);
  return {
    id: job.durationsMs.length,
    status: 'COMPLETED',
    latest_ack_timestamp: 1_700_000_000_000,
    checkpointed_size: Math.round(job.checkpointedSizeBytes / job.vertices.length),
    state_size: share,
    end_to_end_duration: job.durationsMs[0],
    alignment_buffered: 0,
    processed_data: 0,
    persisted_data: 0,
    num_subtasks: subtasks,
    num_acknowledged_subtasks: subtasks,
  };
}

/** Flink 1.15+'s /checkpoints/config for a job on RocksDB, retained on cancellation. */
export function rocksdbConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mode: 'exactly_once',
    interval: 30_000,
    timeout: 600_000,
    min_pause: 5_000,
    max_concurrent: 1,
    externalization: { enabled: true, delete_on_cancellation: false },
    state_backend: 'EmbeddedRocksDBStateBackend',
    checkpoint_storage: 'FileSystemCheckpointStorage',
    unaligned_checkpoints: false,
    tolerable_failed_checkpoints: 3,
    aligned_checkpoint_timeout: 0,
    checkpoints_after_tasks_finish: true,
    state_changelog_enabled: false,
    changelog_periodic_materialization_interval: 600_000,
    changelog_storage: 'memory',
    ...overrides,
  };
}
