import { HeapKeyedStateBackend } from '../heap-keyed-state-backend.ts';
import type { IncrementalKeyedSnapshot, KeyedStateBackend, KeyedStateSnapshot, KeyGroupSnapshot, StateValue } from '../keyed-state-backend.ts';
import { containsKeyGroup, type KeyGroupRange } from '../key-group-range.ts';
import { entrySizeBytes } from '../state-size.ts';
import { LruBlockCache } from './block-cache.ts';
import { ColumnFamily } from './column-family.ts';
import {
  IncrementalCheckpointTracker,
  type IncrementalManifest,
  type IncrementalSnapshot,
  type RunUpload,
  type SharedRunHandle,
} from './incremental-snapshot.ts';
import { TOMBSTONE, type LsmValue, type SortedEntries } from './internal-key.ts';
import { levelTargetBytes } from './level-compaction.ts';
import { LsmContext } from './lsm-context.ts';
import { rocksDbProperties, type LsmMetrics } from './lsm-metrics.ts';
import { lsmOptions, type LsmOptions } from './lsm-options.ts';
import { LsmStatistics } from './lsm-statistics.ts';
import type { LsmStorage } from './lsm-storage.ts';
import { Memtable } from './memtable.ts';
import { BlockSource, ConcatSource, MergingIterator, type EntrySource } from './merging-iterator.ts';
import { describeRun, findBlock, runOverlaps, type RunContents, type RunDescriptor, type SortedRun } from './sorted-run.ts';

/**
 * The `rocksdb` state backend. There is no RocksDB in a browser: this is an LSM tree built the
 * way RocksDB builds one, standing in for it, with its sorted runs ("SST files") stored in
 * wa-sqlite (or any LsmStorage):
 *
 * - every declared state is a column family with its own memtable (write buffer); a full one
 *   becomes immutable and is flushed into a level-0 run; up to `writeBufferCount` memtables
 *   exist, and a write that needs one more stalls;
 * - reads look in the memtable, the immutables, then the runs newest first, through an LRU block
 *   cache; level-based compaction merges L0 into L1 once L0 holds 4 runs and pushes levels over
 *   their target size down, dropping older versions, and tombstones at the bottom;
 * - memory as Flink configures RocksDB: per column family (write buffers + block cache each), or
 *   managed: one budget per slot, split between memtables and cache by the write-buffer ratio;
 * - timers: factory ROCKSDB keeps the `_timer_service` state in the tree like any state; HEAP
 *   keeps it in a heap map beside the tree, written out in full by every snapshot;
 * - snapshots: `snapshot()` is a full snapshot in the heap backend's format (so restore and
 *   rescaling work as they do there); `snapshotIncremental()` flushes and references the runs,
 *   uploading only those the last *confirmed* checkpoint did not have.
 *
 * Synchronous throughout: the storage is called through synchronous methods only (the wa-sqlite
 * store uses the raw C exports of the sync build). No compression: Flink compresses full
 * snapshots with snappy, and no maintained snappy package is installed (snappyjs and snappy-wasm
 * are not), so snapshots are uncompressed and `execution.checkpointing.snapshot-compression` has
 * no effect here.
 */
export class LsmKeyedStateBackend implements KeyedStateBackend {
  readonly kind = 'rocksdb' as const;
  readonly options: LsmOptions;
  readonly stats = new LsmStatistics();
  readonly storage: LsmStorage;
  #ctx: LsmContext;
  #families = new Map<string, ColumnFamily>();
  /** deferred mode: write stalls the driver has not yet charged time for */
  #stalls: Array<{ columnFamily: string; bytes: number }> = [];
  #heap: HeapKeyedStateBackend;
  #heapStates: ReadonlySet<string>;
  #tracker = new IncrementalCheckpointTracker();

  /**
   * `storage` must belong to this backend alone: a backend starts with an empty tree, as a
   * RocksDB instance starts in a fresh working directory, so runs found in it are deleted.
   */
  constructor(
    readonly keyGroupRange: KeyGroupRange,
    storage: LsmStorage,
    options: Partial<LsmOptions> = {},
  ) {
    this.options = lsmOptions(options);
    validateOptions(this.options);
    this.storage = storage;
    for (const id of storage.listRuns()) storage.deleteRun(id);
    this.#ctx = new LsmContext(storage, this.options, this.stats, (run) => this.#families.get(run.columnFamily)?.evict(run));
    this.#heap = new HeapKeyedStateBackend(keyGroupRange);
    this.#heapStates = new Set(this.options.timerService === 'HEAP' ? this.options.timerStates : []);
  }

  // ---- KeyedStateBackend ----

