/**
 * The `live` runtime: the JobMaster on the main thread, with one Web Worker per TaskManager.
 *
 * Every job-level decision is the JobMaster's (engine/job/job-master.ts), the same one the sim
 * runtime interprets; this file carries its effects out for real and reports back:
 * - time is the wall clock, scaled by a speed factor (JobClock, shared with the TaskManagers);
 * - tasks run in the workers (workers/task-manager.ts), which talk to each other directly over a
 *   MessageChannel per remote channel; the JobManager only deploys, triggers, notifies, cancels
 *   and listens to reports (workers/protocol.ts);
 * - the TaskManager processes and their heartbeats are task-manager-pool.ts; a process the
 *   JobMaster has terminated (a kill, a lost host) is lost at once, its connections broken; a hung
 *   one when its heartbeats have been silent for heartbeat.timeout;
 * - checkpoint storage is real (live-checkpoint-storage.ts): each TaskManager uploads its
 *   snapshots to an IndexedDB database that behaves like a remote object store and acknowledges
 *   once the write succeeded; the JobManager writes `_metadata` before a checkpoint completes, and
 *   deletes what the JobMaster discards;
 * - a restart reads `_metadata` back and plans from it and the hosts' disk listings
 *   (restore-reads.ts); each subtask is deployed with its handles and its TaskManager reads them,
 *   its local copy first (task-restore-reads.ts); task-local copies are on each host's disk (a
 *   HostLocalDisk on the main thread, kept in IndexedDB; it outlives the worker processes of the
 *   host, as a disk does);
 * - with `state.backend.type: rocksdb` each worker hosts the LSM backend, its working database in
 *   its host's OPFS directory (workers/storage/rocksdb-local-dir.ts), or, where the browser has
 *   no OPFS, in IndexedDB (said once, as a `runtime-notice` event).
 */
