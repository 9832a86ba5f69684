/**
 * A small record of the live run this page is running, kept in localStorage so that the page a
 * reload brings finds it: the run was interrupted, and can be resumed from its latest completed
 * checkpoint (a JobManager failover recovers it from the HA store) or discarded. The run's
 * storage stays until one of the two: a resumable run is not swept as abandoned.
 */
export interface LiveRunRecord {
  /** the scenario as loaded (JSON text) */
  scenarioText: string;
  seed: number;
  /** the run's checkpoint database (its root holds everything else of the run) */
  checkpointDatabase: string;
  /** the latest completed checkpoint */
  checkpointId: number;
  /** job time when it was last recorded, ms */
  jobTimeMs: number;
}

/** What localStorage offers that this needs (tests pass a Map-backed one). */
export type RecordStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const KEY = 'checkpoint-playground:running-live-run';

/** The page's localStorage, or undefined where the browser denies it (a third-party iframe, Node). */
export function pageRecordStorage(): RecordStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Records the running run (again, with newer figures); a storage that refuses it loses only the offer to resume. */
export function recordRunningLiveRun(storage: RecordStorage | undefined, run: LiveRunRecord): void {
  try {
    storage?.setItem(KEY, JSON.stringify(run));
  } catch {
    // quota or denied: the run goes on; after a reload its storage is swept as abandoned
  }
}

/** The run recorded last, if the record is whole; anything else is no run to resume. */
export function readLiveRunRecord(storage: RecordStorage | undefined): LiveRunRecord | undefined {
  let value: unknown;
  try {
    const text = storage?.getItem(KEY);
    if (!text) return undefined;
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isLiveRunRecord(value) ? value : undefined;
}

/** The run ended or was discarded: nothing to resume (only if the record is still that run's). */
export function forgetLiveRun(storage: RecordStorage | undefined, checkpointDatabase: string): void {
  try {
    const recorded = readLiveRunRecord(storage);
    // Another run's record (a newer run of this page) stays; an unreadable one goes.
    if (recorded === undefined || recorded.checkpointDatabase === checkpointDatabase) storage?.removeItem(KEY);
  } catch {
    // nothing recorded that could be read
  }
}

/**
 * The run a reload interrupted, to offer to resume: only a reload of the page that ran it finds
 * one, and only while no tab runs it (`running`: its lease is held). A page opened anew forgets
 * the record of a run nobody runs, and the run's storage is swept as abandoned.
 */
export async function liveRunInterruptedByReload(storage: RecordStorage | undefined, reloaded: boolean, running: (run: LiveRunRecord) => Promise<boolean>): Promise<LiveRunRecord | undefined> {
  const run = readLiveRunRecord(storage);
  if (!run || (await running(run))) return undefined;
  if (reloaded) return run;
  forgetLiveRun(storage, run.checkpointDatabase);
  return undefined;
}

/** Whether this page was loaded by a reload (the Navigation Timing entry says so). */
export function pageWasReloaded(): boolean {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') return false;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.type === 'reload';
}

/** The roots a sweep keeps: the recorded run's, while it can still be resumed. */
export function resumableRunRoots(run: LiveRunRecord | undefined, rootOf: (checkpointDatabase: string) => string): Set<string> {
  return new Set(run ? [rootOf(run.checkpointDatabase)] : []);
}

function isLiveRunRecord(value: unknown): value is LiveRunRecord {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r['scenarioText'] === 'string' &&
    typeof r['checkpointDatabase'] === 'string' &&
    [r['seed'], r['checkpointId'], r['jobTimeMs']].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)
  );
}