  get(state: string, keyGroup: number, key: string): StateValue | undefined {
    if (this.#heapStates.has(state)) return this.#heap.get(state, keyGroup, key);
    const cf = this.#families.get(state);
    if (!cf) return undefined;
    this.stats.keysRead++;
    const v = cf.get(keyGroup, key);
    return v === TOMBSTONE ? undefined : v;
  }

  put(state: string, keyGroup: number, key: string, value: StateValue): void {
    if (this.#heapStates.has(state)) return this.#heap.put(state, keyGroup, key, value);
    const cf = this.#family(state);
    if (this.options.statistics === 'exact') {
      const old = this.#readForWrite(cf, keyGroup, key);
      if (old === undefined) cf.liveEntries++;
      else cf.liveBytes -= entrySizeBytes(key, old);
      cf.liveBytes += entrySizeBytes(key, value);
    }
    this.#write(cf, keyGroup, key, value);
  }

  delete(state: string, keyGroup: number, key: string): void {
    if (this.#heapStates.has(state)) return this.#heap.delete(state, keyGroup, key);
    const cf = this.#families.get(state);
    if (!cf) return;
    if (this.options.statistics === 'exact') {
      const old = this.#readForWrite(cf, keyGroup, key);
      if (old === undefined) return;
      cf.liveEntries--;
      cf.liveBytes -= entrySizeBytes(key, old);
    }
    this.#write(cf, keyGroup, key, TOMBSTONE);
  }

  forEachEntry(state: string, visit: (keyGroup: number, key: string, value: StateValue) => void): void {
    if (this.#heapStates.has(state)) return this.#heap.forEachEntry(state, visit);
    const cf = this.#families.get(state);
    if (!cf) return;
    // pinned: a write inside `visit` may compact, but the runs being read stay until we are done
    this.#scan(cf.scanSources(), (kg, key, value) => visit(kg, key, value));
  }

  entryCount(): number {
    if (this.options.statistics === 'exact') {
      let n = this.#heap.entryCount();
      for (const cf of this.#families.values()) n += cf.liveEntries;
      return n;
    }
    // RocksDB's estimate-num-keys: memtable writes − 2 · deletes, plus runs' puts − deletes
    let n = this.#heap.entryCount();
    for (const cf of this.#families.values()) {
      const { memtable: m, immutables: imm } = cf;
      n += m.writeCount + imm.writeCount - 2 * (m.deleteWriteCount + imm.deleteWriteCount);
      for (const run of cf.levels.all()) n += run.entryCount - 2 * run.tombstoneCount;
    }
    return Math.max(0, n);
  }

  stateSizeBytes(): number {
    if (this.options.statistics === 'exact') {
      let n = this.#heap.stateSizeBytes();
      for (const cf of this.#families.values()) n += cf.liveBytes;
      return n;
    }
    let n = this.#heap.stateSizeBytes();
    for (const cf of this.#families.values()) {
      n += cf.memtable.bytes + cf.immutables.bytes;
      for (const run of cf.levels.all()) n += run.sizeBytes;
    }
    return n;
  }

  /** A full snapshot: every key group with every live entry, in the heap backend's format. */
  snapshot(): KeyedStateSnapshot {
    const byGroup = new Map<number, KeyGroupSnapshot>();
    let sizeBytes = 0;
    for (const [state, cf] of this.#families) {
      let current: Array<[string, StateValue]> | undefined;
      let currentGroup = -1;
      this.#scan(cf.scanSources(), (kg, key, value) => {
        if (kg !== currentGroup || !current) {
          currentGroup = kg;
          let snap = byGroup.get(kg);
          if (!snap) byGroup.set(kg, (snap = { keyGroup: kg, states: {} }));
          current = snap.states[state] = [];
        }
        current.push([key, value]);
        sizeBytes += entrySizeBytes(key, value);
      });
    }
    const heap = this.#heap.snapshot();
    for (const group of heap.keyGroups) {
      let snap = byGroup.get(group.keyGroup);
      if (!snap) byGroup.set(group.keyGroup, (snap = { keyGroup: group.keyGroup, states: {} }));
      Object.assign(snap.states, group.states);
    }
    const keyGroups = [...byGroup.values()].sort((a, b) => a.keyGroup - b.keyGroup);
    return { keyGroupRange: { ...this.keyGroupRange }, keyGroups, sizeBytes: sizeBytes + heap.sizeBytes };
  }

  /**
   * Loads the key groups of `snapshots` in this backend's range. Into an empty backend the
   * entries go straight into runs at the level their size fits (as RocksDB ingests external SST
   * files): a full snapshot is already in (key group, key) order, so it is written as it comes,
   * with no memtable and no put per key; entries out of that order are sorted in a memtable first.
   * Into a backend that holds state they are put one by one.
   */
  restore(snapshots: readonly KeyedStateSnapshot[]): void {
    if (!this.#isEmpty()) {
      for (const snapshot of snapshots) this.#restoreRouted(snapshot);
      return;
    }
    const perState = new Map<string, KeyGroupEntries[]>();
    for (const snapshot of snapshots) {
      for (const group of snapshot.keyGroups) {
        if (!containsKeyGroup(this.keyGroupRange, group.keyGroup)) continue;
        for (const [state, entries] of Object.entries(group.states)) {
          if (this.#heapStates.has(state)) {
            for (const [key, value] of entries) this.#heap.put(state, group.keyGroup, key, value);
            continue;
          }
          let chunks = perState.get(state);
          if (!chunks) perState.set(state, (chunks = []));
          chunks.push({ keyGroup: group.keyGroup, entries });
        }
      }
    }
    for (const [state, chunks] of perState) this.#ingest(this.#family(state), sortedEntriesOf(chunks));
  }

  // ---- flushes, compactions, background work ----

  /** Flushes every memtable (RocksDB's Flush): afterwards all state is in runs. */
  flush(): void {
    for (const cf of this.#families.values()) {
      cf.switchMemtable();
      cf.flushImmutables();
    }
  }

  /**
   * What background threads would do by now: flush waiting immutables (and compact after each
   * flush). In `deferred` mode the driver calls this; returns the number of flushes run.
   */
  runBackgroundJobs(maxFlushes = Number.POSITIVE_INFINITY): number {
    let flushes = 0;
    for (const cf of this.#families.values()) {
      if (flushes >= maxFlushes) break;
      if (cf.immutables.count > 0 && cf.flushImmutables()) flushes++;
    }
    return flushes;
  }

  /**
   * The column families whose immutables wait for a flush, with the bytes a flush job would
   * write (RocksDB picks one flush job per column family). The driver that owns time hands them
   * to its background threads.
   */
  pendingFlushes(): Array<{ columnFamily: string; bytes: number }> {
    const pending: Array<{ columnFamily: string; bytes: number }> = [];
    for (const cf of this.#families.values()) if (cf.immutables.count > 0) pending.push({ columnFamily: cf.name, bytes: cf.immutables.bytes });
    return pending;
  }

  /** A background flush job of one column family finished: its immutables become an L0 run. */
  flushColumnFamily(columnFamily: string): boolean {
    const cf = this.#families.get(columnFamily);
    return cf !== undefined && cf.immutables.count > 0 && cf.flushImmutables() !== undefined;
  }

  /**
   * The write stalls since the last call (deferred mode only), each with its column family and
   * the bytes it waited to be flushed: the driver tells how long each waited (recordWriteStallMicros).
   */
  drainWriteStalls(): Array<{ columnFamily: string; bytes: number }> {
    return this.#stalls.splice(0);
  }

  /** rocksdb.stall.micros: the time stalled writes waited, as the driver that owns time measured it. */
  recordWriteStallMicros(micros: number): void {
    this.stats.writeStallMicros += micros;
  }

  /** Compacts every column family until no level is over its target (normally automatic). */
  compactAll(): void {
    const storage = this.storage;
    storage.beginBatch();
    try {
      for (const cf of this.#families.values()) cf.compact();
    } finally {
      storage.commitBatch();
    }
  }

  // ---- incremental checkpoints ----

  /**
   * The synchronous phase of an incremental checkpoint: flushes the memtables (as RocksDB's
   * native checkpoint does with the WAL off), takes the current runs, and returns those that the
   * last confirmed checkpoint did not reference with their contents to upload, plus the
   * manifest. Runs are immutable, so the returned contents stay valid whatever happens next.
   * A `full` snapshot (Flink's FULL_CHECKPOINT) builds on nothing: every run is uploaded again;
   * it is still recorded, so later increments may reuse its runs once it is confirmed.
   */
  snapshotIncremental(checkpointId: number, full = false): IncrementalSnapshot {
    this.flush();
    const base = full ? { checkpointId: undefined, runs: new Set<string>() } : this.#tracker.confirmedBase();
    const runs = this.#liveRuns();
    const sharedRuns: SharedRunHandle[] = [];
    const newRuns: RunUpload[] = [];
    for (const run of runs) {
      const reused = base.runs.has(run.name);
      sharedRuns.push({
        name: run.name,
        runId: run.id,
        columnFamily: run.columnFamily,
        level: run.level,
        sizeBytes: run.sizeBytes,
        reused,
      });
      if (!reused) newRuns.push({ name: run.name, runId: run.id, sizeBytes: run.sizeBytes, contents: this.#readContents(run) });
    }
    const heapState = this.#heapStates.size > 0 ? this.#heap.snapshot() : undefined;
    const privateState: IncrementalManifest = {
      format: 'lsm-incremental-v1',
      checkpointId,
      backendName: this.options.name,
      keyGroupRange: { ...this.keyGroupRange },
      baseCheckpointId: base.checkpointId,
      runs: runs.map(describeRun),
      nextRunId: this.#ctx.nextRunId,
      columnFamilies: [...this.#families.values()].map((cf) => ({
        name: cf.name,
        entryCount: cf.liveEntries,
        stateSizeBytes: cf.liveBytes,
      })),
      heapState,
    };
    const privateStateSizeBytes =
      JSON.stringify({ ...privateState, heapState: undefined }).length + (heapState?.sizeBytes ?? 0);
    this.#tracker.record(checkpointId, runs.map((r) => r.name));
    const runBytes = (list: ReadonlyArray<{ sizeBytes: number }>) => list.reduce((n, r) => n + r.sizeBytes, 0);
    return {
      checkpointId,
      sharedRuns,
      newRuns,
      privateState,
      privateStateSizeBytes,
      stateSize: runBytes(runs) + privateStateSizeBytes,
      checkpointedSize: runBytes(newRuns) + privateStateSizeBytes,
    };
  }

  nativeMetrics(): Record<string, number> {
    return rocksDbProperties(this.metrics());
  }

  syncSnapshotWork(): { memtableBytes: number; heapTimerEntries: number } {
    const m = this.metrics();
    return { memtableBytes: m.curSizeAllMemTables, heapTimerEntries: m.heapTimerEntries };
  }

  /** `snapshotIncremental` in the shape checkpoint storage takes (KeyedStateBackend.incrementalSnapshot). */
  incrementalSnapshot(checkpointId: number, full = false): IncrementalKeyedSnapshot {
    const snapshot = this.snapshotIncremental(checkpointId, full);
    const uploaded = new Map(snapshot.newRuns.map((r) => [r.name, r.contents]));
    return {
      privateState: snapshot.privateState,
      privateStateSizeBytes: snapshot.privateStateSizeBytes,
      sharedFiles: snapshot.sharedRuns.map((r) => (uploaded.has(r.name) ? { name: r.name, sizeBytes: r.sizeBytes, contents: uploaded.get(r.name) } : { name: r.name, sizeBytes: r.sizeBytes })),
      stateSize: snapshot.stateSize,
      checkpointedSize: snapshot.checkpointedSize,
    };
  }

  /**
   * The contents of a live run, for a task-local copy that must hold every run its checkpoint
   * references (Flink's native RocksDB checkpoint hard-links the DB's own SST files), or undefined
   * when compaction has removed it.
   */
  sharedFileContents(name: string): unknown {
    const run = this.#liveRuns().find((r) => r.name === name);
    return run ? this.#readContents(run) : undefined;
  }

  restoreFromIncremental(privateState: unknown, files: Iterable<unknown>): void {
    this.restoreIncremental(privateState as IncrementalManifest, files as Iterable<RunContents>);
  }

  /** The checkpoint completed: later increments build on it (and never on older ones). */
  notifyCheckpointComplete(checkpointId: number): void {
    this.#tracker.complete(checkpointId);
  }

  /** The checkpoint was aborted: its runs do not become a base. */
  notifyCheckpointAborted(checkpointId: number): void {
    this.#tracker.abort(checkpointId);
  }

  get lastCompletedCheckpointId(): number | undefined {
    return this.#tracker.lastCompletedCheckpointId;
  }

  /**
   * Restores from an incremental checkpoint: the manifest plus the contents of every run it
   * names (uploaded by it or by the checkpoints it built on). Into an empty backend whose range
   * covers the manifest's, the runs are installed as they are, at their levels, and become the
   * base of the next increment. Otherwise (rescaling, or a second manifest) the runs are read and
   * the entries in this backend's key groups are put one by one.
   */
  restoreIncremental(manifest: IncrementalManifest, runContents: Iterable<RunContents>): void {
    const byName = new Map<string, RunContents>();
    for (const c of runContents) byName.set(c.name, c);
    const contentsOf = (d: RunDescriptor) => {
      const c = byName.get(d.name);
      if (!c) throw new Error(`restore: the contents of run ${d.name} are missing`);
      return c;
    };
    const covered =
      manifest.keyGroupRange.start >= this.keyGroupRange.start && manifest.keyGroupRange.end <= this.keyGroupRange.end;
    const ingest = covered && this.#isEmpty();
    const families = new Map<string, RunDescriptor[]>();
    for (const d of manifest.runs) {
      const list = families.get(d.columnFamily) ?? [];
      list.push(d);
      families.set(d.columnFamily, list);
    }
    // new runs (a flush while restoring) must not take the ids of the runs installed here
    if (ingest) this.#ctx.advanceRunIds(manifest.nextRunId);
    this.storage.beginBatch();
    try {
      for (const [state, runs] of families) {
        // a state the timer-service factory now keeps on the heap is read out of its runs
        if (this.#heapStates.has(state)) this.#putLiveEntries(state, runs, contentsOf);
        else if (ingest) this.#installFamily(state, runs, contentsOf, manifest);
        else this.#ingestOrPut(state, liveEntriesIn(runs, contentsOf, this.keyGroupRange));
      }
    } finally {
      this.storage.commitBatch();
    }
    if (manifest.heapState) this.#restoreRouted(manifest.heapState);
    if (ingest) this.#tracker.restored(manifest.checkpointId, manifest.runs.map((r) => r.name));
  }

  // ---- inspection ----

  /** Declared states (column families), in creation order. */
  columnFamilies(): string[] {
    return [...this.#families.keys()];
  }

  /** Live runs of every column family, with their levels (for tests and the dashboard). */
  runs(): RunDescriptor[] {
    return this.#liveRuns().map(describeRun);
  }

  metrics(): LsmMetrics {
    const s = this.stats;
    const families = [...this.#families.values()];
    const levels = Array.from({ length: this.options.numLevels }, (_, level) => ({ level, files: 0, bytes: 0, entries: 0 }));
    let liveSstFiles = 0;
    let liveSstFilesSize = 0;
    for (const cf of families) {
      for (const run of cf.levels.all()) {
        const l = levels[run.level]!;
        l.files++;
        l.bytes += run.sizeBytes;
        l.entries += run.entryCount;
        liveSstFiles++;
        liveSstFilesSize += run.sizeBytes;
      }
    }
    const caches = new Set<LruBlockCache>(families.map((cf) => cf.cache));
    const shared = this.options.sharedResources;
    if (shared) caches.add(shared.blockCache);
    let blockCacheCapacity = 0;
    let blockCacheUsage = 0;
    for (const c of caches) {
      blockCacheCapacity += c.capacityBytes;
      blockCacheUsage += c.usageBytes;
    }
    const sum = (f: (cf: ColumnFamily) => number) => families.reduce((n, cf) => n + f(cf), 0);
    const lookups = s.blockCacheHit + s.blockCacheMiss;
    const heapTimers = this.#heapStateTotals();
    return {
      numImmutableMemTable: sum((cf) => cf.immutables.count),
      memTableFlushPending: families.some((cf) => cf.immutables.count > 0) ? 1 : 0,
      curSizeActiveMemTable: sum((cf) => cf.memtable.bytes),
      curSizeAllMemTables: sum((cf) => cf.memtable.bytes + cf.immutables.bytes),
      numEntriesActiveMemTable: sum((cf) => cf.memtable.writeCount),
      numEntriesImmMemTables: sum((cf) => cf.immutables.writeCount),
      numDeletesActiveMemTable: sum((cf) => cf.memtable.deleteWriteCount),
      estimateNumKeys: this.entryCount(),
      estimateLiveDataSize: this.stateSizeBytes(),
      liveSstFiles,
      liveSstFilesSize,
      levels,
      blockCacheCapacity,
      blockCacheUsage,
      blockCacheHit: s.blockCacheHit,
      blockCacheMiss: s.blockCacheMiss,
      blockCacheHitRate: lookups === 0 ? 0 : s.blockCacheHit / lookups,
      keysWritten: s.keysWritten,
      keysRead: s.keysRead,
      flushCount: s.flushCount,
      flushBytesWritten: s.flushBytesWritten,
      compactionCount: s.compactionCount,
      trivialMoveCount: s.trivialMoveCount,
      compactionBytesRead: s.compactionBytesRead,
      compactionBytesWritten: s.compactionBytesWritten,
      compactionKeysDroppedNewer: s.compactionKeysDroppedNewer,
      compactionTombstonesDropped: s.compactionTombstonesDropped,
      writeStallCount: s.writeStallCount,
      writeStallFlushBytes: s.writeStallFlushBytes,
      writeStallMicros: s.writeStallMicros,
      writeAmplification:
        s.flushBytesWritten === 0 ? 0 : (s.flushBytesWritten + s.compactionBytesWritten) / s.flushBytesWritten,
      managedMemory: shared !== undefined,
      writeBufferManagerCapacity: shared?.writeBufferManager.bufferSizeBytes,
      writeBufferManagerUsage: shared?.writeBufferManager.memoryUsage,
      timerService: this.options.timerService,
      timersInLsm: this.#heapStates.size === 0,
      heapTimerEntries: heapTimers.entries,
      heapTimerBytes: heapTimers.bytes,
    };
  }

  /** Deletes every run from the storage (the backend is unusable afterwards). */
  dispose(): void {
    for (const cf of this.#families.values()) {
      for (const m of [cf.memtable, ...cf.immutables.newestFirst()]) {
        this.options.sharedResources?.writeBufferManager.freeMem(m.bytes);
      }
      this.options.sharedResources?.writeBufferManager.scheduleFreeMem(cf.memtable.bytes);
      for (const run of cf.levels.all()) this.#ctx.retire(run);
    }
    this.#families.clear();
  }

  // ---- internals ----

  #family(state: string): ColumnFamily {
    let cf = this.#families.get(state);
    if (!cf) {
      const shared = this.options.sharedResources;
      const cache = shared?.blockCache ?? new LruBlockCache(this.options.blockCacheSizeBytes);
      cf = new ColumnFamily(state, this.#ctx, cache, shared?.writeBufferManager);
      this.#families.set(state, cf);
    }
    return cf;
  }

  #readForWrite(cf: ColumnFamily, keyGroup: number, key: string): StateValue | undefined {
    this.stats.keysRead++;
    const v = cf.get(keyGroup, key);
    return v === TOMBSTONE ? undefined : v;
  }

  #write(cf: ColumnFamily, keyGroup: number, key: string, value: LsmValue): void {
    cf.write(keyGroup, key, value);
    this.stats.keysWritten++;
    if (cf.memtable.bytes >= this.options.writeBufferSizeBytes) {
      this.#switchMemtable(cf);
      return;
    }
    const wbm = this.options.sharedResources?.writeBufferManager;
    if (wbm?.shouldFlush()) {
      let largest = cf;
      for (const other of this.#families.values()) if (other.memtable.bytes > largest.memtable.bytes) largest = other;
      this.#switchMemtable(largest);
    }
  }

  /**
   * The active memtable is full. With `writeBufferCount` N, at most N memtables exist; if N − 1
   * immutables already wait, the write stalls until they are flushed. With N = 1 every switch
   * stalls: the memtable must be flushed before the next write.
   */
  #switchMemtable(cf: ColumnFamily): void {
    if (cf.memtable.entryCount === 0) return;
    const n = this.options.writeBufferCount;
    const stall = cf.immutables.count >= n - 1;
    if (stall) {
      const bytes = cf.immutables.bytes + (n === 1 ? cf.memtable.bytes : 0);
      this.stats.writeStallCount++;
      this.stats.writeStallFlushBytes += bytes;
      if (this.options.background === 'deferred') this.#stalls.push({ columnFamily: cf.name, bytes });
      // The write waits for the flush; without a clock here, the flush happens now and the driver charges the wait.
      cf.flushImmutables();
    }
    cf.switchMemtable();
    if (this.options.background === 'inline' || n === 1) cf.flushImmutables();
  }

  #scan(sources: EntrySource[], visit: (keyGroup: number, key: string, value: StateValue) => void): void {
    this.#ctx.pin();
    const merged = new MergingIterator(sources);
    try {
      for (; merged.valid; merged.next()) if (merged.value !== TOMBSTONE) visit(merged.keyGroup, merged.key, merged.value);
    } finally {
      merged.close();
      this.#ctx.unpin();
    }
  }

  #isEmpty(): boolean {
    if (this.#heap.entryCount() > 0) return false;
    for (const cf of this.#families.values()) {
      if (cf.memtable.entryCount > 0 || cf.immutables.count > 0 || !cf.levels.isEmpty) return false;
    }
    return true;
  }

  /**
   * Writes entries in (key group, key) order (no tombstones) into runs, as RocksDB's
   * IngestExternalFile places a file: at the level its size fits, or the deepest one above it
   * where no run overlaps (the caller makes sure no older version of these keys exists anywhere).
   */
  #ingest(cf: ColumnFamily, sorted: SortedEntries): void {
    const n = sorted.keys.length;
    if (n === 0) return;
    let bytes = 0;
    for (let i = 0; i < n; i++) bytes += entrySizeBytes(sorted.keys[i]!, sorted.values[i] as StateValue);
    const range = { minKeyGroup: sorted.keyGroups[0]!, minKey: sorted.keys[0]!, maxKeyGroup: sorted.keyGroups[n - 1]!, maxKey: sorted.keys[n - 1]! };
    let level = 1;
    while (level < this.options.numLevels - 1 && levelTargetBytes(this.options, level) < bytes) level++;
    while (level > 0 && cf.levels.level(level).some((r) => runOverlaps(r, range.minKeyGroup, range.minKey, range.maxKeyGroup, range.maxKey))) level--;
    this.storage.beginBatch();
    try {
      let writer = this.#ctx.newWriter(cf.name, level);
      const finish = () => {
        const run = writer.finish();
        if (run) {
          cf.levels.add(run);
          this.stats.runsCreated++;
        }
      };
      for (let i = 0; i < n; i++) {
        writer.add(sorted.keyGroups[i]!, sorted.keys[i]!, sorted.values[i]!);
        // a level-0 ingest is one run: runs of one level 0 are told apart by id, not by key
        if (level > 0 && writer.estimatedBytes >= this.options.targetFileSizeBytes) {
          finish();
          writer = this.#ctx.newWriter(cf.name, level);
        }
      }
      finish();
    } finally {
      this.storage.commitBatch();
    }
    cf.liveEntries += n;
    cf.liveBytes += bytes;
  }

  /**
   * A rescale's share of another subtask's runs (live entries in this backend's key groups, in
   * order): ingested as new runs when nothing this column family holds overlaps them, as key
   * groups another subtask owned never do; otherwise put one by one.
   */
  #ingestOrPut(state: string, sorted: SortedEntries): void {
    const n = sorted.keys.length;
    if (n === 0) return;
    const cf = this.#family(state);
    const overlaps = cf.memtable.entryCount > 0 || cf.immutables.count > 0 ||
      cf.levels.all().some((r) => runOverlaps(r, sorted.keyGroups[0]!, sorted.keys[0]!, sorted.keyGroups[n - 1]!, sorted.keys[n - 1]!));
    if (!overlaps) return this.#ingest(cf, sorted);
    for (let i = 0; i < n; i++) this.put(state, sorted.keyGroups[i]!, sorted.keys[i]!, sorted.values[i] as StateValue);
  }

  /** Installs a column family's runs as they are, at their levels (the ingest restore). */
  #installFamily(
    state: string,
    runs: readonly RunDescriptor[],
    contentsOf: (d: RunDescriptor) => RunContents,
    manifest: IncrementalManifest,
  ): void {
    const cf = this.#family(state);
    for (const d of runs) {
      const contents = contentsOf(d);
      if (contents.blocks.length !== d.blockCount) {
        throw new Error(`restore: run ${d.name} has ${contents.blocks.length} blocks, expected ${d.blockCount}`);
      }
      this.storage.createRun(d.id);
      contents.blocks.forEach((data, b) => this.storage.writeBlock(d.id, b, data));
      const index = { keyGroups: [...contents.index.keyGroups], keys: [...contents.index.keys] };
      cf.levels.add({ ...d, index, cacheKeyBase: 0 });
    }
    const stats = manifest.columnFamilies.find((f) => f.name === state);
    cf.liveEntries = stats?.entryCount ?? 0;
    cf.liveBytes = stats?.stateSizeBytes ?? 0;
  }

  /** Reads runs (newest version wins) and puts the live entries in this backend's key groups. */
  #putLiveEntries(state: string, runs: readonly RunDescriptor[], contentsOf: (d: RunDescriptor) => RunContents): void {
    const merged = new MergingIterator(sourcesNewestFirst(runs, (d) => contentsSource(contentsOf(d))));
    try {
      for (; merged.valid; merged.next()) {
        if (merged.value === TOMBSTONE || !containsKeyGroup(this.keyGroupRange, merged.keyGroup)) continue;
        this.put(state, merged.keyGroup, merged.key, merged.value);
      }
    } finally {
      merged.close();
    }
  }

  /** Puts a snapshot's entries in range, each state to the heap or the tree as configured now. */
  #restoreRouted(snapshot: KeyedStateSnapshot): void {
    for (const group of snapshot.keyGroups) {
      if (!containsKeyGroup(this.keyGroupRange, group.keyGroup)) continue;
      for (const [state, entries] of Object.entries(group.states)) {
        for (const [key, value] of entries) this.put(state, group.keyGroup, key, value);
      }
    }
  }

  #readContents(run: SortedRun): RunContents {
    const cursor = this.storage.openCursor(run.id);
    const blocks: string[] = [];
    try {
      for (let data = cursor.next(); data !== undefined; data = cursor.next()) blocks.push(data);
    } finally {
      cursor.close();
    }
    return { name: run.name, index: { keyGroups: [...run.index.keyGroups], keys: [...run.index.keys] }, blocks };
  }

