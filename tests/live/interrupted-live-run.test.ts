import { describe, expect, it } from 'vitest';
import { liveCheckpointDatabaseName } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import {
  forgetLiveRun,
  liveRunInterruptedByReload,
  readLiveRunRecord,
  recordRunningLiveRun,
  resumableRunRoots,
  type LiveRunRecord,
  type RecordStorage,
} from '../../web/playground/storage/interrupted-live-run.ts';
import { liveRunRoot } from '../../web/playground/storage/run-storage-lease.ts';

function memoryStorage(): RecordStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) };
}

const notRunning = async () => false;

const run = (runId: string, checkpointId = 7): LiveRunRecord => ({
  scenarioText: '{"version":1}',
  seed: 5,
  checkpointDatabase: liveCheckpointDatabaseName(runId),
  checkpointId,
  jobTimeMs: 12_300,
});

describe('the record of the running live run, which a reload finds', () => {
  it('offers the run recorded last after a reload, and keeps its storage from the sweep', async () => {
    const storage = memoryStorage();
    recordRunningLiveRun(storage, run('a1-x', 6));
    recordRunningLiveRun(storage, run('a1-x', 7));
    const interrupted = await liveRunInterruptedByReload(storage, true, notRunning);
    expect(interrupted).toEqual(run('a1-x', 7));
    expect([...resumableRunRoots(interrupted, liveRunRoot)]).toEqual(['checkpoint-playground-live/a1-x']);
  });

  it('forgets the run when the page was opened anew, not reloaded: its storage is swept as abandoned', async () => {
    const storage = memoryStorage();
    recordRunningLiveRun(storage, run('a1-x'));
    expect(await liveRunInterruptedByReload(storage, false, notRunning)).toBeUndefined();
    expect(readLiveRunRecord(storage)).toBeUndefined();
    expect(resumableRunRoots(undefined, liveRunRoot).size).toBe(0);
  });

  it('offers nothing while another tab runs the recorded run (it holds the run’s lease), and keeps its record', async () => {
    const storage = memoryStorage();
    recordRunningLiveRun(storage, run('a1-x'));
    for (const reloaded of [true, false]) expect(await liveRunInterruptedByReload(storage, reloaded, async () => true)).toBeUndefined();
    expect(readLiveRunRecord(storage)).toEqual(run('a1-x'));
  });

  it('forgets a run once it ended or was discarded, but not a newer run recorded since', async () => {
    const storage = memoryStorage();
    recordRunningLiveRun(storage, run('b2-y'));
    forgetLiveRun(storage, run('a1-x').checkpointDatabase);
    expect(readLiveRunRecord(storage)?.checkpointDatabase).toBe(run('b2-y').checkpointDatabase);
    forgetLiveRun(storage, run('b2-y').checkpointDatabase);
    expect(readLiveRunRecord(storage)).toBeUndefined();
  });

  it('offers nothing for a record that is not whole or not a record, and drops it', async () => {
    for (const text of ['not json', '{"scenarioText":"x","seed":1}', JSON.stringify({ ...run('a1-x'), checkpointId: -1 }), 'null']) {
      const storage = memoryStorage();
      storage.setItem('checkpoint-playground:running-live-run', text);
      expect(await liveRunInterruptedByReload(storage, true, notRunning), text).toBeUndefined();
      forgetLiveRun(storage, 'whatever');
      expect(storage.items.size, text).toBe(0);
    }
  });

  it('goes on when the browser refuses the record (quota, denied storage)', async () => {
    const refusing: RecordStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(() => recordRunningLiveRun(refusing, run('a1-x'))).not.toThrow();
    expect(await liveRunInterruptedByReload(refusing, true, notRunning)).toBeUndefined();
    expect(await liveRunInterruptedByReload(undefined, true, notRunning)).toBeUndefined();
  });
});
