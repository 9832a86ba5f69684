/**
 * The names of the playground's IndexedDB databases, apart from the code that opens them: the
 * page names a run's databases when it starts the run, and loads the IndexedDB code (and `idb`)
 * only when the run first writes there.
 */

/** The database of one playground. */
export function checkpointDatabaseName(playgroundId: string): string {
  return `checkpoint-playground/${playgroundId}/checkpoints`;
}

/** The top of every live run's storage: apart from `checkpoint-playground/`, which a checkpoint dir names. */
export const LIVE_RUNS_ROOT = 'checkpoint-playground-live';

/**
 * The database of one live run (`runId` unique per run). Live runs live under their own root, so
 * no `execution.checkpointing.dir` of the sim can name a database there.
 */
export function liveCheckpointDatabaseName(runId: string): string {
  return `${LIVE_RUNS_ROOT}/${runId}/checkpoints`;
}

/** The database of `host`'s local disk, next to the playground's checkpoint database. */
export function localDiskDatabaseName(checkpointDatabase: string, host: string): string {
  return `${checkpointDatabase}/local-disk/${host}`;
}