  #liveRuns(): SortedRun[] {
    const runs: SortedRun[] = [];
    for (const cf of this.#families.values()) runs.push(...cf.levels.all());
    return runs;
  }

  #heapStateTotals(): { entries: number; bytes: number } {
    return { entries: this.#heap.entryCount(), bytes: this.#heap.stateSizeBytes() };
  }
}

function validateOptions(o: LsmOptions): void {
  const positive = ['writeBufferSizeBytes', 'blockSizeBytes', 'targetFileSizeBytes', 'maxBytesForLevelBase'] as const;
  for (const k of positive) if (!(o[k] > 0)) throw new Error(`LSM option ${k} must be positive, got ${o[k]}`);
  if (!(o.writeBufferCount >= 1)) throw new Error('LSM option writeBufferCount must be at least 1');
  if (!(o.level0CompactionTrigger >= 1)) throw new Error('LSM option level0CompactionTrigger must be at least 1');
  if (!(o.numLevels >= 2)) throw new Error('LSM option numLevels must be at least 2');
  if (!(o.levelSizeMultiplier > 1)) throw new Error('LSM option levelSizeMultiplier must be above 1');
}

/** Sorted sources over a manifest's runs, newest first: L0 by id descending, then by level. */
function sourcesNewestFirst(runs: readonly RunDescriptor[], open: (d: RunDescriptor) => EntrySource): EntrySource[] {
  const sources: EntrySource[] = [];
  const l0 = runs.filter((r) => r.level === 0).sort((a, b) => b.id - a.id);
  for (const r of l0) sources.push(open(r));
  const deeper = [...new Set(runs.filter((r) => r.level > 0).map((r) => r.level))].sort((a, b) => a - b);
  for (const level of deeper) {
    const inLevel = runs
      .filter((r) => r.level === level)
      .sort((a, b) => a.minKeyGroup - b.minKeyGroup || (a.minKey < b.minKey ? -1 : a.minKey > b.minKey ? 1 : 0));
    sources.push(new ConcatSource(inLevel.map((r) => () => open(r))));
  }
  return sources;
}

