/**
 * A run's statistics as compare mode reads them, from a Simulation (or the live JobManager):
 * the REST documents `ckpt-lab run --json` writes, the subtasks documents of the checkpoints in
 * the history, and the restores. The page reads the same from its PlaygroundState.
 */
import { runDoctorDocuments } from '../doctor/run-doctor-documents.ts';
import type { RunReportSource } from '../run/run-report.ts';
import type { CompareStatistics } from './compare-figures.ts';

export function compareStatisticsOf(source: RunReportSource): CompareStatistics {
  // duplicates do not enter any compared figure
  const documents = runDoctorDocuments(source, 0);
  return {
    checkpoints: source.coordinator.stats.checkpointingStatistics(),
    checkpointSubtaskDetails: documents.checkpointSubtaskDetails ?? [],
    restores: source.restores,
  };
}
