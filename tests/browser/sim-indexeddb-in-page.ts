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
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { SimDriver } from '../../web/playground/drivers/sim-driver.ts';
import { browserLsmStorage } from '../../web/playground/storage/wa-sqlite-browser.ts';
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
  /** task-local copies on the hosts' disks (in memory, what the simulation reads) */
  localCopies: number;
  /** each host's IndexedDB database holds exactly the copies of its disk, with the same checksums */
  localDisksPersisted: boolean;
}

/** Whether every host's database holds what its disk holds, once the writes so far landed. */
async function localDisksPersisted(driver: SimDriver): Promise<boolean> {
  for (const disk of driver.hostLocalDisks()) {
    if (!(disk instanceof PersistentHostLocalDisk)) return false;
    await disk.persisted();
    const { copies } = await disk.persistence.read();
    const inDb = copies.map((c) => `${c.path}:${c.checksum}:${c.complete}`).sort();
    const inMemory = disk
      .list()
      .stores.flatMap((s) => s.copies.map((c) => {
        const copy = disk.retrieve({ allocationId: s.allocationId, jobId: s.jobId, subtask: { vertexId: s.vertexId, subtaskIndex: s.subtaskIndex } }, c.checkpointId)!;
        return `${copy.path}:${copy.checksum}:${copy.complete}`;
      }))
      .sort();
    if (inDb.join('\n') !== inMemory.join('\n')) return false;
  }
  return true;
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
  afterEnd: { retainedBeforeEnd: number[]; files: string[]; stored: number[]; leaks: StorageLeaks; localDiskDatabasesDuringRun: number; localDiskDatabasesLeft: string[] };
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
    const localCopies = driver.localDisks().reduce((n, d) => n + d.stores.reduce((m, s) => m + s.copies.length, 0), 0);
    checks.push({ time: driver.now, retained, stored: remote.view.checkpointIds, readBackEqual, leaks: await remote.checkLeaks(), localCopies, localDisksPersisted: await localDisksPersisted(driver) });
  }
  const retainedBeforeEnd = driver.retainedCheckpoints.map((c) => c.id);
  if (options.end === 'run-to-end') {
    driver.advanceTo(Number.MAX_SAFE_INTEGER);
    await remote.idle();
  }
  const location = remote.location;
  const localDiskDatabases = async () => (await indexedDB.databases()).flatMap((d) => (d.name?.includes(`/${location.jobId}/local-disk/`) ? [d.name] : []));
  const localDiskDatabasesDuringRun = (await localDiskDatabases()).length;
  await driver.dispose();
  const localDiskDatabasesLeft = await localDiskDatabases();
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
      afterEnd: { retainedBeforeEnd, files, stored: remote.view.checkpointIds, leaks, localDiskDatabasesDuringRun, localDiskDatabasesLeft },
    };
  } finally {
    await reopened.close();
  }
}