/** A run's entries; with `range`, from the first block that may hold its first key group to the last block starting inside it. */
function contentsSource(contents: RunContents, range?: KeyGroupRange): EntrySource {
  const { index, blocks } = contents;
  let i = range ? Math.max(0, findBlock(index, range.start, '')) : 0;
  return new BlockSource(() => (range && index.keyGroups[i]! > range.end ? undefined : blocks[i++]));
}

/** One state's entries of one key group, as a full snapshot holds them. */
interface KeyGroupEntries {
  keyGroup: number;
  entries: ReadonlyArray<readonly [string, StateValue]>;
}

/**
 * A state's key groups as one sequence in (key group, key) order: a full snapshot's entries are
 * sorted per key group already, so they are only laid end to end; anything out of order (a key
 * group twice, keys unsorted) goes through a memtable, where the last write of a key wins.
 */
function sortedEntriesOf(chunks: KeyGroupEntries[]): SortedEntries {
  chunks.sort((a, b) => a.keyGroup - b.keyGroup);
  const keyGroups: number[] = [];
  const keys: string[] = [];
  const values: LsmValue[] = [];
  for (let c = 0; c < chunks.length; c++) {
    const { keyGroup, entries } = chunks[c]!;
    if (c > 0 && chunks[c - 1]!.keyGroup === keyGroup) return sortedThroughMemtable(chunks);
    for (let i = 0; i < entries.length; i++) {
      const [key, value] = entries[i]!;
      if (i > 0 && !(entries[i - 1]![0] < key)) return sortedThroughMemtable(chunks);
      keyGroups.push(keyGroup);
      keys.push(key);
      values.push(value);
    }
  }
  return { keyGroups, keys, values };
}