import { localKeyGroupsHandlesOfRange } from '../../engine/recovery/local-key-groups-handles.ts';
import type { ScheduledOperation } from '../../engine/job/scheduled-operation.ts';
import * as Comlink from 'comlink';
import type { SubtaskId, TaskStateSnapshot } from '../../engine/protocol.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { subtaskKey, type CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { ClusterTopology, type TaskManagerInfo } from '../../engine/job/cluster-topology.ts';
import type { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import { subtaskName } from '../../engine/job/task-message.ts';
import { JobMaster, type JobStartState } from '../../engine/job/job-master.ts';
import type { JobMasterEffect } from '../../engine/job/job-master-effect.ts';
import type { JobOperation } from '../../engine/job/job-operation.ts';
import { JobRuntime } from '../../engine/job/job-runtime.ts';
import { EffectDriver } from '../../engine/job/effect-driver.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import { SessionRecorder } from '../../engine/replay/session-recorder.ts';
import { sessionDocument, type SessionDocument } from '../../engine/replay/session-document.ts';
import type { JobStatus } from '../../engine/job/job-status.ts';
import { buildTaskDeployments } from '../../engine/job/task-deployments.ts';
import { describeTopology, type Topology } from '../../engine/job/topology.ts';
import { jobMetricsOf, type JobMetrics, type SubtaskMetrics } from '../../engine/metrics/metrics-sampler.ts';
import { isKeyedOperator } from '../../engine/operators/operator-factory.ts';
import type { RestoreRecord } from '../../engine/run/job-events.ts';
import { ColumnKeyStream, SinkOutputLog } from '../../engine/run/sink-output-log.ts';
import { sinkRecordsOf } from '../sink-record-columns.ts';
import type { ExecutionState } from '../../engine/task/task-lifecycle.ts';
import { clockFrom, jobTimeAt, wallNow } from '../job-clock.ts';
import { sleepJobTime } from '../job-time-sleep.ts';
import type { ChannelPort, CheckpointStorageSpec, DeployRequest, DeployResult, JobClock, NetworkSnapshot, ReportBatch, SinkOutputColumns, TaskManagerReport, TaskToDeploy } from '../protocol.ts';
import { SinkOutputDecoder } from '../sink-output-columns.ts';
import { JobTimers } from './job-timers.ts';
import { launchWorkerTaskManager, type TaskManagerLauncher } from './task-manager-process.ts';
import { TaskManagerPool, type TaskManagerConnection } from './task-manager-pool.ts';
import { LiveCheckpointStorage } from './live-checkpoint-storage.ts';
import { assignmentTarget, readForRestore, readRecoveredCheckpoint, shareMetadata, type RestoreReads } from './restore-reads.ts';
import { checkpointDirectory, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import type { CheckpointStorage } from '../../engine/storage/checkpoint-storage.ts';
import { decodeSharedFile, decodeTaskStateSnapshot } from '../../engine/storage/snapshot-codec.ts';
import { transferMs } from '../../engine/storage/transfer-cost.ts';
import { localCopyPath, type HostLocalDisk, type LocalDiskListing, type TaskLocalStateStoreKey } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { liveCheckpointDatabaseName, newLiveRunId } from '../storage/indexeddb-checkpoint-storage.ts';
import { destroyLocalDisks, localDisksSettled, openHostLocalDisk } from '../storage/indexeddb-local-disk-store.ts';
import { IndexedDbSinkOutputStore, sinkOutputDatabaseName } from '../storage/indexeddb-sink-output-store.ts';
import { deleteMirroredDatabasesUnder } from '../storage/indexeddb-mirrored-vfs.ts';
import { hostDir, hostsDir, opfsAvailable, removeOpfsDirectory, removeOpfsDirectoryAndEmptyParents, rocksDbLocalDir, type LocalDirStore } from '../storage/rocksdb-local-dir.ts';
import type { EngineMessage } from '../../engine/messages/message-codes.ts';

/**
 * Heartbeats run on the wall clock at this fraction of the configured heartbeat.interval and
 * heartbeat.timeout: Flink's defaults (10 s, 50 s) become 500 ms and 2.5 s, so a hung
 * TaskManager is noticed while a learner is still watching.
 */
export const DEFAULT_HEARTBEAT_SCALE = 1 / 20;

export interface LiveDriverOptions {
  /** overrides the scenario's seed (the live run is not deterministic; the seed drives sources and jitter) */
  seed?: number;
  /** job ms per wall-clock ms; default 1 */
  speed?: number;
  /** wall ms of heartbeat per configured ms; default DEFAULT_HEARTBEAT_SCALE */
  heartbeatScale?: number;
  /** how TaskManager processes start; default one Web Worker each */
  launchTaskManager?: TaskManagerLauncher;
  /** the IndexedDB database of remote checkpoint storage; default a new one per run */
  checkpointDatabase?: string;
  /**
   * Keep every record the sink wrote in `sinkOutput` (default true: the playground compares the
   * output with a failure-free run). false only counts them (`sinkOutput.totalRecords`): the
   * external system's contents are not the JobManager's to hold, and a long run at millions of
   * keys would otherwise fill the main thread's heap with them.
   */
  recordSinkOutput?: boolean;
  /** the scenario as the user wrote it (YAML or JSON): an exported session carries it (exportSession) */
  scenarioText?: string;
  /**
   * Where rocksdb TaskManagers keep their working databases: `opfs`, each host's directory in the
   * Origin Private File System (state.backend.rocksdb.localdir); `indexeddb`, the same directories
   * as IndexedDB databases; `memory`, in the process (Node has no OPFS: its in-process
   * TaskManagers use MemoryVFS). Default: `opfs` where the browser offers it, else `indexeddb`,
   * with a `runtime-notice` event saying so.
   */
  rocksdbLocalDirs?: 'opfs' | 'indexeddb' | 'memory';
  /** operator requests at set job times (a lesson step's cancel or rescale), carried out as the sim does them */
  operations?: readonly ScheduledOperation[];
  /**
   * Resumes a run the page was reloaded in the middle of, as a JobManager failover does: the
   * newest checkpoint whose `_metadata` is in `checkpointDatabase` is recovered and restored, the
   * job clock goes on from `jobTimeMs`, and faults and operations due before it are not repeated.
   */
  recover?: { jobTimeMs: number };
  /** the sink's external system, when it already holds what the interrupted run committed */
  sinkOutput?: SinkOutputLog;
  /**
   * Keep the two-phase-commit sink's committed transactions in IndexedDB next to the checkpoint
   * database, so that a run resumed after a reload (`recover`) starts from what was committed
   * before it (committed into `sinkOutput` when given). The page does; it deletes the database with the run.
   */
  persistSinkOutput?: boolean;
}

/** The job id in checkpoint paths and local-state keys. */
const LIVE_JOB_ID = 'live-job';
/** decline causes kept (the newest): a store failing for minutes declines every checkpoint */
const MAX_DECLINE_CAUSES = 100;

/** What the JobManager knows of one subtask of the current attempt, from the reports. */
interface SubtaskStatus {
  state: ExecutionState;
  finalSnapshot?: TaskStateSnapshot;
}

export class LiveDriver extends JobRuntime {
  readonly jobMaster: JobMaster;
  readonly #sinkOutput: SinkOutputLog;
  /** the committed transactions in IndexedDB, with `persistSinkOutput` */
  readonly #sinkStore: IndexedDbSinkOutputStore | undefined;
  /** per restore, what it read from remote storage: the JobManager's `_metadata`, and the state files and shared runs the TaskManagers read for their subtasks */
  readonly remoteRestoreReads: Array<{ checkpointId: number; bytes: number; requests: number }> = [];
  /** why subtasks declined checkpoints, when they said (a failed upload: the storage's error), oldest first */
  readonly declineCauses: string[] = [];
  readonly #pool: TaskManagerPool;
  readonly #storage: LiveCheckpointStorage;
  readonly #timers: JobTimers;
  #networkListener: ((taskManagerId: string, snapshot: NetworkSnapshot) => void) | undefined;
  #clock: JobClock;
  #status: SubtaskStatus[] = [];
  #disposed = false;
  /** what dispose() started, once it was called */
  #disposal: Promise<void> | undefined;
  readonly #recordSinkOutput: boolean;
  /** transactions counted when the sink output is not recorded */
  readonly #countedCommits = new Set<string>();
  /** one local disk per host (task-local recovery); it survives its TaskManagers' processes */
  readonly #disks = new Map<string, HostLocalDisk>();
  /** the delivery order the TaskManagers report, checkpoint triggers, faults and restores: what exportSession() exports */
  readonly #session = new SessionRecorder();
  readonly #scenarioText: string | undefined;
  /** the store of the hosts' rocksdb working directories (deleted on lose-host and dispose); undefined: none (hashmap, or in memory) */
  readonly #localDirStore: LocalDirStore | undefined;
  /** deletions of hosts' rocksdb working directories, one after the other */
  #localDirDeletions: Promise<void> = Promise.resolve();
  /** the hosts' disks deleted on dispose, their OPFS directories with them */
  #disksDestroyed: Promise<unknown> = Promise.resolve();
  /** the state a restart read back, for the deployment that follows */
  #restoring: { attempt: number; reads: RestoreReads } | undefined;
  /** carries out the JobMaster's effects in order (its calls made while carrying one out join the queue) */
  readonly #jobMasterEffects = new EffectDriver((effect, effects) => this.#apply(effect, effects));
  /** checkpoint discards wait for the other effects of their call: a `_metadata` write queued by them goes first */
  #discards: number[] = [];

  private constructor(scenario: Scenario, options: LiveDriverOptions) {
    super();
    this.#scenarioText = options.scenarioText;
    this.#sinkOutput = options.sinkOutput ?? new SinkOutputLog();
    const config = readConfig(scenario.config);
    const costs = scenario.costs;
    const location: CheckpointLocation = { checkpointDir: config.checkpointDir ?? 'indexeddb://checkpoints', jobId: LIVE_JOB_ID };
    const spec: CheckpointStorageSpec = {
      databaseName: options.checkpointDatabase ?? liveCheckpointDatabaseName(newLiveRunId()),
      location,
      remote: { latencyMs: costs.remote_latency_ms, bandwidthMbPerS: costs.remote_bandwidth_mb_per_s },
      local: { latencyMs: costs.local_latency_ms, bandwidthMbPerS: costs.local_bandwidth_mb_per_s },
      localBackupEnabled: config.localBackupEnabled,
      dataInlineThresholdBytes: config.dataInlineThresholdBytes,
    };
    for (const host of new ClusterTopology(scenario.cluster).hosts) this.#disks.set(host, openHostLocalDisk(host, spec.databaseName, { contentsInMemory: false, files: config.localBackupEnabled }));
    this.jobMaster = new JobMaster(scenario, {
      seed: options.seed ?? scenario.seed,
      jobId: LIVE_JOB_ID,
      disks: this.#disks,
      subtasks: () => this.#plannedSubtasks(),
      finalizeAsync: true,
      recorder: this.#session,
    });
    this.#storage = new LiveCheckpointStorage(spec, this.jobMaster.coordinator);
    this.#sinkStore = options.persistSinkOutput ? new IndexedDbSinkOutputStore(sinkOutputDatabaseName(spec.databaseName)) : undefined;
    const localDirs = options.rocksdbLocalDirs ?? 'opfs';
    this.#localDirStore = config.stateBackend === 'rocksdb' && localDirs !== 'memory' ? localDirs : undefined;
    this.#recordSinkOutput = options.recordSinkOutput ?? true;
    this.#clock = clockFrom(0, options.speed ?? 1);
    this.#timers = new JobTimers(() => this.#clock);
    const scale = options.heartbeatScale ?? DEFAULT_HEARTBEAT_SCALE;
    this.#pool = new TaskManagerPool({
      launch: options.launchTaskManager ?? launchWorkerTaskManager,
      entry: config.stateBackend === 'rocksdb' ? 'rocksdb' : 'default',
      heartbeatIntervalMs: config.heartbeatInterval * scale,
      heartbeatTimeoutMs: config.heartbeatTimeout * scale,
      configuredPerWallMs: 1 / scale,
      registration: (info, incarnation) => this.#registration(info, incarnation),
      listener: {
        reports: (tm, batch) => this.#onReportBatch(tm, batch),
        lost: (id, cause) => this.#onLost(id, cause),
        heard: (id) => {
          this.jobMaster.onHeartbeat(id);
          // A heartbeat carries the task metrics: the sources' backlog is sampled as it arrives.
          this.recordSourceBacklog();
        },
        missed: (id, silentMs) => this.#drive((e) => this.jobMaster.onHeartbeatsMissed(id, silentMs, this.now, e)),
      },
    });
  }

  /**
   * Starts a TaskManager process per TaskManager of the scenario's cluster, deploys the job on
   * them and starts checkpointing; resolves once every subtask is deployed.
   */
  static async start(scenario: Scenario, options: LiveDriverOptions = {}): Promise<LiveDriver> {
    const rocksdb = readConfig(scenario.config).stateBackend === 'rocksdb';
    // Asked once, here: the TaskManagers are told where their directories are at registration.
    const withoutOpfs = rocksdb && options.rocksdbLocalDirs === undefined && !(await opfsAvailable());
    const driver = new LiveDriver(scenario, withoutOpfs ? { ...options, rocksdbLocalDirs: 'indexeddb' } : options);
    if (withoutOpfs) driver.jobMaster.notice({ kind: 'rocksdb-local-dir-in-indexeddb' }, 0);
    try {
      // Resumed: the external system holds what the interrupted run committed.
      if (options.recover && driver.#sinkStore) await driver.#loadSinkOutput(driver.#sinkStore);
      await driver.#boot(options.speed ?? 1, options.operations ?? [], options.recover);
    } catch (error) {
      void driver.dispose();
      throw error;
    }
    return driver;
  }

  async #boot(speed: number, operations: readonly ScheduledOperation[], recover: { jobTimeMs: number } | undefined): Promise<void> {
    await this.#storage.open((ms) => sleepJobTime(ms, () => this.#clock));
    for (const info of this.cluster.taskManagers) this.#pool.start(info);
    const recovered = recover && (await this.#readRecovered());
    await Promise.all(this.#pool.all().map((tm) => tm.ready));
    const startAt = recover?.jobTimeMs ?? 0;
    this.#clock = clockFrom(startAt, speed);
    // What came due before the interruption happened in the run that was interrupted.
    const faults = this.scenario.faults.filter((f) => !recover || f.at_ms > startAt);
    this.#drive((e) => this.jobMaster.start(startAt, e, faults, recovered));
    for (const { at_ms, operation } of operations) {
      if (!recover || at_ms > startAt) this.#timers.schedule(at_ms, (at) => this.#drive((e) => void this.jobMaster.operate(operation, at, e, 'schedule')));
    }
    this.#pool.startHeartbeats();
    await this.#deployed;
  }

  /**
   * A JobManager failover's recovery from remote storage: the newest checkpoint with `_metadata`,
   * read back for the first deployment (every subtask restores remotely: its TaskManager is a new
   * process), and what the interrupted run left that nothing refers to swept away first.
   */
  async #readRecovered(): Promise<JobStartState> {
    const { latest, highestId } = await this.#storage.enqueue(() => this.#storage.recoverableCheckpoints());
    if (latest === undefined) throw new Error(`Cannot resume the run: its checkpoint storage (${this.#storage.spec.databaseName}) holds no completed checkpoint`);
    const graph = this.graph;
    const directory = checkpointDirectory(this.#storage.spec.location, latest);
    // Its completed-checkpoint store takes the checkpoint whole; the TaskManagers still read their own handles to restore.
    const recovered = await this.#storage.enqueue(() => readRecoveredCheckpoint(this.#storage.store, directory));
    if ('error' in recovered) throw new Error(`Cannot resume the run: ${recovered.error}`);
    const reads = await this.#storage.enqueue(() => readForRestore(this.#storage.store, directory, graph, (view) => this.jobMaster.planRestore(graph, view, new Map(), 'listed')));
    if ('error' in reads) throw new Error(`Cannot resume the run: ${reads.error}`);
    await this.#storage.enqueue(() => this.#storage.sweepOrphans(true, recovered.checkpoint));
    this.#restoring = { attempt: 0, reads };
    return { recovered: recovered.checkpoint, sharedFile: recovered.sharedFile, nextCheckpointId: highestId + 1 };
  }

  async #loadSinkOutput(store: IndexedDbSinkOutputStore): Promise<void> {
    try {
      await store.load(this.#sinkOutput);
    } catch (error) {
      throw new Error(`Cannot resume the run: what its sink committed (${store.name}) could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #registration(info: TaskManagerInfo, incarnation: number) {
    const spec = this.#storage.spec;
    // Each process has its own incarnation directory: it never opens files a killed predecessor may still hold.
    const store = this.#localDirStore;
    const localDir = store ? { rocksdbLocalDir: rocksDbLocalDir(spec.databaseName, info.host, info.id, incarnation, store) } : {};
    return { taskManagerId: info.id, host: info.host, storage: { ...spec, faults: { ...this.jobMaster.remoteStorageFaults } }, ...localDir };
  }

  // ---- what the page and tests read ----

  /** The sink's external system: what the sink wrote or committed (the interrupted run's commits too, when resumed). */
  get sinkOutput(): SinkOutputLog {
    return this.#sinkOutput;
  }

  /** Job time, ms since the job started (wall clock × speed). */
  get now(): number {
    return jobTimeAt(this.#clock, wallNow());
  }

  get speed(): number {
    return this.#clock.speed;
  }

  /** Web Workers (TaskManager processes) started so far, replacements included */
  get workersLaunched(): number {
    return this.#pool.launched;
  }

  /** The database of remote checkpoint storage and the job's place in it. */
  get checkpointStorageSpec(): CheckpointStorageSpec {
    return this.#storage.spec;
  }

  /** Remote checkpoint storage as the JobManager sees it (the IndexedDB store, without the cost model). */
  get checkpointStorage(): CheckpointStorage | undefined {
    return this.#storage.raw;
  }

  /** Messages of storage requests of the JobManager that failed (writing `_metadata`, deleting). */
  get storageErrors(): readonly string[] {
    return this.#sinkStore?.errors.length ? [...this.#storage.errors, ...this.#sinkStore.errors] : this.#storage.errors;
  }

  /**
   * Resolves once the JobManager's storage requests queued so far are done; once the job ended,
   * also those they queued in turn (nothing new comes then).
   */
  async storageIdle(): Promise<void> {
    await Promise.all([this.#storage.idle(this.job.isTerminal), this.#sinkStore?.idle()]);
  }

  /**
   * Runs `request` (a read of storage, for a check) after the JobManager's storage requests queued
   * so far and before any queued later: storage stays as the coordinator's state is now.
   */
  inStorageQueue<T>(request: () => Promise<T>): Promise<T> {
    return this.#storage.enqueue(request);
  }

  /**
   * What every host's local disk holds: task-local copies, and the rocksdb working databases of
   * its TaskManagers' running attempt (as their last heartbeats measured them).
   */
  localDisks(): LocalDiskListing[] {
    return [...this.#disks.values()].map((d) => {
      const listing = d.list();
      const working = this.#rocksdbWorkingDbs(listing.host);
      return working.length === 0 ? listing : { ...listing, rocksdbWorkingDbs: working };
    });
  }

  #rocksdbWorkingDbs(host: string): NonNullable<LocalDiskListing['rocksdbWorkingDbs']> {
    if (this.job.isTerminal) return [];
    const store = this.#localDirStore === 'indexeddb' ? { inIndexedDb: true as const } : {};
    return this.#pool.all().flatMap((tm) => {
      const db = tm.latest?.attempt === this.attempt ? tm.latest.rocksdbWorkingDb : undefined;
      return tm.info.host === host && db ? [{ taskManager: tm.info.id, path: db.path, bytes: db.bytes, ...store }] : [];
    });
  }

  /**
   * Resolves once the hosts' directories deleted so far are gone: rocksdb working directories
   * (lose-host, dispose) and, on dispose, the task-local copies' (the hosts' disks).
   */
  localDirsDeleted(): Promise<void> {
    return Promise.all([this.#localDirDeletions, this.#disksDestroyed]).then(() => undefined);
  }

  /** The channel view's one reader of the TaskManagers' network snapshots (of the current attempt). */
  onNetworkSnapshot(listener: ((taskManagerId: string, snapshot: NetworkSnapshot) => void) | undefined): void {
    this.#networkListener = listener;
  }

  /**
   * The session so far as a JSON-able document (version, scenario text, seed, recording) that the
   * sim replays in the recorded order (`ckpt-lab replay`, `new Simulation(…, { replay: replayOf(recording) })`).
   */
  exportSession(): SessionDocument {
    if (this.#scenarioText === undefined) throw new Error('exportSession needs the scenario text: start the driver with options.scenarioText');
    return sessionDocument(this.#scenarioText, this.seed, this.#session.log(this.now));
  }

  /** Resolves with the job's status once it is FINISHED, FAILED or CANCELED. */
  whenTerminal(): Promise<JobStatus> {
    if (this.job.isTerminal) return Promise.resolve(this.job.status);
    return new Promise((resolve) => {
      const off = this.onEvent(() => {
        if (!this.job.isTerminal) return;
        off();
        resolve(this.job.status);
      });
    });
  }

  /** The TaskManager processes now registered with the JobManager. */
  get taskManagers(): Array<{ id: string; host: string }> {
    return this.cluster.taskManagers.flatMap((info) => (this.#pool.has(info.id) ? [{ id: info.id, host: info.host }] : []));
  }

  topology(): Topology {
    const topology = describeTopology(this.graph, [], this.jobMaster.lostHosts);
    topology.subtasks.forEach((s, i) => {
      const info = this.graph.subtasks[i]!;
      s.status = this.#status[i]?.state ?? 'CREATED';
      s.keyGroupRange = isKeyedOperator(this.graph.vertex(s.vertexId).operator) ? { ...info.keyGroupRange } : null;
    });
    return topology;
  }

  /** The subtask figures of the last heartbeat of each TaskManager (current attempt only). */
  metrics(): JobMetrics {
    const subtasks: Array<SubtaskMetrics & { taskIndex: number }> = [];
    for (const tm of this.#pool.all()) if (tm.latest?.attempt === this.attempt) subtasks.push(...tm.latest.subtasks);
    subtasks.sort((a, b) => a.taskIndex - b.taskIndex);
    return jobMetricsOf(subtasks.map(({ taskIndex: _, ...s }) => s), this.now);
  }

  // ---- operations ----

  perform(operation: JobOperation): EngineMessage | undefined {
    let problem: EngineMessage | undefined;
    this.#drive((e) => (problem = this.jobMaster.perform(operation, this.now, e)));
    return problem;
  }

  /** Job ms per wall-clock ms from now on; the TaskManagers get the new clock. */
  setSpeed(factor: number): string | undefined {
    if (!(factor > 0) || !Number.isFinite(factor)) return `speed must be a positive number, got ${factor}`;
    this.#clock = clockFrom(this.now, factor);
    this.#timers.rearm();
    for (const tm of this.#pool.all()) void tm.process.gateway.setClock(this.#clock);
    return undefined;
  }

  /**
   * Stops everything: timers, heartbeats, and every TaskManager process. Resolves (never rejects)
   * once the run let go of its storage: the JobManager's storage requests done and its connection
   * closed, the hosts' local-disk databases and rocksdb working directories deleted; what failed is
   * in `storageErrors`. Only then may the run's checkpoint database be deleted, and a page that
   * keeps a disposed driver's promise keeps nothing else of it: none of the work still running
   * after dispose holds the driver (its JobMaster, sink output and events).
   */
  dispose(): Promise<void> {
    if (this.#disposal) return this.#disposal;
    this.#disposed = true;
    this.#timers.clear();
    this.#pool.dispose();
    const errors = this.#storage.errors;
    const recorded = (what: string) => (error: unknown) => void errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    // RocksDB's instance directories go with the cluster (the workers' access handles are released meanwhile).
    const hosts = hostsDir(this.#storage.spec.databaseName);
    if (this.#localDirStore === 'opfs') this.#deleteLocalDirs(() => removeOpfsDirectoryAndEmptyParents(hosts, 3));
    if (this.#localDirStore === 'indexeddb') this.#deleteLocalDirs(() => deleteMirroredDatabasesUnder(hosts));
    this.#disposal = Promise.all([
      this.#storage.close(),
      this.#sinkStore?.close().catch(recorded('closing the sink output database')),
      (this.#disksDestroyed = destroyLocalDisks(this.#disks.values()).catch(recorded('deleting the hosts\' local disks'))),
      this.#localDirDeletions,
    ]).then(() => undefined);
    return this.#disposal;
  }

  // ---- carrying out the JobMaster's effects ----

  /** Calls the JobMaster and carries out what it asks, in order, those its further calls add too. */
  #drive(call: (effects: JobMasterEffect[]) => void): void {
    if (this.#disposed) return;
    // Storage deletions wait until the outermost call has carried out every effect.
    if (!this.#jobMasterEffects.drive(call)) return;
    const discards = this.#discards;
    this.#discards = [];
    for (const id of discards) this.#storage.discardCheckpoint(id);
  }

  #apply(effect: JobMasterEffect, effects: JobMasterEffect[]): void {
    const jm = this.jobMaster;
    const now = this.now;
    switch (effect.type) {
      case 'trigger-task': {
        const index = this.#taskIndex(effect.subtask);
        void this.#gatewayOfTask(index)?.triggerCheckpoint(effect.attempt, index, effect.barrier);
        return;
      }
      case 'notify-complete':
      case 'notify-aborted':
        // For notify-complete `_metadata` is written (the checkpoint is restorable): a two-phase-commit sink may commit.
        this.#notifyLocalDisks(effect.checkpointId, effect.type === 'notify-complete');
        for (const tm of this.#pool.all()) void tm.process.gateway.notifyCheckpoint(effect.attempt, effect.checkpointId, effect.type === 'notify-complete' ? 'complete' : 'aborted');
        return;
      case 'schedule':
        this.#timers.schedule(effect.at, (at) => this.#drive((e) => jm.onCoordinatorTimer(effect.timer, at, e)));
        return;
      case 'schedule-fault':
        this.#timers.schedule(effect.at, (at) => this.#drive((e) => jm.operate(effect.fault, at, e, 'schedule')));
        return;
      case 'schedule-restart':
        this.#timers.schedule(effect.at, (at) => this.#drive((e) => jm.onRestartDue(effect.attempt, at, e)));
        return;
      case 'finalize-checkpoint':
        return this.#finalize(effect.checkpoint);
      case 'checkpoint-completed':
        return; // its `_metadata` was written at finalize-checkpoint
      case 'discard-checkpoint':
        this.#discards.push(effect.checkpointId);
        return;
      case 'discard-shared-files':
        return this.#storage.discardSharedFiles(effect.names);
      case 'prepare-restart':
        void this.#prepareRestart(effect.attempt, effect.graph, effect.checkpoint);
        return;
      case 'deploy':
        this.#deployed = this.#deploy(now, effect.attempt, effect.graph);
        return;
      case 'cancel-tasks':
        for (const tm of this.#pool.all()) void tm.process.gateway.cancel(effect.attempt);
        this.#status.forEach((s, i) => {
          if (effect.failed.includes(i)) s.state = 'FAILED';
          else if (s.state !== 'FINISHED' && s.state !== 'FAILED') s.state = 'CANCELED';
        });
        return;
      case 'fail-task':
        void this.#gatewayOfTask(effect.task)?.failTask(effect.attempt, effect.task, effect.cause);
        return;
      case 'terminate-task-managers':
        // The processes die and their connections break: the JobMaster hears of it at once.
        for (const id of effect.ids) this.#pool.terminate(id);
        // The disk is gone, and with it the rocksdb working directories of its TaskManagers.
        if (effect.hostLost) this.#deleteHostDirs(effect.hostLost);
        return jm.onTaskManagersLost(effect.ids, effect.cause, now, effects);
      case 'start-task-manager':
        this.#pool.start(effect.info);
        return;
      case 'stall-task-manager':
        void this.#pool.get(effect.id)?.process.gateway.stall();
        return;
      case 'slow-operator':
        for (const tm of this.#pool.all()) void tm.process.gateway.slowOperator(effect.vertex, effect.factor);
        return;
      case 'remote-storage-faults': {
        const faults = { slowFactor: effect.slowFactor, failing: effect.failing };
        this.#storage.setFaults(faults);
        for (const tm of this.#pool.all()) void tm.process.gateway.setRemoteStorageFaults({ ...faults });
        // Once healthy again, what failed deletions left behind is swept away (shared files stay:
        // a pending checkpoint may have uploaded some it has not acknowledged yet).
        if (effect.healed) void this.#storage.enqueue(() => this.#storage.sweepOrphans(false));
        return;
      }
      case 'job-terminated':
        this.#pool.stopHeartbeats();
        if (!effect.retain) this.#storage.discardOnTermination(effect.discard);
        return;
    }
  }

  /** A process crashed or never started: lost (while the job starts, the start fails instead: no relaunch loop). */
  #onLost(id: string, cause: string): void {
    if (this.job.status === 'CREATED') return;
    this.#pool.terminate(id);
    this.#drive((e) => this.jobMaster.onTaskManagersLost([id], `TaskManager ${id} was lost: ${cause}`, this.now, e));
  }

  #gatewayOfTask(index: number) {
    return this.#pool.get(this.graph.subtasks[index]!.slot.taskManager)?.process.gateway;
  }

  /**
   * Flink's finalizeCheckpoint: `_metadata` is written after the JobManager's storage requests
   * queued before it, and only then does the checkpoint complete (or fail with
   * FINALIZE_CHECKPOINT_FAILURE), so a retained checkpoint is always restorable.
   */
  #finalize(checkpoint: CompletedCheckpoint): void {
    const attempt = this.attempt;
    const report = (written: boolean) => {
      // A failover meanwhile aborted it (its discard is queued after this write).
      if (attempt !== this.attempt) return;
      this.#drive((e) => this.jobMaster.onCheckpointFinalized(checkpoint.id, written, this.now, e));
    };
    this.#storage.writeMetadata(checkpoint).then(report, () => report(false));
  }

  #deleteHostDirs(host: string): void {
    const dir = hostDir(this.#storage.spec.databaseName, host);
    if (this.#localDirStore === 'opfs') this.#deleteLocalDirs(() => removeOpfsDirectory(dir));
    if (this.#localDirStore === 'indexeddb') this.#deleteLocalDirs(() => deleteMirroredDatabasesUnder(dir));
  }

  /**
   * Queues a deletion of working directories. It may retry for seconds while terminated workers'
   * access handles are released, so its callbacks hold the errors list only, never the driver: a
   * heap snapshot after a dispose found a removal in OPFS holding the disposed LiveDriver.
   */
  #deleteLocalDirs(remove: () => Promise<void>): void {
    const errors = this.#storage.errors;
    this.#localDirDeletions = this.#localDirDeletions.then(remove).catch((error: unknown) => {
      errors.push(`deleting rocksdb working directories: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  // ---- reports from the TaskManagers ----

  #onReportBatch(tm: TaskManagerConnection, batch: ReportBatch): void {
    this.#onReports(batch.reports, tm);
    const network = batch.network;
    if (network && network.attempt === this.attempt) this.#networkListener?.(tm.info.id, network);
  }

  /** The key names of each TaskManager process's sink output so far, and their outputs in the log (sink-output-columns.ts). */
  readonly #sinkStreams = new WeakMap<TaskManagerConnection, { decoder: SinkOutputDecoder; keys: ColumnKeyStream }>();

  #writeSinkOutput(tm: TaskManagerConnection, records: SinkOutputColumns): void {
    let stream = this.#sinkStreams.get(tm);
    if (!stream) this.#sinkStreams.set(tm, (stream = { decoder: new SinkOutputDecoder(), keys: new ColumnKeyStream() }));
    this.sinkOutput.writeColumns(stream.decoder.follow(records), records.keys, records.values, stream.keys);
  }

  #onReports(reports: readonly TaskManagerReport[], tm: TaskManagerConnection): void {
    for (const report of reports) {
      const current = report.type !== 'sink-output' && report.type !== 'sink-commit' && report.attempt === this.attempt && this.job.status === 'RUNNING';
      // A cancelled attempt's commit is refused, as Kafka fences a producer whose transactional id
      // a newer attempt took over: the new attempt commits the restored checkpoint's pending
      // transactions itself (recoverAndCommit), and any committed before it was reported earlier.
      if (report.type === 'sink-commit' && this.jobMaster.isFencedOff(report.attempt)) continue;
      if (report.type === 'sink-commit') this.#noteCommit(report);
      // A plain sink's writes happened in the external system when they were sent, whatever the attempt.
      if (report.type === 'sink-commit') this.#sinkStore?.commit(report.transactionId, report.records);
      if ((report.type === 'sink-output' || report.type === 'sink-commit') && !this.#recordSinkOutput) this.#countSinkRecords(report);
      else if (report.type === 'sink-output') this.#writeSinkOutput(tm, report.records);
      else if (report.type === 'sink-commit') this.sinkOutput.commit(report.transactionId, sinkRecordsOf(report.records));
      // What a subtask consumed is part of the session whatever became of its attempt.
      else if (report.type === 'delivery-order') this.#session.addPart(report.attempt, report.vertexId, report.subtaskIndex, report);
      // An old attempt's upload is fenced off: nobody will read its files.
      else if (report.type === 'acknowledge-checkpoint' && !current) this.#storage.deleteUnused(report.checkpointId, report.reference, this.jobMaster.completed(report.checkpointId) !== undefined);
      else if (current) this.#onTaskReport(report);
    }
  }

  /** For the fencing checker: a commit the external system took. */
  #noteCommit(report: Extract<TaskManagerReport, { type: 'sink-commit' }>): void {
    const subtask = this.graph.subtasks[report.taskIndex];
    if (!this.jobMaster.watchesTaskMessages || !subtask) return;
    this.jobMaster.noteTaskMessage({ kind: 'commit', time: this.now, attempt: report.attempt, subtask: subtaskName(subtask.id), transactionId: report.transactionId });
  }

  /** Without recording: the records written, a transaction's once however often it is committed (as SinkOutputLog counts). */
  #countSinkRecords(report: Extract<TaskManagerReport, { type: 'sink-output' | 'sink-commit' }>): void {
    if (report.type === 'sink-commit') {
      if (this.#countedCommits.has(report.transactionId)) return;
      this.#countedCommits.add(report.transactionId);
    }
    this.sinkOutput.totalRecords += report.records.keys.length;
  }

  #onTaskReport(report: Exclude<TaskManagerReport, { type: 'sink-output' | 'sink-commit' | 'delivery-order' }>): void {
    const status = this.#status[report.taskIndex];
    const subtask = this.graph.subtasks[report.taskIndex];
    if (!status || !subtask) return;
    const now = this.now;
    switch (report.type) {
      case 'task-state':
        status.state = report.state;
        if (report.finalSnapshot) status.finalSnapshot = decodeTaskStateSnapshot(report.finalSnapshot);
        if (report.state === 'FAILED') this.#drive((e) => this.jobMaster.onTaskFailed(report.attempt, report.taskIndex, report.cause ?? 'unknown cause', now, e));
        else if (report.state === 'FINISHED' && this.#status.every((s) => s.state === 'FINISHED')) this.#drive((e) => this.jobMaster.onAllTasksFinished(now, e));
        return;
      case 'acknowledge-checkpoint': {
        // The snapshot is in remote storage (the TaskManager wrote it); the subtask acknowledges.
        if (!this.coordinator.pendingCheckpoints.some((p) => p.id === report.checkpointId)) {
          // Too late (the checkpoint was aborted and discarded meanwhile): nobody will read these files.
          this.#storage.deleteUnused(report.checkpointId, report.reference, this.jobMaster.completed(report.checkpointId) !== undefined);
          return;
        }
        this.#storage.addReference(report.checkpointId, report.reference);
        const snapshot = decodeTaskStateSnapshot(report.snapshot);
        const metrics = { ...report.metrics, asyncDurationMs: Math.max(0, now - report.metrics.syncEndTime), ackTimestamp: now };
        this.#drive((e) => this.jobMaster.onAcknowledge(report.attempt, report.checkpointId, subtask.id, snapshot, metrics, now, e));
        return;
      }
      case 'local-copy':
        return this.#storeLocalCopy(report, subtask.slot.host);
      case 'decline-checkpoint':
        if (report.cause !== undefined) this.#recordDeclineCause(report.checkpointId, subtask.id, report.cause);
        this.#drive((e) => this.jobMaster.onDecline(report.attempt, report.checkpointId, report.reason, now, e, subtask.id));
        return;
    }
  }

  /** As Flink's JobManager logs it: "Decline checkpoint <id> by task <task>", with the cause. */
  #recordDeclineCause(checkpointId: number, subtask: SubtaskId, cause: string): void {
    const parallelism = this.graph.vertex(subtask.vertexId).parallelism;
    this.declineCauses.push(`Decline checkpoint ${checkpointId} by task ${subtask.vertexId} (${subtask.subtaskIndex + 1}/${parallelism}): ${cause}`);
    if (this.declineCauses.length > MAX_DECLINE_CAUSES) this.declineCauses.shift();
  }

  #storeLocalCopy(report: Extract<TaskManagerReport, { type: 'local-copy' }>, host: string): void {
    // Flink writes no local copy of a savepoint.
    if (this.coordinator.savepoints.some((c) => c.id === report.checkpointId) || this.coordinator.pendingCheckpoints.some((p) => p.id === report.checkpointId && p.isSavepoint)) return;
    // A report sent before the host was lost reaches no disk: it is gone.
    if (this.jobMaster.lostHosts.includes(host)) return;
    const disk = this.#disks.get(host);
    // A persistent disk takes the bytes as they came; the in-memory one (Node) holds the snapshot.
    // Runs it references that the disk holds already are linked (the TaskManager sent only the others).
    const runs = report.runs ? { runs: report.runs, newRuns: report.newRuns ?? [] } : {};
    const key = this.#localKey(report.taskIndex);
    // A full copy's key-group handles, named from the subtask's range (an incremental copy is one handle with its runs).
    const keyGroupHandles = report.runs ? {} : { keyGroupHandles: localKeyGroupsHandlesOfRange(this.graph.subtasks[report.taskIndex]!.keyGroupRange, report.bytes, true) };
    if (disk instanceof PersistentHostLocalDisk) disk.storeEncoded(key, report.checkpointId, report.snapshot, { bytes: report.bytes, checksum: report.checksum, checksumOf: report.checksumOf, ...runs, ...keyGroupHandles });
    else disk?.store(key, report.checkpointId, withSentRuns(decodeTaskStateSnapshot(report.snapshot), report.newRuns), { bytes: report.bytes });
    if (disk && report.runs) this.#resendRunsTheDiskLacks(disk, report.taskIndex, report.runs);
  }

  /**
   * The TaskManager linked runs it sent before; if the disk lost some (a delete-local-copy fault),
   * this copy misses them (a restore from it falls back to remote, `missing`) and the next copy
   * must send them again, as the sim's copies take whatever the disk lacks.
   */
  #resendRunsTheDiskLacks(disk: HostLocalDisk, taskIndex: number, runs: ReadonlyArray<{ name: string }>): void {
    const held = new Set(disk.runsOf(this.#localKey(taskIndex)).map((r) => r.name));
    const lacking = runs.map((r) => r.name).filter((name) => !held.has(name));
    if (lacking.length > 0) void this.#gatewayOfTask(taskIndex)?.resendLocalRuns(this.attempt, taskIndex, lacking);
  }

  // ---- task-local recovery ----

  /** Flink's TaskLocalStateStore key of a subtask of the current graph: its slot, the job, the subtask. */
  #localKey(taskIndex: number): TaskLocalStateStoreKey {
    const s = this.graph.subtasks[taskIndex]!;
    return { allocationId: s.slot.id, jobId: LIVE_JOB_ID, subtask: { ...s.id } };
  }

  #notifyLocalDisks(checkpointId: number, complete: boolean): void {
    this.graph.subtasks.forEach((s, i) => {
      const disk = this.#disks.get(s.slot.host);
      if (complete) disk?.confirmCheckpoint(this.#localKey(i), checkpointId);
      else disk?.abortCheckpoint(this.#localKey(i), checkpointId);
    });
  }

  /** Which subtasks a checkpoint involves now, from the TaskManagers' last reports. */
  #plannedSubtasks() {
    return this.graph.subtasks.map((s, i) => {
      const status = this.#status[i];
      return { id: s.id, running: status?.state === 'RUNNING', finished: status?.state === 'FINISHED', finalSnapshot: status?.finalSnapshot };
    });
  }

  #taskIndex(id: SubtaskId): number {
    return this.graph.subtasks.findIndex((s) => s.id.vertexId === id.vertexId && s.id.subtaskIndex === id.subtaskIndex);
  }

  // ---- restart, deployment and restore ----

  /**
   * Before the new attempt deploys: every TaskManager (replacements too) is up, the uploads of
   * attempts that died are swept away, the hosts' disk listings settle (their writes done), and the
   * checkpoint's `_metadata` is read back from remote storage (after the JobManager's own requests
   * queued before it) and planned from with the listings: no state byte is read here, each
   * TaskManager reads its own subtasks' handles when deployed. The reads do not wait for
   * the replacements to start: a new worker's start and the reads overlap, as a new TaskManager's
   * registration and the JobManager's `_metadata` read do in Flink.
   */
  async #prepareRestart(attempt: number, graph: ExecutionGraph, checkpoint: CompletedCheckpoint | undefined): Promise<void> {
    const started = this.#pool.allReady();
    const previousPlacement = this.jobMaster.placement;
    let result: RestoreReads | { error: string } | undefined;
    await this.#storage
      .enqueue(async () => {
        await this.#storage.sweepOrphans(true);
        // The plan reads the hosts' disk listings, never their copies: once the writes queued so far
        // settled, the listings show what the databases hold (a write that failed is gone from them).
        const localCopiesListed = localDisksSettled(this.#disks.values());
        try {
          if (!checkpoint) return;
          const directory = checkpointDirectory(this.#storage.spec.location, checkpoint.id);
          result = await readForRestore(this.#storage.store, directory, graph, (view) => this.jobMaster.planRestore(graph, view, previousPlacement, 'listed'), localCopiesListed);
        } finally {
          await localCopiesListed;
        }
      })
      .catch((error: unknown) => {
        result = { error: `Failed to restore checkpoint ${checkpoint?.id}: ${error instanceof Error ? error.message : String(error)}` };
      });
    await started;
    if (attempt !== this.attempt || this.#disposed) return;
    if (result && 'error' in result) return this.#drive((e) => this.jobMaster.onRestartFailed(attempt, result && 'error' in result ? result.error : '', this.now, e));
    this.#restoring = result && { attempt, reads: result };
    this.#drive((e) => this.jobMaster.onRestartPrepared(attempt, this.now, e));
  }

  #deployed: Promise<void> = Promise.resolve();

  /**
   * Deploys every subtask of the graph on the TaskManagers of its slots, with a new MessageChannel
   * per channel between two TaskManagers; on a restore each subtask goes with its handles (no
   * state bytes), and its TaskManager reads them and says where each came from.
   */
  async #deploy(now: number, attempt: number, graph: ExecutionGraph): Promise<void> {
    const restoring = this.#restoring?.attempt === attempt ? this.#restoring : undefined;
    this.#restoring = undefined;
    const deployments = buildTaskDeployments(graph, this.scenario, { ...this.config, incremental: this.config.incremental }, attempt, this.jobMaster.executionGraphId);
    this.#status = graph.subtasks.map(() => ({ state: 'DEPLOYING' }));
    const requests = new Map<string, { tasks: TaskToDeploy[]; ports: ChannelPort[] }>();
    const requestFor = (tm: string) => requests.get(tm) ?? requests.set(tm, { tasks: [], ports: [] }).get(tm)!;
    const record: RestoreRecord | undefined = restoring && { time: now, checkpointId: restoring.reads.checkpoint.id, isSavepoint: restoring.reads.checkpoint.isSavepoint, subtasks: [] };
    graph.subtasks.forEach((s, i) => {
      const task: TaskToDeploy = { taskIndex: i, slotId: s.slot.id, deployment: deployments[i]!, slowdown: this.jobMaster.slowdownOf(s.id.vertexId) };
      if (restoring && record) {
        record.subtasks.push(plannedRestore(graph, i, restoring.reads));
        this.#disks.get(s.slot.host)?.pruneAllBut(this.#localKey(i), restoring.reads.checkpoint.id);
        task.restoreHandles = this.#restoreHandles(graph, i, restoring.reads);
      }
      requestFor(s.slot.taskManager).tasks.push(task);
    });
    for (const c of graph.channels) {
      if (c.local) continue;
      const { port1, port2 } = new MessageChannel();
      requestFor(graph.subtask(c.from).slot.taskManager).ports.push({ channelId: c.id, end: 'sender', port: port1 });
      requestFor(graph.subtask(c.to).slot.taskManager).ports.push({ channelId: c.id, end: 'receiver', port: port2 });
    }
    const durations: number[] = [];
    const localBytesRead: number[] = [];
    const remoteRead = { ...(restoring?.reads.remote ?? { bytes: 0, requests: 0 }) };
    const calls = [...requests].map(async ([tmId, { tasks, ports }]) => {
      const tm = this.#pool.get(tmId);
      if (!tm) return;
      const request: DeployRequest = { attempt, clock: this.#clock, config: this.config, tasks, ports };
      const result = await tm.process.gateway.deploy(Comlink.transfer(request, ports.map((p) => p.port)));
      // From the JobManager's call to the subtask running: the TaskManager's reads of its handles and the state's loading.
      for (const i of result.taskIndexes) durations[i] = this.now - now;
      for (const { taskIndex, localBytesRead: local, remoteRead: remote, ...read } of result.restores ?? []) {
        if (record) Object.assign(record.subtasks[taskIndex]!, read);
        localBytesRead[taskIndex] = local;
        remoteRead.bytes += remote.bytes;
        remoteRead.requests += remote.requests;
      }
    });
    try {
      await Promise.all(calls);
    } catch (error) {
      if (attempt !== this.attempt) return;
      this.#drive((e) => this.jobMaster.onRestoreFailed(attempt, [], `Deployment failed: ${error instanceof Error ? error.message : String(error)}`, this.now, e));
      return;
    }
    if (!restoring || !record || attempt !== this.attempt) return;
    this.remoteRestoreReads.push({ checkpointId: restoring.reads.checkpoint.id, ...remoteRead });
    // A subtask's restore took its deployment (its TaskManager's remote reads, measured, among it) plus the modelled read of its host's disk.
    const { local_latency_ms: latency, local_bandwidth_mb_per_s: bandwidth } = this.scenario.costs;
    record.subtasks.forEach((s, i) => (s.durationMs = (durations[i] ?? 0) + (localBytesRead[i] ? transferMs(localBytesRead[i], latency, bandwidth) : 0)));
    this.jobMaster.onRestored(attempt, record, restoring.reads.checkpoint);
  }

  /**
   * What subtask `i`'s deployment names of its state, as its plan has it: the checkpoint, the
   * references `_metadata` holds for its share, and the local alternative on its host's disk (the
   * copy's path, and the key groups of the handles that serve when only some do); never bytes.
   */
  #restoreHandles(graph: ExecutionGraph, i: number, reads: RestoreReads): NonNullable<TaskToDeploy['restoreHandles']> {
    const { checkpoint, metadata } = reads;
    const decision = reads.plan.decisions[i]!;
    const handles = { checkpointId: checkpoint.id, directory: checkpoint.externalPath, parallelism: checkpoint.parallelism, target: assignmentTarget(graph, i), remote: shareMetadata(metadata, graph, i) };
    // Only a disk in a database can be read by a TaskManager; without one (Node without IndexedDB) the copies are the JobManager's memory.
    const onDisk = this.#disks.get(graph.subtasks[i]!.slot.host) instanceof PersistentHostLocalDisk;
    const path = localCopyPath(this.#localKey(i), checkpoint.id);
    if (decision.source === 'local' && onDisk) return { ...handles, local: { path } };
    if (decision.source === 'remote' && decision.localPart && onDisk) return { ...handles, local: { path, keyGroupRanges: decision.localPart.keyGroupRanges, reason: decision.reason } };
    return { ...handles, fallbackReason: decision.source === 'failed' ? decision.localReason : decision.source === 'remote' ? decision.reason : 'missing' };
  }
}

/** Subtask `i`'s restore as planned, until its TaskManager says what it read: the report's entry. */
function plannedRestore(graph: ExecutionGraph, i: number, reads: RestoreReads): RestoreRecord['subtasks'][number] {
  const decision = reads.plan.decisions[i]!;
  const source = decision.source === 'local' ? ('local' as const) : ('remote' as const);
  const reason = decision.source === 'local' ? {} : { reason: decision.source === 'failed' ? decision.localReason : decision.reason };
  const bytes = decision.source === 'failed' ? 0 : decision.bytes;
  return { ...graph.subtasks[i]!.id, source, ...reason, bytes, remoteBytes: source === 'local' ? 0 : bytes, durationMs: 0, handles: decision.handles };
}

/** A local copy as a TaskManager sent it, with the contents of the runs it sent put back into its shared files. */
function withSentRuns(snapshot: TaskStateSnapshot, sent: ReadonlyArray<{ name: string; encoded: Uint8Array }> | undefined): TaskStateSnapshot {
  if (!snapshot.sharedFiles || !sent) return snapshot;
  const contents = new Map(sent.map((r) => [r.name, decodeSharedFile(r.encoded).contents]));
  return { ...snapshot, sharedFiles: snapshot.sharedFiles.map((f) => (contents.has(f.name) ? { ...f, contents: contents.get(f.name) } : f)) };
}
