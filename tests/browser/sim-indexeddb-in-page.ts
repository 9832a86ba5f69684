/**
 * Runs in the page (imported through Vite by sim-indexeddb-mirror.test.ts): the page's SimDriver
 * with its checkpoints mirrored into Chromium's IndexedDB, checked against the simulation's
 * retained checkpoints while it runs and against Flink's retention after it ended.
 */
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { checkStorageLeaks, type StorageLeaks } from '../../engine/storage/storage-leak-checker.ts';
import { jobDirectory } from '../../engine/storage/checkpoint-layout.ts';
import { checkpointDirectory } from '../../engine/storage/checkpoint-layout.ts';
import { readCompletedCheckpoint } from '../../engine/storage/checkpoint-files.ts';
import { SimDriver } from '../../web/playground/sim-driver.ts';
import { browserLsmStorage } from '../../web/playground/wa-sqlite-browser.ts';
import { IndexedDbCheckpointStorage } from '../../workers/storage/indexeddb-checkpoint-storage.ts';

export interface MirrorCheck {
  time: number;
  /** ids the simulation's CompletedCheckpointStore retains */
  retained: number[];
  /** ids of the chk-N directories in the IndexedDB database */
  stored: number[];
  /** retained checkpoints read back from the database equal to the simulation's */
  readBackEqual: boolean;
  leaks: StorageLeaks;
}

export interface MirroredRunResult {
  databaseName: string;
  jobStatus: string;
  restores: number;
  restoreSources: string[];
  sharedFilesSeen: number;
  checks: MirrorCheck[];
  mirrorErrors: string[];
  /** after the run ended (finished, or cancelled when the page let go of it) */
  afterEnd: { retainedBeforeEnd: number[]; files: string[]; stored: number[]; leaks: StorageLeaks };
}

/** Same JSON for equal snapshots (Maps and typed arrays included). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof Map) return { map: [...v.entries()] };
    if (ArrayBuffer.isView(v)) return { bytes: [...new Uint8Array(v.buffer, v.byteOffset, v.byteLength)] };
    return v;
  });
}

export async function runMirrored(scenarioInput: object, options: { untilMs: number; checkEveryMs: number; end: 'dispose' | 'run-to-end' }): Promise<MirroredRunResult> {
  const validated = validateScenario(scenarioInput);
  if (!validated.ok) throw new Error(validated.errors.map((e) => `${e.path}: ${e.message}`).join('\n'));
  const scenario = validated.scenario;
  const driver = new SimDriver(scenario, { lsmStorage: await browserLsmStorage() });
  const remote = driver.checkpointStorage;
  if (!remote) throw new Error('the page has no IndexedDB: the driver mirrors nothing');
  const checks: MirrorCheck[] = [];
  let sharedFilesSeen = 0;
  for (let t = options.checkEveryMs; t <= options.untilMs && !driver.isTerminal; t += options.checkEveryMs) {
    driver.advanceTo(t);
    await remote.idle();
    const retained = driver.retainedCheckpoints.map((c) => c.id);
    let readBackEqual = true;
    for (const checkpoint of driver.retainedCheckpoints) {
      const back = await readCompletedCheckpoint(remote.storage, checkpointDirectory(remote.location, checkpoint.id));
      if (!back.ok || canonical(back.checkpoint) !== canonical(checkpoint)) readBackEqual = false;
    }
    sharedFilesSeen = Math.max(sharedFilesSeen, remote.view.sharedFiles);
    checks.push({ time: driver.now, retained, stored: remote.view.checkpointIds, readBackEqual, leaks: await remote.checkLeaks() });
  }
  const retainedBeforeEnd = driver.retainedCheckpoints.map((c) => c.id);
  if (options.end === 'run-to-end') {
    driver.advanceTo(Number.MAX_SAFE_INTEGER);
    await remote.idle();
  }
  const location = remote.location;
  await driver.dispose();
  const mirrorErrors = remote.errors.map((e) => e.error.message);

  // Read what stays with a fresh connection, as the next page load would.
  const reopened = await IndexedDbCheckpointStorage.open({ databaseName: remote.databaseName, location });
  try {
    const files = (await reopened.list(`${jobDirectory(location)}/`)).map((f) => f.path);
    const leaks = await checkStorageLeaks(reopened, {
      retainedCheckpointIds: driver.retainedCheckpoints.map((c) => c.id),
      termination: { policy: driver.config.externalizedRetention, jobStatus: driver.jobStatus as 'FINISHED' | 'CANCELED' | 'FAILED' },
    });
    return {
      databaseName: remote.databaseName,
      jobStatus: driver.jobStatus,
      restores: driver.restores.length,
      restoreSources: driver.restores.flatMap((r) => r.subtasks.map((s) => s.source)),
      sharedFilesSeen,
      checks,
      mirrorErrors,
      afterEnd: { retainedBeforeEnd, files, stored: remote.view.checkpointIds, leaks },
    };
  } finally {
    await reopened.close();
  }
}