function sortedThroughMemtable(chunks: readonly KeyGroupEntries[]): SortedEntries {
  const table = new Memtable();
  for (const { keyGroup, entries } of chunks) for (const [key, value] of entries) table.put(keyGroup, key, value);
  return table.sorted();
}

/**
 * The live entries (newest version, no tombstones) of runs that fall into `range`, in order. Runs
 * are sorted by key group first, so a rescale reads only the runs, and within them the blocks,
 * whose key groups meet the range (Flink's RocksDB restore clips by key-group prefix the same way).
 */
function liveEntriesIn(runs: readonly RunDescriptor[], contentsOf: (d: RunDescriptor) => RunContents, range: KeyGroupRange): SortedEntries {
  const sorted: SortedEntries = { keyGroups: [], keys: [], values: [] };
  const meeting = runs.filter((d) => d.maxKeyGroup >= range.start && d.minKeyGroup <= range.end);
  const merged = new MergingIterator(sourcesNewestFirst(meeting, (d) => contentsSource(contentsOf(d), range)));
  try {
    for (; merged.valid; merged.next()) {
      if (merged.value === TOMBSTONE || !containsKeyGroup(range, merged.keyGroup)) continue;
      sorted.keyGroups.push(merged.keyGroup);
      sorted.keys.push(merged.key);
      sorted.values.push(merged.value);
    }
  } finally {
    merged.close();
  }
  return sorted;
}
