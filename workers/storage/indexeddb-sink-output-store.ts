/**
 * The two-phase-commit sink's external system, kept in IndexedDB next to a live run's checkpoint
 * database: every committed transaction, by id. A page reloaded mid-run loses the main thread's
 * SinkOutputLog but not this, so the resumed run's output can still be compared with a
 * failure-free run (as a Kafka topic outlives the JobManager that wrote into it).
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { SinkOutputLog } from '../../engine/run/sink-output-log.ts';
import type { SinkRecordColumns } from '../protocol.ts';
import { sinkRecordsOf } from '../sink-record-columns.ts';

interface CommittedTransaction {
  id: string;
  /** commit order: the last value written per key is the last committed one */
  seq: number;
  records: SinkRecordColumns;
}

interface SinkOutputDb extends DBSchema {
  transactions: { key: string; value: CommittedTransaction };
}

const DB_VERSION = 1;

/** The database of a live run's sink output, under the run's root (a sweep of the run deletes it too). */
export function sinkOutputDatabaseName(checkpointDatabase: string): string {
  return `${checkpointDatabase}/sink-output`;
}

export class IndexedDbSinkOutputStore {
  readonly name: string;
  readonly #db: Promise<IDBPDatabase<SinkOutputDb>>;
  #seq = 0;
  #writes: Promise<unknown> = Promise.resolve();
  /** commits that could not be written (the page says the comparison after a reload is incomplete) */
  readonly errors: string[] = [];

  constructor(databaseName: string) {
    this.name = databaseName;
    this.#db = openDB<SinkOutputDb>(databaseName, DB_VERSION, {
      upgrade(database) {
        if (!database.objectStoreNames.contains('transactions')) database.createObjectStore('transactions', { keyPath: 'id' });
      },
      // Another tab or the sweep deletes the database: let it go.
      blocking: () => void this.#db.then((db) => db.close()),
    });
    this.#db.catch((error: unknown) => this.errors.push(`the sink output database ${databaseName} could not be opened: ${messageOf(error)}`));
  }

  /**
   * What an earlier run of this database committed, as the external system holds it, committed
   * into `log`; from here on the commit order goes on after it.
   */
  async load(log: SinkOutputLog = new SinkOutputLog()): Promise<SinkOutputLog> {
    const all = await (await this.#db).getAll('transactions');
    all.sort((a, b) => a.seq - b.seq);
    for (const t of all) log.commit(t.id, sinkRecordsOf(t.records));
    this.#seq = Math.max(this.#seq, (all.at(-1)?.seq ?? -1) + 1);
    return log;
  }

  /** A committed transaction, written after those before it; a failed write is recorded, never thrown. */
  commit(transactionId: string, records: SinkRecordColumns): void {
    const transaction: CommittedTransaction = { id: transactionId, seq: this.#seq++, records };
    this.#writes = this.#writes
      .then(async () => {
        // Committing an id again writes nothing new (the external system ignores it).
        const db = await this.#db;
        if ((await db.getKey('transactions', transactionId)) === undefined) await db.put('transactions', transaction);
      })
      .catch((error: unknown) => this.errors.push(`transaction ${transactionId} could not be kept: ${messageOf(error)}`));
  }

  /** Resolves once the commits so far are written. */
  async idle(): Promise<void> {
    await this.#writes;
  }

  /** Closes the connection after the commits so far. */
  async close(): Promise<void> {
    await this.idle();
    (await this.#db.catch(() => undefined))?.close();
  }
}

/** Deletes a run's sink output database (the run was disposed or discarded). */
export async function deleteSinkOutputDatabase(checkpointDatabase: string): Promise<void> {
  await deleteDB(sinkOutputDatabaseName(checkpointDatabase));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
