/**
 * The doctor's documents for a playground run: the same REST documents `ckpt-lab run --json`
 * writes, the subtasks documents of every checkpoint still in the history (a real job's user
 * saves one or two by hand), and what only the playground knows. The CLI reads them from a
 * Simulation, the page from its PlaygroundState: both are a PlaygroundRunView.
 */
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../checkpoint/stats/rest-document-types.ts';
import { checkpointConfigDocument } from '../checkpoint/stats/checkpoint-config-document.ts';
import { readConfig } from '../config/flink-options.ts';
import type { CheckpointSubtaskDetails } from '../interop/flink-statistics-import.ts';
import type { RestoreRecord } from '../run/job-events.ts';
import type { RunReportSource } from '../run/run-report.ts';
import type { Scenario } from '../scenario/scenario-types.ts';
import type { DoctorDocuments } from './doctor-documents.ts';

/** A run so far, as the doctor reads it (the Flink REST endpoints a dashboard calls, and the run's facts). */
export interface PlaygroundRunView {
  scenario: Scenario;
  checkpoints: CheckpointingStatisticsDocument;
  checkpointConfig: CheckpointConfigDocument;
  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined;
  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined;
  restores: readonly RestoreRecord[];
  /** records written more often than in the failure-free run */
  duplicates: number;
}

export function playgroundDoctorDocuments(view: PlaygroundRunView): DoctorDocuments {
  const ids = view.checkpoints.history.map((c) => c.id);
  const checkpointDetails: Record<string, CheckpointStatisticsDocument> = {};
  for (const id of ids) {
    const details = view.checkpointDetails(id);
    if (details) checkpointDetails[String(id)] = details;
  }
  const vertexIds = view.scenario.job.vertices.map((v) => v.id);
  const checkpointSubtaskDetails: CheckpointSubtaskDetails[] = ids.flatMap((checkpointId) =>
    vertexIds.flatMap((vertexId) => {
      const statistics = view.taskCheckpointStatistics(checkpointId, vertexId);
      return statistics === undefined ? [] : [{ checkpointId, vertexId, statistics }];
    }),
  );
  const config = readConfig(view.scenario.config);
  return {
    checkpoints: view.checkpoints,
    checkpointConfig: view.checkpointConfig,
    checkpointDetails,
    checkpointSubtaskDetails,
    run: {
      sinks: view.scenario.job.vertices.flatMap(({ operator }) => (operator.type === 'sink' ? [operator.sink] : [])),
      duplicates: view.duplicates,
      timerServiceFactory: config.timerServiceFactory,
      snapshotCompression: config.snapshotCompression,
      localRecovery: config.localBackupEnabled && config.localRecovery,
      restores: view.restores,
    },
  };
}

/** A Simulation's (or the live JobManager's) run, as `ckpt-lab run` reports it. */
export function runDoctorDocuments(source: RunReportSource, duplicates: number): DoctorDocuments {
  const stats = source.coordinator.stats;
  return playgroundDoctorDocuments({
    scenario: source.scenario,
    checkpoints: stats.checkpointingStatistics(),
    checkpointConfig: checkpointConfigDocument(source.config),
    checkpointDetails: (id) => stats.checkpointDetails(id),
    taskCheckpointStatistics: (id, vertexId) => stats.taskCheckpointStatistics(id, vertexId),
    restores: source.restores,
    duplicates,
  });
}
