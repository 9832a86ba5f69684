/**
 * The figures compare mode holds side by side, read from a run's checkpoint statistics in the
 * shape `ckpt-lab run --json` and `playground.stats()` write them (Flink's REST documents), plus
 * the subtasks documents (…/details/:id/subtasks/:vertexid) for what Flink only shows per
 * subtask: start delay, alignment, the sync phase. Medians, not means: one slow checkpoint is not
 * the configuration's doing. A figure nothing measured is NaN.
 */
import type {
  CheckpointingStatisticsDocument,
  CompletedCheckpointStatisticsDocument,
  CompletedSubtaskCheckpointStatisticsDocument,
  JacksonDouble,
} from '../checkpoint/stats/rest-document-types.ts';
import { pausesBetween } from '../doctor/checkpoint-history.ts';
import { median } from '../doctor/median.ts';
import type { CheckpointSubtaskDetails } from '../interop/flink-statistics-import.ts';
import type { RestoreRecord } from '../run/job-events.ts';

/** A run's statistics as compare mode reads them. */
export interface CompareStatistics {
  /** Flink's GET /jobs/:id/checkpoints */
  checkpoints: CheckpointingStatisticsDocument;
  /** the subtasks documents of the checkpoints in the history (as `ckpt-lab inspect --json` names them) */
  checkpointSubtaskDetails?: readonly CheckpointSubtaskDetails[];
  restores?: readonly RestoreRecord[];
}

export const COMPARE_FIGURES = [
  'end-to-end-p50',
  'end-to-end-p90',
  'checkpointed-size-p50',
  'full-size-p50',
  'alignment-p50',
  'start-delay-p50',
  'sync-duration-p50',
  'persisted-data-p50',
  'checkpoint-pause-p50',
  'restore-duration-p50',
  'restored-remote-bytes',
  'restored-from-local',
  'completed-checkpoints',
  'failed-checkpoints',
] as const;
export type CompareFigure = (typeof COMPARE_FIGURES)[number];

export type FigureUnit = 'ms' | 'bytes' | 'count';

export const FIGURE_UNITS: { readonly [F in CompareFigure]: FigureUnit } = {
  'end-to-end-p50': 'ms',
  'end-to-end-p90': 'ms',
  'checkpointed-size-p50': 'bytes',
  'full-size-p50': 'bytes',
  'alignment-p50': 'ms',
  'start-delay-p50': 'ms',
  'sync-duration-p50': 'ms',
  'persisted-data-p50': 'bytes',
  'checkpoint-pause-p50': 'ms',
  'restore-duration-p50': 'ms',
  'restored-remote-bytes': 'bytes',
  'restored-from-local': 'count',
  'completed-checkpoints': 'count',
  'failed-checkpoints': 'count',
};

export type CompareFigures = { readonly [F in CompareFigure]: number };

const numberOf = (value: JacksonDouble): number => (typeof value === 'number' ? value : NaN);

export function compareFigures(statistics: CompareStatistics): CompareFigures {
  const { summary, counts } = statistics.checkpoints;
  const perCheckpoint = slowestSubtaskPerCheckpoint(statistics.checkpointSubtaskDetails ?? []);
  const restores = statistics.restores ?? [];
  const restored = restores.flatMap((r) => r.subtasks);
  return {
    'end-to-end-p50': numberOf(summary.end_to_end_duration.p50),
    'end-to-end-p90': numberOf(summary.end_to_end_duration.p90),
    'checkpointed-size-p50': numberOf(summary.checkpointed_size.p50),
    'full-size-p50': numberOf(summary.state_size.p50),
    'alignment-p50': median(perCheckpoint.map((c) => c.alignment)),
    'start-delay-p50': median(perCheckpoint.map((c) => c.startDelay)),
    'sync-duration-p50': median(perCheckpoint.map((c) => c.sync)),
    'persisted-data-p50': numberOf(summary.persisted_data.p50),
    'checkpoint-pause-p50': median(pausesBetween(completedInHistory(statistics.checkpoints))),
    // per subtask: a local copy speeds up the subtasks that have one, not the slowest of a restore
    'restore-duration-p50': median(restored.map((s) => s.durationMs)),
    'restored-remote-bytes': restores.length === 0 ? NaN : restored.reduce((sum, s) => sum + s.remoteBytes, 0),
    'restored-from-local': restored.length === 0 ? NaN : restored.filter((s) => s.source === 'local').length,
    'completed-checkpoints': counts.completed,
    'failed-checkpoints': counts.failed,
  };
}

function completedInHistory(checkpoints: CheckpointingStatisticsDocument): CompletedCheckpointStatisticsDocument[] {
  return checkpoints.history
    .filter((c): c is CompletedCheckpointStatisticsDocument => c.className === 'completed' && !c.is_savepoint)
    .sort((a, b) => a.id - b.id);
}

interface CheckpointPhases {
  alignment: number;
  startDelay: number;
  sync: number;
}

/**
 * Per completed checkpoint, the longest alignment, start delay and sync phase of any subtask of
 * any vertex: a checkpoint is as late as its slowest subtask (as the `alignment-duration` and
 * `start-delay` expectations read them).
 */
function slowestSubtaskPerCheckpoint(details: readonly CheckpointSubtaskDetails[]): CheckpointPhases[] {
  const byCheckpoint = new Map<number, CheckpointPhases>();
  for (const { checkpointId, statistics } of details) {
    // a checkpoint still running has only its fastest subtasks so far
    if (statistics.status !== 'COMPLETED') continue;
    const subtasks = statistics.subtasks.filter((s): s is CompletedSubtaskCheckpointStatisticsDocument => s.className === 'completed');
    const phases = byCheckpoint.get(checkpointId) ?? { alignment: 0, startDelay: 0, sync: 0 };
    for (const s of subtasks) {
      phases.alignment = Math.max(phases.alignment, s.alignment.duration);
      phases.startDelay = Math.max(phases.startDelay, s.start_delay);
      phases.sync = Math.max(phases.sync, s.checkpoint.sync);
    }
    byCheckpoint.set(checkpointId, phases);
  }
  return [...byCheckpoint.values()];
}
