/**
 * What every tab of the checkpoint dashboard reads, the same for a playground run and an imported
 * Flink job: Flink's REST documents (the sim writes the same shapes the importer reads), a
 * checkpoint's details and an operator's subtasks on demand, and what only a run has (its job
 * events, restores, where each subtask ran, the scenario's options). The tabs render these
 * documents once, whichever source they came from.
 */
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../engine/checkpoint/stats/rest-document-types.ts';
import type { FlinkVersion } from '../../engine/interop/flink-versions.ts';
import type { JobEvent, RestoreRecord } from '../../engine/run/job-events.ts';
import type { ConfigValue } from '../../engine/scenario/scenario-types.ts';
import type { PlaygroundState } from '../playground-state.svelte.ts';
import type { StatisticsSource } from './dashboard-state.svelte.ts';

export interface DashboardStatistics {
  source: StatisticsSource;
  /** GET /jobs/:id/checkpoints; null before a run started or when no import holds it */
  checkpointing: CheckpointingStatisticsDocument | null;
  /** GET /jobs/:id/checkpoints/config */
  checkpointConfig: CheckpointConfigDocument | null;
  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined;
  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined;
  /** the job's operators in order, with the names they are shown by */
  vertices: readonly { id: string; name: string }[];
  /** subtask index → "TaskManager · host" (a run only: Flink's checkpoint documents do not say) */
  placement(vertexId: string): ReadonlyMap<number, string>;
  /** the run's job events (the trigger failures without a checkpoint id are read from them) */
  events: readonly JobEvent[];
  restores: readonly RestoreRecord[];
  /** the Flink options the scenario sets; null for an import, which has no scenario */
  options: Readonly<Record<string, ConfigValue>> | null;
  /** the Flink releases the imported documents fit; null for a run, which writes the current shape */
  flinkVersions: readonly FlinkVersion[] | null;
  /**
   * Whether an operator's drill-down has a row per subtask: false for a scale run, which reports
   * each operator's Min/Avg/Max once its checkpoint ended, not a thousand rows.
   */
  subtaskRows: boolean;
}

/** A playground run: read through from the page's state, so the tabs follow the run. */
export function runDashboardStatistics(playground: PlaygroundState): DashboardStatistics {
  return {
    source: 'run',
    get checkpointing() {
      return playground.checkpointing;
    },
    get checkpointConfig() {
      return playground.checkpointConfig;
    },
    checkpointDetails: (id) => playground.checkpointDetails(id),
    taskCheckpointStatistics: (id, vertexId) => playground.taskCheckpointStatistics(id, vertexId),
    get vertices() {
      return playground.topology?.vertices ?? playground.scenario?.job.vertices ?? [];
    },
    placement: (vertexId) =>
      new Map(
        (playground.topology?.subtasks ?? []).filter((s) => s.vertexId === vertexId).map((s) => [s.subtaskIndex, `${s.taskManager} · ${s.host}`]),
      ),
    get events() {
      return playground.events;
    },
    get restores() {
      return playground.restores;
    },
    get options() {
      return playground.scenario?.config ?? {};
    },
    flinkVersions: null,
    get subtaskRows() {
      return !playground.scaleRun;
    },
  };
}
