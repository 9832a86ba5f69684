/**
 * The IndexedDB checkpoint storage gives its connection up when another one (another tab, a newer
 * version of the app) upgrades or deletes the database (idb's `blocking`). Every later request
 * then fails with a storage error that says why, never IndexedDB's raw InvalidStateError: a write
 * or a deletion returns IO_EXCEPTION (the checkpoint it belongs to fails), a read rejects.
 */
import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { checkpointDirectory, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { IndexedDbCheckpointStorage } from '../../workers/storage/indexeddb-checkpoint-storage.ts';

const LOCATION: CheckpointLocation = { checkpointDir: 'indexeddb://checkpoints', jobId: '00000000000000000000000000000000' };
const chk = (id: number, name: string) => `${checkpointDirectory(LOCATION, id)}/${name}`;
let databases = 0;

async function openWithOneCheckpoint(): Promise<IndexedDbCheckpointStorage> {
  const storage = await IndexedDbCheckpointStorage.open({ databaseName: `connection-lost-${++databases}`, location: LOCATION });
  expect(await storage.writeCheckpoint(1, [{ path: chk(1, '_metadata'), bytes: new Uint8Array(4) }])).toBeUndefined();
  return storage;
}

/** Every kind of request, each answered with what it returned or the message it rejected with. */
async function everyRequest(storage: IndexedDbCheckpointStorage) {
  const settle = <T>(p: Promise<T>) => p.then((value) => ({ value }), (error: unknown) => ({ rejected: (error as Error).message }));
  return {
    write: await settle(storage.writeCheckpoint(2, [{ path: chk(2, '_metadata'), bytes: new Uint8Array(4) }])),
    deleteFile: await settle(storage.deleteFile(chk(1, '_metadata'))),
    discard: await settle(storage.discardCheckpoint(1)),
    read: await settle(storage.readFile(chk(1, '_metadata'))),
    list: await settle(storage.list('')),
  };
}

describe('the IndexedDB checkpoint storage after another connection took its database', () => {
  it('fails writes and deletions with IO_EXCEPTION naming the upgrade, and rejects reads saying so', async () => {
    const storage = await openWithOneCheckpoint();
    // Another tab opens the database at a newer version: ours gives way (blocking), the upgrade goes through.
    const newer = await openDB(storage.databaseName, 2);
    newer.close();
    const answers = await everyRequest(storage);
    const because = 'the checkpoint database was closed: another tab or connection upgrades it to a newer version';
    expect(answers.write).toEqual({ value: { reason: 'IO_EXCEPTION', cause: 'storage-error', message: expect.stringContaining(`Caused by: ${because}`) } });
    expect(answers.write).toEqual({ value: expect.objectContaining({ message: expect.stringMatching(/^Could not flush and close the file system output stream to .*chk-2\/_metadata/) }) });
    expect(answers.deleteFile).toEqual({ value: { reason: 'IO_EXCEPTION', cause: 'storage-error', message: `Could not delete ${chk(1, '_metadata')}. Caused by: ${because}` } });
    expect(answers.discard).toEqual({ value: expect.objectContaining({ reason: 'IO_EXCEPTION', message: expect.stringContaining(because) }) });
    expect(answers.read).toEqual({ rejected: `Could not read from the checkpoint storage ${storage.databaseName}. Caused by: ${because}` });
    expect(answers.list).toEqual({ rejected: expect.stringContaining(because) });
    expect(JSON.stringify(answers)).not.toMatch(/InvalidStateError/);
    await storage.close();
  });

  it('names the deletion when another connection deletes the database', async () => {
    const storage = await openWithOneCheckpoint();
    await deleteDB(storage.databaseName);
    const answers = await everyRequest(storage);
    expect(answers.write).toEqual({ value: expect.objectContaining({ reason: 'IO_EXCEPTION', message: expect.stringContaining('another tab or connection deletes it') }) });
    expect(answers.read).toEqual({ rejected: expect.stringContaining('another tab or connection deletes it') });
    await storage.close();
  });

  it('still throws for a store its owner closed (a programming error, not a storage fault)', async () => {
    const storage = await openWithOneCheckpoint();
    await storage.close();
    await expect(storage.writeCheckpoint(2, [])).rejects.toThrow('the checkpoint storage is closed');
  });
});
