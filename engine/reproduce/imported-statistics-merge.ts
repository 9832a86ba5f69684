/**
 * Several saved responses of one job, taken together: a /checkpoints response, its
 * /checkpoints/config, details and subtasks each add what they hold (a later file's document of
 * the same endpoint replaces an earlier one's).
 */
import type { ImportedFlinkStatistics } from '../interop/flink-statistics-import.ts';

export function mergeImportedStatistics(a: ImportedFlinkStatistics, b: ImportedFlinkStatistics): ImportedFlinkStatistics {
  return {
    ...a,
    checkpoints: b.checkpoints ?? a.checkpoints,
    checkpointConfig: b.checkpointConfig ?? a.checkpointConfig,
    checkpointDetails: { ...a.checkpointDetails, ...b.checkpointDetails },
    checkpointSubtaskDetails: [...(a.checkpointSubtaskDetails ?? []), ...(b.checkpointSubtaskDetails ?? [])],
  };
}
