/**
 * A TaskManager of the live runtime: hosts the engine's StreamTasks of its slots and runs them on
 * the wall clock. It is the adapter between the sans-I/O tasks and the browser: it turns their
 * effects into data-plane messages (buffers and credit on MessagePorts, or straight into a task of
 * the same TaskManager) and reports (to the JobManager), and turns what arrives into task inputs.
 *
 * Scheduling follows the sim driver: a task is polled when it is due (its `busy` period ended, its
 * `idle` wake time came, or input arrived while it was not busy). Here "when" is job time on the
 * shared JobClock, and polling happens in turns: a turn polls every due task, again and again
 * until none is due or its time budget is spent, sending after each pass what it produced for
 * other TaskManagers (one message per channel), then one report batch, and asks for the next turn
 * at the earliest wake time.
 *
 * The worker entry (task-manager.worker.ts) exposes one of these over Comlink; a Node test can run
 * it in-process on Node's MessageChannel.
 */
import type { CheckpointBarrier, NetworkBuffer, PollOutcome, StreamRecord, SubtaskCheckpointMetrics, TaskEffect, TaskStateSnapshot } from '../engine/protocol.ts';
import { checkpointPlacement, privateStateBytes, taskSnapshotFiles, type TaskUpload } from '../engine/storage/checkpoint-files.ts';
import { CostModelledStorage } from '../engine/storage/cost-modelled-storage.ts';
import { encodeSharedFile, encodeTaskStateSnapshot } from '../engine/storage/snapshot-codec.ts';
import { withoutRunContents } from '../engine/recovery/host-local-disk.ts';
import type { EncodedLocalRun } from '../engine/recovery/persistent-host-local-disk.ts';
import { stateHandleOf } from './state-handle.ts';
import { transferMs } from '../engine/storage/transfer-cost.ts';
import type { TaskRestore } from '../engine/task/stream-task.ts';
import { IndexedDbCheckpointStorage } from './storage/indexeddb-checkpoint-storage.ts';
import { IndexedDbLocalDiskStore, localDiskDatabaseName } from './storage/indexeddb-local-disk-store.ts';
import { readTaskRestore, type TaskRestoreStores } from './task-restore-reads.ts';
import { loadLocalCopyChecksum, localCopyChecksum } from './local-copy-digest.ts';
import { measureRestorePhase } from './restore-phase-measures.ts';
import { MetricsSampler } from '../engine/metrics/metrics-sampler.ts';
import { isKeyedOperator } from '../engine/operators/operator-factory.ts';
import type { FlinkConfig } from '../engine/config/flink-config.ts';
import type { TaskDeployment } from '../engine/task/task-deployment.ts';
import type { KeyedStateBackend } from '../engine/state/keyed-state-backend.ts';
import { LsmKeyedStateBackend } from '../engine/state/lsm/lsm-keyed-state-backend.ts';
import { RocksDbBackgroundThreads, type FlushJob } from '../engine/state/lsm/rocksdb-background-threads.ts';
import type { LsmSharedResources } from '../engine/state/lsm/lsm-shared-resources.ts';
import { createKeyedStateBackend, slotMemoryResources, type LsmStorageFactory } from '../engine/state/state-backend-factory.ts';
import { StreamTask } from '../engine/task/stream-task.ts';
import type { ExecutionState } from '../engine/task/task-lifecycle.ts';
import { clockFrom, jobTimeAt, wallNow, wallTimeAt } from './job-clock.ts';
import { sleepJobTime } from './job-time-sleep.ts';
import type {
  ChannelPort,
  CheckpointStorageSpec,
  NetworkSnapshot,
  DataPlaneMessage,
  DeployRequest,
  DeployResult,
  HeartbeatPayload,
  JobClock,
  RegisterRequest,
  RemoteStorageFaults,
  ReportBatch,
  TaskManagerGateway,
  TaskManagerReport,
  TaskToDeploy,
} from './protocol.ts';
import { NETWORK_SNAPSHOT_INTERVAL_MS, NetworkSnapshotEncoder, networkSnapshotBuffers } from './network-snapshot-encoder.ts';
import { columnBuffers, sinkRecordColumns } from './sink-record-columns.ts';
import { SinkOutputEncoder } from './sink-output-columns.ts';
import { NetworkBufferDecoder, NetworkBufferEncoder } from './network-buffer-columns.ts';
import { TurnScheduler } from './turn-scheduler.ts';
import { DeliveryRecorder } from '../engine/replay/delivery-recorder.ts';
import type { RocksDbLocalDir } from './storage/rocksdb-local-dir.ts';
import type { WorkingLsmDatabase, WorkingLsmDatabaseOpener } from './task-manager-lsm-storage.ts';

/**
 * Wall-clock ms a turn may poll before it yields, so that data-plane messages, control calls and
 * heartbeats are not starved by a task with a long backlog.
 */
export const TURN_BUDGET_MS = 4;

/**
 * A plain sink's writes that may wait for the next turn of a busy TaskManager, at most. A live
 * profile showed each worker spending a tenth of its time posting one report batch per turn,
 * most of them the sink's writes of a fraction of a millisecond; the writes of consecutive busy
 * turns now go in one batch (for TURN_BUDGET_MS at most), so the external system sees them up to
 * a few milliseconds later.
 */
export const MAX_DEFERRED_SINK_RECORDS = 4096;

