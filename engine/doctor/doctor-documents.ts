/**
 * What the checkpoint doctor reads: Flink's checkpoint REST documents in their current shape, the
 * same whether a playground run wrote them (`ckpt-lab run --json`) or the importer read them from a
 * real job (`ckpt-lab inspect`), and, for a playground run only, the facts a real job's statistics
 * do not hold (the sinks' kind, the timer service, the restores' durations).
 */
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
} from '../checkpoint/stats/rest-document-types.ts';
import type { TimerServiceFactory } from '../config/flink-config.ts';
import type { CheckpointSubtaskDetails } from '../interop/flink-statistics-import.ts';
import type { RestoreRecord } from '../run/job-events.ts';

/** What only the playground knows about a run; a real job's checkpoint statistics do not say. */
export interface PlaygroundRunFacts {
  /** each sink vertex's kind: `plain` writes every record at once, so a replay writes it again */
  sinks: readonly ('plain' | 'two-phase-commit')[];
  /** records written more often than in the failure-free run */
  duplicates: number;
  timerServiceFactory: TimerServiceFactory;
  snapshotCompression: boolean;
  /** a local copy is written and restored from (both local-recovery options on) */
  localRecovery: boolean;
  restores: readonly RestoreRecord[];
}

/** Any of the documents may be missing: a saved response holds one endpoint's. */
export interface DoctorDocuments {
  checkpoints?: CheckpointingStatisticsDocument;
  checkpointConfig?: CheckpointConfigDocument;
  /** checkpoint id → details */
  checkpointDetails?: Record<string, CheckpointStatisticsDocument>;
  checkpointSubtaskDetails?: readonly CheckpointSubtaskDetails[];
  run?: PlaygroundRunFacts;
}
