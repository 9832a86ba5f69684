/**
 * The doctor's documents for a playground run: the same REST documents `ckpt-lab run --json`
 * writes, the subtasks documents of every checkpoint still in the history (a real job's user
 * saves one or two by hand), and what only the playground knows.
 */
import type { CheckpointingStatisticsDocument, CheckpointStatisticsDocument } from '../checkpoint/stats/rest-document-types.ts';
import { checkpointConfigDocument } from '../checkpoint/stats/checkpoint-config-document.ts';
import type { CheckpointSubtaskDetails } from '../interop/flink-statistics-import.ts';
import type { RunReportSource } from '../run/run-report.ts';
import type { DoctorDocuments } from './doctor-documents.ts';

export function runDoctorDocuments(source: RunReportSource, duplicates: number): DoctorDocuments {
  const stats = source.coordinator.stats;
  const checkpointDetails: Record<string, CheckpointStatisticsDocument> = stats.allCheckpointDetails();
  const vertexIds = source.scenario.job.vertices.map((v) => v.id);
  const checkpointSubtaskDetails: CheckpointSubtaskDetails[] = Object.keys(checkpointDetails).flatMap((id) =>
    vertexIds.flatMap((vertexId) => {
      const statistics = stats.taskCheckpointStatistics(Number(id), vertexId);
      return statistics === undefined ? [] : [{ checkpointId: Number(id), vertexId, statistics }];
    }),
  );
  const { config } = source;
  return {
    checkpoints: stats.checkpointingStatistics() as CheckpointingStatisticsDocument,
    checkpointConfig: checkpointConfigDocument(config),
    checkpointDetails,
    checkpointSubtaskDetails,
    run: {
      sinks: source.scenario.job.vertices.flatMap(({ operator }) => (operator.type === 'sink' ? [operator.sink] : [])),
      duplicates,
      timerServiceFactory: config.timerServiceFactory,
      snapshotCompression: config.snapshotCompression,
      localRecovery: config.localBackupEnabled && config.localRecovery,
      restores: source.restores,
    },
  };
}