/** One subtask hosted here, with its scheduling state (job time). */
interface HostedTask {
  readonly index: number;
  readonly task: StreamTask;
  busyUntil: number;
  /** when the task wants its next poll; Infinity: only when input arrives */
  wakeAt: number;
  /** the wake is an idle task's timer (a source's next record, a flush): it may run a little late */
  lazy: boolean;
  reportedState: ExecutionState;
  /**
   * Shared runs this task's local copies sent to the host's disk since it was deployed: a later
   * copy sends only the runs not among them, the disk links the rest (none after a restart: the
   * first copy sends all it references, and the disk writes those it lacks).
   */
  localRuns: Set<string>;
  /** its rocksdb backend's background threads, when flushes are timed (state.backend.rocksdb.thread.num set) */
  background: RocksDbBackgroundThreads | undefined;
  /** the flush jobs running on them, each done at its job time `end` */
  flushJobs: FlushJob[];
}

/**
 * Loads wa-sqlite for rocksdb backends (by default in this thread, on first need) and gives the
 * opener of each attempt's working database in the TaskManager's `state.backend.rocksdb.localdir`.
 */
export type LsmStorageLoader = (localDir: RocksDbLocalDir | undefined) => Promise<WorkingLsmDatabaseOpener>;

const loadWaSqlite: LsmStorageLoader = (localDir) => import('./task-manager-lsm-storage.ts').then((m) => m.openTaskManagerLsmStorage(localDir));

export class TaskManager implements TaskManagerGateway {
  #id = '';
  /** the host it runs on: what its local disk belongs to (the disk itself is kept by the JobManager's thread, see live-driver.ts) */
  #host = '';
  #reportPort: MessagePort | undefined;
  /** the attempt running here; -1 when none */
  #attempt = -1;
  #clock: JobClock = clockFrom(0, 1);
  #tasks: HostedTask[] = [];
  #byIndex = new Map<number, HostedTask>();
  /** channel id → the hosted subtask that receives on it / sends on it */
  #receiverOf = new Map<number, HostedTask>();
  #senderOf = new Map<number, HostedTask>();
  /** remote channels: the port this TaskManager posts buffers on (sender end) or credit on (receiver end) */
  #bufferPorts = new Map<number, MessagePort>();
  /** per remote channel this TaskManager sends on: the key names it carried (network-buffer-columns.ts) */
  #encoders = new Map<number, NetworkBufferEncoder>();
  #creditPorts = new Map<number, MessagePort>();
  /** what the current turn produced for other threads */
  #outBuffers = new Map<number, NetworkBuffer[]>();
  #outCredits = new Map<number, number>();
  /** remote channels whose end-of-data a subtask here processed this turn (sent with the credits) */
  #outEndOfDataProcessed = new Set<number>();
  #reports: TaskManagerReport[] = [];
  /** the plain sink's writes of the turn so far, not yet a report (their records are in #sinkColumns) */
  #sinkOutput: { taskIndex: number; attempt: number } | undefined;
  /** every plain sink's writes to the report port, each key named once per port (sink-output-columns.ts) */
  readonly #sinkColumns = new SinkOutputEncoder();
  #slowdown = new Map<string, number>();
  #sampler = new MetricsSampler();
  readonly #effects: TaskEffect[] = [];
  #storageSpec: CheckpointStorageSpec | undefined;
  /** the remote checkpoint storage, opened at registration */
  #storage: Promise<CostModelledStorage> | undefined;
  /** hung (an injected stall): alive, but nothing runs and nothing is answered any more */
  #stalled = false;
  readonly #loadLsmStorage: LsmStorageLoader;
  /** where this process keeps its rocksdb working databases (state.backend.rocksdb.localdir) */
  #localDir: RocksDbLocalDir | undefined;
  /** the host's disk, where this TaskManager reads its own task-local copies for a restore (none without IndexedDB) */
  #localDisk: IndexedDbLocalDiskStore | undefined;
  /** the shares the deployment in progress read itself (restoreHandles), by task index */
  readonly #restored = new Map<number, TaskRestore>();
  /** wa-sqlite, once a rocksdb deployment needed it */
  #lsmStorage: Promise<WorkingLsmDatabaseOpener> | undefined;
  /** the running attempt's rocksdb working database, once open */
  #workingDb: WorkingLsmDatabase | undefined;
  /** the working databases of stopped attempts being closed and deleted: the next opens after them */
  #released: Promise<void> = Promise.resolve();
  /** rocksdb managed memory, one budget per slot, shared by the slot's backends */
  #slotMemory = new Map<string, LsmSharedResources | undefined>();
  /** the keyed state backends of the running attempt (their working state goes with it) */
  #backends: KeyedStateBackend[] = [];
  /** the channel view's snapshots of the queues: when the next may go (performance.now() ms) */
  readonly #network = new NetworkSnapshotEncoder();
  #nextNetworkSnapshot = -Infinity;
  /** a report flush that carries the queues as the last turn left them, when the interval ran out */
  #trailingSnapshot: ReturnType<typeof setTimeout> | undefined;
  /** performance.now() ms of the first turn whose report batch waited for the next (#reportsMayWait) */
  #reportsWaitingSince: number | undefined;

  constructor(options: { loadLsmStorage?: LsmStorageLoader } = {}) {
    this.#loadLsmStorage = options.loadLsmStorage ?? loadWaSqlite;
  }

  readonly #scheduler = new TurnScheduler(() => this.#turn());

  // ---- the gateway (Comlink RPCs from the JobManager) ----

