import type { PollOutcome } from '../../protocol.ts';
import type { KeyedStateBackend } from '../keyed-state-backend.ts';
import type { LsmKeyedStateBackend } from './lsm-keyed-state-backend.ts';

/** A flush job handed to a background thread, due to finish at `end`. */
export interface FlushJob {
  columnFamily: string;
  job: number;
  end: number;
}

/**
 * One rocksdb subtask's background threads (`state.backend.rocksdb.thread.num`) on its runtime's
 * job clock (the sim's, or a live TaskManager's). Its backend runs in `deferred` mode: a full memtable waits as an immutable until a
 * thread has written it to the local disk (the cost model's time for its bytes). A write that
 * finds `writebuffer.count` memtables in use stalls until the flush of its column family ends:
 * the task waits that long (RocksDB's rocksdb.stall.micros). Compactions are not timed: they run
 * with the flush that triggers them and take no thread time.
 */
export class RocksDbBackgroundThreads {
  /** when each thread is free again */
  readonly #freeAt: number[];
  /** the flush job running per column family (RocksDB runs one per column family at a time) */
  readonly #running = new Map<string, { job: number; end: number }>();
  #nextJob = 0;

  constructor(
    threads: number,
    readonly backend: LsmKeyedStateBackend,
    private readonly flushMs: (bytes: number) => number,
  ) {
    this.#freeAt = new Array<number>(Math.max(1, threads)).fill(0);
  }

  /**
   * The threads of a task's backend when its flushes are timed (a deferred rocksdb backend: the
   * scenario set state.backend.rocksdb.thread.num), each flush taking `flushMs` for its bytes.
   */
  static of(backend: KeyedStateBackend | undefined, threads: number, flushMs: (bytes: number) => number): RocksDbBackgroundThreads | undefined {
    // by its kind, not instanceof: the LSM tree's code loads with the driver's rocksdb storage (lsm-storage-factory.ts)
    const lsm = backend?.kind === 'rocksdb' ? (backend as LsmKeyedStateBackend) : undefined;
    return lsm?.options.background === 'deferred' ? new RocksDbBackgroundThreads(threads, lsm, flushMs) : undefined;
  }

  /**
   * A poll whose writes stalled keeps the task busy until the flushes they waited for ended;
   * returns that outcome and the flush jobs the poll started (the runtime calls flushDone at each
   * one's end).
   */
  chargePoll(now: number, outcome: PollOutcome): { outcome: PollOutcome; started: FlushJob[] } {
    const { stallMs, started } = this.afterPoll(now);
    if (stallMs === 0 || outcome.status === 'finished') return { outcome, started };
    return { outcome: { status: 'busy', until: (outcome.status === 'busy' ? outcome.until : now) + stallMs }, started };
  }

  /**
   * After the task ran from `now`: charges its stalled writes (each waits for its column family's
   * flush, one after the other) and hands the new immutables to the threads. Returns how long the
   * task stalled and the flush jobs that started.
   */
  afterPoll(now: number): { stallMs: number; started: FlushJob[] } {
    let t = now;
    for (const stall of this.backend.drainWriteStalls()) {
      const running = this.#running.get(stall.columnFamily);
      // The stalled write's flush already happened in the backend: the job is done once the wait is over.
      this.#running.delete(stall.columnFamily);
      t = Math.max(t, running ? running.end : this.#book(t, stall.bytes));
    }
    const stallMs = t - now;
    if (stallMs > 0) this.backend.recordWriteStallMicros(Math.round(stallMs * 1000));
    return { stallMs, started: this.#startFlushes(now) };
  }

  /** A flush job's time is up: its immutables become a level-0 run, and waiting ones get a thread. */
  flushDone(job: FlushJob, now: number): FlushJob[] {
    // A stall may have flushed this column family already (a newer job, or none, runs for it now).
    if (this.#running.get(job.columnFamily)?.job === job.job) {
      this.#running.delete(job.columnFamily);
      this.backend.flushColumnFamily(job.columnFamily);
    }
    return this.#startFlushes(now);
  }

  #startFlushes(now: number): FlushJob[] {
    const started: FlushJob[] = [];
    for (const { columnFamily, bytes } of this.backend.pendingFlushes()) {
      if (this.#running.has(columnFamily)) continue;
      const job = { columnFamily, job: ++this.#nextJob, end: this.#book(now, bytes) };
      this.#running.set(columnFamily, { job: job.job, end: job.end });
      started.push(job);
    }
    return started;
  }

  /** The earliest free thread takes a flush of `bytes` from `at` on; returns when it ends. */
  #book(at: number, bytes: number): number {
    let thread = 0;
    for (let i = 1; i < this.#freeAt.length; i++) if (this.#freeAt[i]! < this.#freeAt[thread]!) thread = i;
    const end = Math.max(at, this.#freeAt[thread]!) + this.flushMs(bytes);
    this.#freeAt[thread] = end;
    return end;
  }
}