  register(request: RegisterRequest): { taskManagerId: string } {
    this.#id = request.taskManagerId;
    this.#host = request.host;
    this.#reportPort = request.reportPort;
    this.#storageSpec = request.storage;
    this.#localDir = request.rocksdbLocalDir;
    // A rocksdb job's TaskManager loads wa-sqlite as it starts, not when its first deployment (a
    // restore, after a kill) needs it, as Flink's TaskManager has RocksDB's library at hand.
    if (request.rocksdbLocalDir) this.#lsmStorage ??= this.#loadLsmStorage(this.#localDir);
    const spec = request.storage;
    if (typeof indexedDB !== 'undefined') {
      this.#localDisk = new IndexedDbLocalDiskStore(localDiskDatabaseName(spec.databaseName, request.host));
      // Only a job writing local copies restores from them: the directory open and XXH64 (their checksums) ready before a restore needs them.
      if (spec.localBackupEnabled) {
        void this.#localDisk.openFiles();
        void loadLocalCopyChecksum().catch(() => undefined);
      }
    }
    this.#storage = IndexedDbCheckpointStorage.open({ databaseName: spec.databaseName, location: spec.location, ...(spec.quotaBytes === undefined ? {} : { quotaBytes: spec.quotaBytes }) }).then(
      (inner) => new CostModelledStorage(inner, spec.remote, (ms) => this.#sleep(ms), spec.faults ?? {}),
    );
    // An unhandled rejection here would be a crash of the worker; the first upload reports it.
    this.#storage.catch(() => {});
    return { taskManagerId: this.#id };
  }

  deploy(request: DeployRequest): DeployResult | Promise<DeployResult> {
    const opening = this.#openWorkingDatabase(request);
    if (!request.tasks.some((t) => t.restoreHandles)) return opening ? opening.then((db) => this.#deployWith(request, db)) : this.#deployWith(request, undefined);
    // Each subtask's state is read here, as Flink's tasks read their own handles, before any of them
    // runs; the working database opens meanwhile (loading wa-sqlite and releasing the last attempt's
    // took a rocksdb restore 100–200 ms after its read).
    return Promise.all([this.#readRestores(request.tasks, request.clock), opening]).then(
      ([restores, db]) => ({ ...this.#deployWith(request, db), restores }),
      async (error: unknown) => {
        // A database opened for a deployment that failed is released like a stopped attempt's.
        const db = await opening?.catch(() => undefined);
        if (db) this.#releaseWorkingDatabase(db);
        throw error;
      },
    );
  }

  /** Reads the share of every task deployed with handles (local copy first, then remote storage); a share that cannot be read fails the deployment. */
  async #readRestores(tasks: readonly TaskToDeploy[], clock: JobClock): Promise<NonNullable<DeployResult['restores']>> {
    const remote = await this.#storage;
    if (!remote) throw new Error('the TaskManager is not registered: it has no checkpoint storage to restore from');
    this.#restored.clear();
    const reads = await Promise.all(
      tasks.flatMap((t) => (t.restoreHandles ? [readTaskRestore(t.restoreHandles, { remote, ...(this.#localDisk ? { local: this.#localDisk } : {}), ...this.#restoreTiming(clock) }).then((read) => ({ taskIndex: t.taskIndex, read }))] : [])),
    );
    return reads.map(({ taskIndex, read }) => {
      if ('error' in read) throw new Error(read.error);
      const { restore, ...how } = read;
      this.#restored.set(taskIndex, restore);
      return { taskIndex, ...how };
    });
  }

  /** Each handle's read timed on the deployment's job clock, a local one with the host disk's modelled cost added (as the JobManager adds it to the subtask's). */
  #restoreTiming(clock: JobClock): Pick<TaskRestoreStores, 'timing'> {
    const local = this.#storageSpec?.local;
    return local ? { timing: { now: () => jobTimeAt(clock, wallNow()), local } } : {};
  }

  /**
   * The rocksdb working database a deployment needs, opened once the stopped attempt's is closed
   * and deleted; none for the hashmap backend or a TaskManager without keyed operators (RocksDB
   * instances belong to keyed operators).
   */
  #openWorkingDatabase(request: DeployRequest): Promise<WorkingLsmDatabase> | undefined {
    const keyed = request.tasks.some((t) => isKeyedOperator(t.deployment.vertex.operator));
    if (request.config.stateBackend === 'hashmap' || !keyed) return undefined;
    this.#stopAttempt();
    this.#lsmStorage ??= this.#loadLsmStorage(this.#localDir);
    const released = this.#released;
    const start = performance.now();
    return this.#lsmStorage.then(async (open) => {
      await released;
      const opening = performance.now();
      const workingDb = await open(request.attempt);
      measureRestorePhase("working database: wa-sqlite loaded, the last attempt's released", `attempt ${request.attempt}`, start, opening);
      measureRestorePhase('working database opened', `attempt ${request.attempt}`, opening);
      return workingDb;
    });
  }

  #deployWith(request: DeployRequest, workingDb: WorkingLsmDatabase | undefined): DeployResult {
    this.#stopAttempt();
    this.#workingDb = workingDb;
    const lsm = workingDb?.factory;
    this.#attempt = request.attempt;
    this.#clock = request.clock;
    this.#sampler = new MetricsSampler();
    const now = this.#now();
    for (const spec of request.tasks) this.#deployTask(spec, now, request.config, lsm);
    for (const port of request.ports) this.#connect(port, request.attempt);
    for (const t of this.#tasks) this.#wake(t, now);
    this.#flush();
    return { taskIndexes: request.tasks.map((t) => t.taskIndex) };
  }

  triggerCheckpoint(attempt: number, taskIndex: number, barrier: CheckpointBarrier): void {
    const t = this.#current(attempt, taskIndex);
    if (!t) return;
    t.task.triggerCheckpoint(barrier);
    this.#wakeIfNotBusy(t, this.#now());
  }

  notifyCheckpoint(attempt: number, checkpointId: number, outcome: 'complete' | 'aborted'): void {
    if (attempt !== this.#attempt || this.#stalled) return;
    const now = this.#now();
    this.#network.forget(checkpointId);
    for (const t of this.#tasks) {
      if (outcome === 'complete') t.task.notifyCheckpointComplete(checkpointId);
      else t.task.notifyCheckpointAborted(checkpointId);
      this.#wakeIfNotBusy(t, now);
    }
  }

  cancel(attempt: number): void {
    if (attempt !== this.#attempt) return;
    this.#stopAttempt();
    // What the cancelled subtasks consumed last still belongs to the session.
    this.#flushReports();
  }

  failTask(attempt: number, taskIndex: number, cause: string): void {
    const t = this.#current(attempt, taskIndex);
    if (!t) return;
    this.#fail(t, cause);
    this.#flush();
  }

  slowOperator(vertexId: string, factor: number): void {
    this.#slowdown.set(vertexId, factor);
    for (const t of this.#tasks) if (t.task.id.vertexId === vertexId) t.task.setSlowdown(factor);
  }

  stall(): void {
    this.#stalled = true;
    this.#scheduler.stop();
    clearTimeout(this.#trailingSnapshot);
  }

  resendLocalRuns(attempt: number, taskIndex: number, runs: string[]): void {
    if (attempt !== this.#attempt) return;
    const t = this.#byIndex.get(taskIndex);
    if (t) for (const run of runs) t.localRuns.delete(run);
  }

  setRemoteStorageFaults(faults: RemoteStorageFaults): void {
    // Uploads already sleeping keep their cost; a failing store fails them when they wake.
    void this.#storage?.then((storage) => Object.assign(storage.knobs, faults));
  }

  setClock(clock: JobClock): void {
    this.#clock = clock;
    this.#requestNextTurn();
  }

  heartbeat(_seq: number): HeartbeatPayload | Promise<HeartbeatPayload> {
    if (this.#stalled) return new Promise(() => {});
    const now = this.#now();
    const tasks = this.#tasks.map((t) => t.task);
    this.#sampler.sample(tasks, now);
    const { subtasks } = this.#sampler.snapshot(tasks, now);
    return {
      taskManagerId: this.#id,
      time: now,
      attempt: this.#attempt,
      subtasks: subtasks.map((s, i) => ({ ...s, taskIndex: this.#tasks[i]!.index })),
      ...(this.#workingDb?.path === undefined ? {} : { rocksdbWorkingDb: { path: this.#workingDb.path, bytes: this.#workingDb.bytes() } }),
    };
  }

  /** The process ends (an in-process stand-in for Worker.terminate() in Node tests). */
  shutdown(): void {
    this.#stopAttempt();
    this.#scheduler.stop();
    clearTimeout(this.#trailingSnapshot);
    this.#reportPort?.close();
    void this.#localDisk?.close();
  }

  // ---- deployment ----

  /** Creates, restores and starts one subtask (Flink: DEPLOYING → INITIALIZING, restore, → RUNNING). */
  #deployTask(spec: TaskToDeploy, now: number, config: FlinkConfig, lsm: LsmStorageFactory | undefined): void {
    const { deployment } = spec;
    const keyed = isKeyedOperator(deployment.vertex.operator);
    const task = new StreamTask(deployment, now, keyed ? (d) => this.#createBackend(config, d, spec.slotId, lsm) : undefined);
    task.setSlowdown(this.#slowdown.get(deployment.vertex.id) ?? spec.slowdown);
    task.recorder = new DeliveryRecorder(task.gates.length);
    const restored = this.#restored.get(spec.taskIndex);
    this.#restored.delete(spec.taskIndex);
    const initializing = performance.now();
    task.initialize(restored);
    if (restored) measureRestorePhase('state backend restored', `${deployment.vertex.id}#${deployment.subtaskIndex}`, initializing);
    task.run();
    const background = RocksDbBackgroundThreads.of(task.keyedState, config.rocksdbThreadNum, (bytes) => this.#localDiskMs(bytes));
    const hosted: HostedTask = { index: spec.taskIndex, task, busyUntil: now, wakeAt: Infinity, lazy: false, reportedState: 'RUNNING', localRuns: new Set(), background, flushJobs: [] };
    this.#tasks.push(hosted);
    this.#byIndex.set(spec.taskIndex, hosted);
    for (const gate of deployment.inputGates) for (const channelId of gate) this.#receiverOf.set(channelId, hosted);
    for (const output of deployment.outputs) for (const channelId of output.channelIds) this.#senderOf.set(channelId, hosted);
    this.#report({ type: 'task-state', attempt: this.#attempt, taskIndex: spec.taskIndex, state: 'RUNNING' });
  }

  /** The host's local disk time for `bytes` (a rocksdb flush), from the cost model the JobManager registered this TaskManager with. */
  #localDiskMs(bytes: number): number {
    const local = this.#storageSpec?.local;
    return local ? transferMs(bytes, local.latencyMs, local.bandwidthMbPerS) : 0;
  }

  /** The backend `state.backend.type` selects, named as in the sim driver (vertex, subtask, attempt). */
  #createBackend(config: FlinkConfig, d: TaskDeployment, slotId: string, lsm: LsmStorageFactory | undefined): KeyedStateBackend {
    if (!this.#slotMemory.has(slotId)) this.#slotMemory.set(slotId, slotMemoryResources(config));
    const backend = createKeyedStateBackend(config, d.keyGroupRange, `${d.vertex.id}_${d.subtaskIndex}_a${d.attempt}`, lsm, this.#slotMemory.get(slotId));
    this.#backends.push(backend);
    return backend;
  }

  #connect({ channelId, end, port }: ChannelPort, attempt: number): void {
    (end === 'sender' ? this.#bufferPorts : this.#creditPorts).set(channelId, port);
    const decoder = new NetworkBufferDecoder();
    port.onmessage = (event: MessageEvent<DataPlaneMessage>) => this.#onDataPlane(attempt, event.data, decoder);
  }

  /** Cancels every subtask of the running attempt; its ports close, so nothing of it travels on. */
  #stopAttempt(): void {
    this.#reportDeliveryOrder();
    for (const t of this.#tasks) t.task.stop(false);
    // A cancelled attempt's working state is dropped (its runs leave the worker's database).
    for (const backend of this.#backends) if (backend instanceof LsmKeyedStateBackend) backend.dispose();
    this.#backends = [];
    this.#releaseWorkingDatabase();
    for (const port of [...this.#bufferPorts.values(), ...this.#creditPorts.values()]) {
      port.onmessage = null;
      port.close();
    }
    this.#tasks = [];
    this.#byIndex.clear();
    this.#receiverOf.clear();
    this.#senderOf.clear();
    this.#bufferPorts.clear();
    this.#creditPorts.clear();
    this.#outBuffers.clear();
    this.#encoders.clear();
    this.#outCredits.clear();
    this.#outEndOfDataProcessed.clear();
    this.#attempt = -1;
  }

  /**
   * The stopped attempt's working database (or `db`, one a failed deployment opened) is closed and
   * its instance directory deleted, as Flink disposes a cancelled task's RocksDB instance (and its
   * directory).
   */
  #releaseWorkingDatabase(db = this.#workingDb): void {
    if (!db) return;
    if (db === this.#workingDb) this.#workingDb = undefined;
    const released = this.#released.then(() => db.dispose());
    // A failed deletion leaves a directory the next process of this TaskManager deletes; the next open still runs.
    this.#released = released.catch(() => {});
  }

  #current(attempt: number, taskIndex: number): HostedTask | undefined {
    return attempt === this.#attempt && !this.#stalled ? this.#byIndex.get(taskIndex) : undefined;
  }

  // ---- the data plane, inbound ----

  #onDataPlane(attempt: number, message: DataPlaneMessage, decoder: NetworkBufferDecoder): void {
    // Decoded even when dropped: the channel's key names must stay in step with its sender's.
    const buffers = message.kind === 'buffers' ? decoder.decode(message) : [];
    if (attempt !== this.#attempt || this.#stalled) return;
    const now = this.#now();
    if (message.kind === 'buffers') {
      const t = this.#receiverOf.get(message.channelId);
      if (!t) return;
      for (const buffer of buffers) t.task.receive(message.channelId, buffer);
      this.#wakeIfNotBusy(t, now);
    } else {
      const t = this.#senderOf.get(message.channelId);
      if (!t) return;
      t.task.addCredits(message.channelId, message.credits, message.endOfDataProcessed === true);
      this.#wakeIfNotBusy(t, now);
    }
  }

  // ---- scheduling ----

  #now(): number {
    return jobTimeAt(this.#clock, wallNow());
  }

  #wakeIfNotBusy(t: HostedTask, now: number): void {
    if (now >= t.busyUntil) this.#wake(t, now);
  }

  /**
   * The task wants a poll at job time `at`, unless one is due no later already. A lazy wake (an
   * idle task's own timer) waits for a timer, never for the next macrotask: a source with a record
   * due every 0.4 ms then takes what came meanwhile every few ms, instead of spinning the worker.
   */
  #wake(t: HostedTask, at: number, lazy = false): void {
    if (at >= t.wakeAt) return;
    t.wakeAt = at;
    t.lazy = lazy;
    this.#scheduler.requestAt(wallTimeAt(this.#clock, at), lazy);
  }

  #turn(): void {
    if (this.#attempt < 0) return;
    const started = performance.now();
    let now = this.#now();
    for (;;) {
      let polled = false;
      for (const t of this.#tasks) {
        if (t.flushJobs.length > 0) this.#finishFlushes(t, now);
        if (t.wakeAt > now) continue;
        this.#poll(t, now);
        polled = true;
      }
      if (!polled) break;
      // Buffers and credit go out after every pass, not only at the end of the turn: a receiver
      // waiting for them (or a sender waiting for credit) on another thread works meanwhile.
      this.#flushDataPlane();
      if (performance.now() - started >= TURN_BUDGET_MS) break;
      now = this.#now();
    }
    this.#flushDataPlane();
    this.#requestNextTurn();
    if (!this.#reportsMayWait()) this.#flushReports();
  }

  /**
   * The report batch may wait for the next turn when that turn comes at once and the batch holds
   * nothing but a plain sink's writes (what the subtasks consumed is drained when it goes), fewer
   * than MAX_DEFERRED_SINK_RECORDS: any other report (a state, an acknowledgement, a commit)
   * sends it, in order, and so does a turn after which the TaskManager waits.
   */
  #reportsMayWait(): boolean {
    if (!this.#scheduler.immediatePending) return false;
    let records = this.#sinkColumns.size;
    for (const report of this.#reports) {
      if (report.type !== 'sink-output') return false;
      records += report.records.keys.length;
    }
    if (records >= MAX_DEFERRED_SINK_RECORDS) return false;
    // A trickle of writes beside a task that is always busy still goes out every turn budget.
    const wall = performance.now();
    if (this.#reportsWaitingSince === undefined) this.#reportsWaitingSince = wall;
    return wall - this.#reportsWaitingSince < TURN_BUDGET_MS;
  }

  #requestNextTurn(): void {
    for (const t of this.#tasks) {
      if (t.wakeAt < Infinity) this.#scheduler.requestAt(wallTimeAt(this.#clock, t.wakeAt), t.lazy);
      // A flush ending a little late only keeps its memtables a little longer: a lazy wake.
      for (const job of t.flushJobs) this.#scheduler.requestAt(wallTimeAt(this.#clock, job.end), true);
    }
  }

  /** The flush jobs whose disk time is up turn their memtables into level-0 runs; waiting ones get a thread. */
  #finishFlushes(t: HostedTask, now: number): void {
    const due = t.flushJobs.filter((job) => job.end <= now);
    if (due.length === 0) return;
    t.flushJobs = t.flushJobs.filter((job) => job.end > now);
    try {
      for (const job of due) t.flushJobs.push(...t.background!.flushDone(job, now));
    } catch (error) {
      t.flushJobs = [];
      this.#fail(t, `${t.task.id.vertexId}#${t.task.id.subtaskIndex} failed a RocksDB flush: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #poll(t: HostedTask, now: number): void {
    t.wakeAt = Infinity;
    const effects = this.#effects;
    effects.length = 0;
    let outcome: PollOutcome;
    try {
      outcome = t.task.poll(now, effects);
      for (const effect of effects) this.#apply(t, effect, now);
      if (t.background) outcome = this.#withWriteStalls(t, now, outcome);
    } catch (error) {
      // An exception in an operator fails the subtask, as in Flink; the JobManager fails over.
      this.#fail(t, `${t.task.id.vertexId}#${t.task.id.subtaskIndex} threw: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.#afterPoll(t, outcome);
    this.#reportProgress(t);
  }

  /** A poll whose writes stalled keeps the task busy until the flushes they waited for ended (as in the sim). */
  #withWriteStalls(t: HostedTask, now: number, outcome: PollOutcome): PollOutcome {
    const charged = t.background!.chargePoll(now, outcome);
    t.flushJobs.push(...charged.started);
    return charged.outcome;
  }

  #afterPoll(t: HostedTask, outcome: PollOutcome): void {
    switch (outcome.status) {
      case 'busy':
        t.busyUntil = outcome.until;
        this.#wake(t, outcome.until);
        return;
      case 'idle':
        if (outcome.wakeAt !== undefined) this.#wake(t, outcome.wakeAt, true);
        return;
      case 'finished':
      case 'backpressured':
        return;
    }
  }

  /** Carries out one effect: local channels at once, remote ones and reports at the end of the turn. */
  #apply(t: HostedTask, effect: TaskEffect, now: number): void {
    const attempt = this.#attempt;
    switch (effect.type) {
      case 'send': {
        const receiver = this.#receiverOf.get(effect.channelId);
        if (receiver) {
          receiver.task.receive(effect.channelId, effect.buffer);
          this.#wakeIfNotBusy(receiver, now);
          return;
        }
        const queued = this.#outBuffers.get(effect.channelId);
        if (queued) queued.push(effect.buffer);
        else this.#outBuffers.set(effect.channelId, [effect.buffer]);
        return;
      }
      case 'credit': {
        const sender = this.#senderOf.get(effect.channelId);
        if (sender) {
          sender.task.addCredits(effect.channelId, effect.credits, effect.endOfDataProcessed === true);
          this.#wakeIfNotBusy(sender, now);
          return;
        }
        this.#outCredits.set(effect.channelId, (this.#outCredits.get(effect.channelId) ?? 0) + effect.credits);
        if (effect.endOfDataProcessed) this.#outEndOfDataProcessed.add(effect.channelId);
        return;
      }
      case 'sink-output':
        return this.#reportSinkOutput(t.index, effect.records);
      case 'sink-commit': {
        const { id, records } = effect.transaction;
        return this.#report({ type: 'sink-commit', attempt, taskIndex: t.index, transactionId: id, records: sinkRecordColumns(records) });
      }
      case 'persist-snapshot':
        return this.#startUpload(t, attempt, effect.checkpointId, effect.snapshot, effect.metrics);
      case 'decline-checkpoint':
        return this.#report({ type: 'decline-checkpoint', attempt, taskIndex: t.index, checkpointId: effect.checkpointId, reason: effect.reason });
    }
  }

  /** Tells the JobManager when a subtask changed its execution state (FINISHED with its final snapshot). */
  #reportProgress(t: HostedTask): void {
    const { task } = t;
    const state = task.lifecycle.state;
    if (state === t.reportedState) return;
    t.reportedState = state;
    const final = state === 'FINISHED' && task.finalSnapshot ? { finalSnapshot: encodeTaskStateSnapshot(task.finalSnapshot) } : {};
    this.#report({ type: 'task-state', attempt: this.#attempt, taskIndex: t.index, state, ...final });
  }

  // ---- the asynchronous part of a checkpoint: uploads, off the task loop ----

  /** Job ms of storage cost as a wall-clock sleep at the job clock's speed. */
  #sleep(jobMs: number): Promise<void> {
    return sleepJobTime(jobMs, () => this.#clock);
  }

  /**
   * Uploads one subtask's snapshot (snapshot-codec bytes) to remote checkpoint storage, then
   * acknowledges; a failed write declines. The task loop goes on meanwhile. Beside it, a local
   * copy of keyed state goes to the host's disk (reported when written). An upload whose attempt
   * was cancelled meanwhile still reports, so the JobManager deletes what nobody will read.
   */
  #startUpload(t: HostedTask, attempt: number, checkpointId: number, snapshot: TaskStateSnapshot, metrics: SubtaskCheckpointMetrics): void {
    const spec = this.#storageSpec;
    const storage = this.#storage;
    if (!spec || !storage) {
      this.#report({ type: 'decline-checkpoint', attempt, taskIndex: t.index, checkpointId, reason: 'CHECKPOINT_ASYNC_EXCEPTION' });
      return;
    }
    const localCopy = spec.localBackupEnabled && !metrics.unalignedCheckpoint && snapshot.keyedState !== undefined;
    // A reused run's contents come from the task's live backend: taken now, before the task writes on.
    const runs = localCopy ? this.#localCopyRuns(t, snapshot) : undefined;
    // Flink's asynchronous part: the snapshot is written out once this turn has sent what it
    // produced, the barrier first, so the encoding does not hold the barrier back from the
    // downstream tasks aligning on it. It is still the turn's macrotask: no message comes between.
    // The heap backend's snapshot is copy-on-write and the LSM's runs never change, so what the
    // tasks did meanwhile is not in it.
    queueMicrotask(() => this.#upload({ taskIndex: t.index, attempt, checkpointId, snapshot, metrics, spec, storage, runs }));
  }

  /** The asynchronous part of #startUpload: encode, write, acknowledge; an exception declines, as AsyncCheckpointRunnable's does. */
  #upload(u: SnapshotUpload): void {
    const { taskIndex, attempt, checkpointId, snapshot, metrics, spec, storage } = u;
    let upload: TaskUpload;
    let handle: Uint8Array;
    try {
      upload = taskSnapshotFiles(checkpointPlacement(spec.location, checkpointId), snapshot, undefined, spec.dataInlineThresholdBytes);
      // The JobManager gets the handle only; the state's bytes are in storage (and on the local disk),
      // or, when they are at most data-inline-threshold, in the reference, for `_metadata`.
      handle = encodeTaskStateSnapshot(stateHandleOf(snapshot));
    } catch (error) {
      this.#report({ type: 'decline-checkpoint', attempt, taskIndex, checkpointId, reason: 'CHECKPOINT_ASYNC_EXCEPTION', cause: error instanceof Error ? error.message : String(error) });
      this.#flushReports();
      return;
    }
    // The asynchronous part starts when the synchronous part ends (as in the simulation, which
    // uploads from max(now, syncEndTime)): the task's modelled sync time is not spent uploading.
    const syncEnded = this.#sleep(Math.max(0, metrics.syncEndTime - this.#now()));
    void (async () => {
      let failed: string | undefined;
      try {
        await syncEnded;
        const error = await (await storage).writeCheckpoint(checkpointId, upload.files);
        failed = error?.message;
      } catch (error) {
        failed = error instanceof Error ? error.message : String(error);
      }
      if (failed !== undefined) this.#report({ type: 'decline-checkpoint', attempt, taskIndex, checkpointId, reason: 'CHECKPOINT_ASYNC_EXCEPTION', cause: failed });
      else this.#report({ type: 'acknowledge-checkpoint', attempt, taskIndex, checkpointId, snapshot: handle, reference: upload.reference, metrics });
      this.#flushReports();
    })();
    if (u.runs) this.#writeLocalCopy(u, upload, u.runs, syncEnded);
  }

  /** The local copy of keyed state to the host's disk, reported once the sync phase and then its modelled write time have passed. */
  #writeLocalCopy({ taskIndex, attempt, checkpointId, snapshot, spec }: SnapshotUpload, upload: TaskUpload, runs: UnsummedLocalRun[], syncEnded: Promise<void>): void {
    // Without shared files the upload's state file is the whole snapshot: its bytes serve the copy (encoding 25 MB twice blocks the worker for seconds).
    const copy = 'sharedFiles' in snapshot ? encodeTaskStateSnapshot(withoutRunContents(snapshot)) : privateStateBytes(upload);
    // Of the bytes (the host's disk stores them as they are): XXH64, about 2 ms per 14 MB, while the write's modelled time passes.
    const digest = localCopyChecksum(copy);
    const summed = Promise.all(runs.map(async (r) => ({ ...r, ...(await localCopyChecksum(r.encoded)) })));
    const written = snapshot.stateSize - (snapshot.sharedFiles ?? []).reduce((n, f) => n + f.sizeBytes, 0) + runs.reduce((n, r) => n + r.bytes, 0);
    const handles = snapshot.sharedFiles?.map((f) => ({ name: f.name, sizeBytes: f.sizeBytes }));
    void Promise.all([digest, summed, syncEnded.then(() => this.#sleep(transferMs(written, spec.local.latencyMs, spec.local.bandwidthMbPerS)))]).then(([{ checksum, checksumOf }, newRuns]) => {
      this.#report({ type: 'local-copy', attempt, taskIndex, checkpointId, snapshot: copy, checksum, checksumOf, bytes: snapshot.stateSize, ...(handles ? { runs: handles, newRuns } : {}) });
      this.#flushReports();
    });
  }

  /**
   * The runs an incremental snapshot's local copy sends to the host's disk: all it references
   * (Flink's native RocksDB checkpoint links every SST file of the DB) but the reused ones sent
   * before (the confirmed copy they came with keeps them on the disk); a reused run's contents
   * come from the task's own backend, never from remote storage.
   */
  #localCopyRuns(t: HostedTask, snapshot: TaskStateSnapshot): UnsummedLocalRun[] {
    const runs: UnsummedLocalRun[] = [];
    for (const f of snapshot.sharedFiles ?? []) {
      // A run uploaded now goes too: an aborted checkpoint's copy that carried it may be pruned already.
      if (f.contents === undefined && t.localRuns.has(f.name)) continue;
      const contents = f.contents ?? t.task.keyedState?.sharedFileContents?.(f.name);
      if (contents === undefined) continue;
      const encoded = encodeSharedFile(f.name, contents);
      runs.push({ name: f.name, bytes: f.sizeBytes, encoded });
    }
    t.localRuns = new Set((snapshot.sharedFiles ?? []).map((f) => f.name));
    return runs;
  }

  #fail(t: HostedTask, cause: string): void {
    t.task.stop(true);
    t.wakeAt = Infinity;
    t.reportedState = 'FAILED';
    this.#report({ type: 'task-state', attempt: this.#attempt, taskIndex: t.index, state: 'FAILED', cause });
  }

  #report(report: TaskManagerReport): void {
    this.#closeSinkOutput();
    this.#reports.push(report);
  }

  /**
   * A plain sink's writes of one turn travel as one report of columns: consecutive writes of a
   * subtask go into the same report, so the order of everything reported stays as it happened.
   */
  #reportSinkOutput(taskIndex: number, records: StreamRecord[]): void {
    if (this.#sinkOutput?.taskIndex !== taskIndex) {
      this.#closeSinkOutput();
      this.#sinkOutput = { taskIndex, attempt: this.#attempt };
    }
    this.#sinkColumns.add(records);
  }

  #closeSinkOutput(): void {
    const open = this.#sinkOutput;
    if (!open) return;
    this.#sinkOutput = undefined;
    this.#reports.push({ type: 'sink-output', attempt: open.attempt, taskIndex: open.taskIndex, records: this.#sinkColumns.build() });
  }

  /** Sends what the turn produced: one message per remote channel, one report batch. */
  #flush(): void {
    this.#flushDataPlane();
    this.#flushReports();
  }

  #flushDataPlane(): void {
    for (const [channelId, buffers] of this.#outBuffers) {
      const port = this.#bufferPorts.get(channelId);
      if (!port) continue;
      let encoder = this.#encoders.get(channelId);
      if (!encoder) this.#encoders.set(channelId, (encoder = new NetworkBufferEncoder()));
      const { message, transfer } = encoder.encode(channelId, buffers);
      port.postMessage(message satisfies DataPlaneMessage, transfer);
    }
    this.#outBuffers.clear();
    for (const [channelId, credits] of this.#outCredits) {
      const processed = this.#outEndOfDataProcessed.has(channelId) ? { endOfDataProcessed: true as const } : {};
      this.#creditPorts.get(channelId)?.postMessage({ kind: 'credit', channelId, credits, ...processed } satisfies DataPlaneMessage);
    }
    this.#outCredits.clear();
    this.#outEndOfDataProcessed.clear();
  }

  /** What each subtask consumed since the last report: one report per subtask that consumed anything. */
  #reportDeliveryOrder(): void {
    for (const { task, index } of this.#tasks) {
      if (!task.recorder || task.recorder.isEmpty) continue;
      this.#report({ type: 'delivery-order', attempt: this.#attempt, taskIndex: index, vertexId: task.id.vertexId, subtaskIndex: task.id.subtaskIndex, ...task.recorder.drain() });
    }
  }

  #flushReports(): void {
    this.#reportsWaitingSince = undefined;
    this.#reportDeliveryOrder();
    this.#closeSinkOutput();
    if (!this.#reportPort || this.#stalled) return;
    const network = this.#networkSnapshotDue();
    if (this.#reports.length === 0 && !network) return;
    const transfer = this.#reports.flatMap((r) => (r.type === 'sink-output' || r.type === 'sink-commit' ? columnBuffers(r.records) : []));
    if (network) transfer.push(...networkSnapshotBuffers(network));
    this.#reportPort.postMessage({ taskManagerId: this.#id, reports: this.#reports, ...(network ? { network } : {}) } satisfies ReportBatch, transfer);
    this.#reports = [];
  }

  /**
   * The queues now, when the last snapshot is NETWORK_SNAPSHOT_INTERVAL_MS old; otherwise a flush
   * is armed for when it will be, so the view sees where the last turn left the queues.
   */
  #networkSnapshotDue(): NetworkSnapshot | undefined {
    if (this.#attempt < 0) return undefined;
    const wall = performance.now();
    if (wall < this.#nextNetworkSnapshot) {
      this.#trailingSnapshot ??= setTimeout(() => {
        this.#trailingSnapshot = undefined;
        this.#flushReports();
      }, this.#nextNetworkSnapshot - wall);
      return undefined;
    }
    this.#nextNetworkSnapshot = wall + NETWORK_SNAPSHOT_INTERVAL_MS;
    return this.#network.encode(this.#attempt, this.#now(), this.#tasks.map((t) => t.task));
  }
}

/** One subtask's snapshot on its way to remote storage (and, with `runs`, to the host's disk). */
/** A run a local copy sends, before its checksum is computed (off the snapshot's turn). */
type UnsummedLocalRun = Omit<EncodedLocalRun, 'checksum' | 'checksumOf'>;

interface SnapshotUpload {
  taskIndex: number;
  attempt: number;
  checkpointId: number;
  snapshot: TaskStateSnapshot;
  metrics: SubtaskCheckpointMetrics;
  spec: CheckpointStorageSpec;
  storage: Promise<CostModelledStorage>;
  /** the runs a local copy sends, when one is written */
  runs: UnsummedLocalRun[] | undefined;
}
