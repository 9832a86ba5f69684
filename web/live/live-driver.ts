/**
 * The `live` driver: the JobManager on the main thread, with one Web Worker per TaskManager.
 *
 * It runs the same engine as the sim driver (ExecutionGraph, buildTaskDeployments, the
 * CheckpointCoordinator, the restart strategy, state assignment) and reports the same events
 * (engine/run/job-events.ts) and statistics (`coordinator.stats`). What differs is the runtime:
 * - time is the wall clock, scaled by a speed factor (JobClock, shared with the TaskManagers);
 * - tasks run in the workers (workers/task-manager.ts), which talk to each other directly over a
 *   MessageChannel per remote channel; the JobManager only deploys, triggers, notifies, cancels
 *   and listens to reports (workers/protocol.ts);
 * - checkpoint storage is real: each TaskManager uploads its snapshots (snapshot-codec bytes) to an
 *   IndexedDB database that behaves like a remote object store (CostModelledStorage, real sleeps)
 *   and acknowledges once the write succeeded; once all acknowledged, the JobManager writes
 *   `_metadata`, and only then does the checkpoint complete, subsume older ones and tell the tasks
 *   (a refused write fails it with FINALIZE_CHECKPOINT_FAILURE, as in Flink), so every retained
 *   checkpoint can be restored and a two-phase-commit sink commits only what can be. It deletes
 *   discarded checkpoints and files nobody will read, and restores by reading `_metadata` back,
 *   then only the state files of subtasks that cannot restore from their local copy
 *   (readCompletedCheckpoint with `select`). The JobManager holds state handles only
 *   (workers/state-handle.ts: sizes, paths, shared file names), never keyed or channel state;
 * - task-local recovery: each host's local disk is a HostLocalDisk kept on the main thread (it
 *   outlives the worker processes of the host, as a disk does; lose-host wipes it). A TaskManager
 *   reports a local copy of keyed state once written; a replacement worker (same id, same slot,
 *   same host) restores a subtask from it when decideSubtaskRestore says so. The copy's bytes
 *   go to the host's database as the TaskManager encoded them; memory keeps their handles, and a
 *   restore reads them back (and lets go of them once deployed);
 * - killing a TaskManager terminates its worker; the JobManager notices when its heartbeats stop
 *   (heartbeat.timeout), starts a new worker on the same host, and fails over: every subtask is
 *   cancelled and, after the restart strategy's backoff, redeployed from the latest completed
 *   checkpoint. A stalled TaskManager is alive but silent: the same timeout finds it, and its
 *   worker is terminated like a dead one;
 * - remote storage faults (slow, failing) reach the JobManager's connection and every worker's;
 * - rescale and restart from a savepoint redeploy the job from storage (checks shared with the
 *   sim driver in engine/job/restart-request.ts);
 * - with `state.backend.type: rocksdb` each worker loads wa-sqlite and hosts the LSM backend, its
 *   working database in its host's OPFS directory (state.backend.rocksdb.localdir, see
 *   workers/storage/rocksdb-local-dir.ts), which lose-host and dispose delete;
 *   incremental checkpoints share SST runs in storage, which the JobManager deletes once the
 *   SharedStateRegistry lets go of them.
 */
import * as Comlink from 'comlink';
import type { CoordinatorEffect, SubtaskId, TaskStateSnapshot } from '../../engine/protocol.ts';
import type { FaultSpec, Scenario } from '../../engine/scenario/scenario-types.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import type { FlinkConfig } from '../../engine/config/flink-config.ts';
import { CheckpointCoordinator, type CheckpointPlan, type TriggerKind } from '../../engine/checkpoint/checkpoint-coordinator.ts';
import { subtaskKey, type CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import { assignSubtaskState, type SharedFileReader, type SubtaskAssignment } from '../../engine/checkpoint/state-assignment.ts';
import { ClusterTopology, type TaskManagerInfo } from '../../engine/job/cluster-topology.ts';
import { ExecutionGraph } from '../../engine/job/execution-graph.ts';
import { faultTargetProblem } from '../../engine/job/fault-target.ts';
import { SessionRecorder } from '../../engine/replay/session-recorder.ts';
import { sessionDocument, type SessionDocument } from '../../engine/replay/session-document.ts';
import { planRescale, planSavepointRestart, type RestartPlan, type RestartRequestContext } from '../../engine/job/restart-request.ts';
import { JobLifecycle, type JobStatus } from '../../engine/job/job-status.ts';
import { createRestartBackoffTimeStrategy, type RestartBackoffTimeStrategy } from '../../engine/job/restart-backoff-time-strategy.ts';
import { buildTaskDeployments } from '../../engine/job/task-deployments.ts';
import { describeTopology, type Topology } from '../../engine/job/topology.ts';
import type { JobMetrics, SubtaskMetrics } from '../../engine/metrics/metrics-sampler.ts';
import { isKeyedOperator } from '../../engine/operators/operator-factory.ts';
import { checkpointStatusEvent, type JobEvent, type RestoreRecord } from '../../engine/run/job-events.ts';
import { planCheckpoint } from '../../engine/checkpoint/checkpoint-plan.ts';
import { SinkOutputLog } from '../../engine/run/sink-output-log.ts';
import { sinkRecordsOf } from '../../workers/sink-record-columns.ts';
import { RandomSource } from '../../engine/sim/random-source.ts';
import type { ExecutionState } from '../../engine/task/task-lifecycle.ts';
import { clockFrom, jobTimeAt, wallNow } from '../../workers/job-clock.ts';
import { sleepJobTime } from '../../workers/job-time-sleep.ts';
import type { ChannelPort, CheckpointStorageSpec, DeployRequest, HeartbeatPayload, JobClock, NetworkSnapshot, RemoteStorageFaults, ReportBatch, TaskManagerReport, TaskToDeploy } from '../../workers/protocol.ts';
import { jobMetricsOf } from './job-metrics.ts';
import { JobTimers } from './job-timers.ts';
import { launchWorkerTaskManager, type TaskManagerLauncher, type TaskManagerProcess } from './task-manager-process.ts';
import {
  checkpointPlacement,
  metadataFile,
  readCompletedCheckpoint,
  readSharedFile,
  sharedFileLocation,
  taskSnapshotFiles,
  type CheckpointMetadata,
  type SubtaskStateReference,
} from '../../engine/storage/checkpoint-files.ts';
import { checkpointDirectory, jobDirectory, parseJobPath, sharedDirectory, type CheckpointLocation } from '../../engine/storage/checkpoint-layout.ts';
import { retainOnTermination, type CheckpointFile, type CheckpointStorage } from '../../engine/storage/checkpoint-storage.ts';
import { CostModelledStorage } from '../../engine/storage/cost-modelled-storage.ts';
import { decodeSharedFile, decodeTaskStateSnapshot, encodeValue } from '../../engine/storage/snapshot-codec.ts';
import { HostLocalDisk, type LocalDiskListing, type TaskLocalStateStoreKey } from '../../engine/recovery/host-local-disk.ts';
import { PersistentHostLocalDisk } from '../../engine/recovery/persistent-host-local-disk.ts';
import { faultEvent, type FaultDetail } from '../../engine/run/fault-event.ts';
import { placeOnPreviousSlots } from '../../engine/recovery/slot-selection.ts';
import { decideSubtaskRestore, type LocalRecoveryFallbackReason, type SlotLocation } from '../../engine/recovery/local-recovery.ts';
import { IndexedDbCheckpointStorage, liveCheckpointDatabaseName, newLiveRunId } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { destroyLocalDisks, openHostLocalDisk, releaseLocalDiskContents, reloadLocalDisks } from '../../workers/storage/indexeddb-local-disk-store.ts';
import { hostDir, hostsDir, removeOpfsDirectory, removeOpfsDirectoryAndEmptyParents, rocksDbLocalDir } from '../../workers/storage/rocksdb-local-dir.ts';

/**
 * Heartbeats run on the wall clock at this fraction of the configured heartbeat.interval and
 * heartbeat.timeout: Flink's defaults (10 s, 50 s) become 500 ms and 2.5 s, so a killed
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
   * Origin Private File System (state.backend.rocksdb.localdir); `memory`, in the process (Node has
   * no OPFS: its in-process TaskManagers use MemoryVFS). Default `opfs`; a browser without OPFS
   * fails the deployment saying so.
   */
  rocksdbLocalDirs?: 'opfs' | 'memory';
}

/** The job id in checkpoint paths and local-state keys. */
const LIVE_JOB_ID = 'live-job';

/** The JobManager's view of one registered TaskManager process. */
interface TaskManagerConnection {
  readonly info: TaskManagerInfo;
  readonly process: TaskManagerProcess;
  readonly reportPort: MessagePort;
  /** resolves once the process registered; rejects when it crashed or failed to register first */
  readonly ready: Promise<void>;
  /** wall-clock ms of the last heartbeat answer (or of the start of monitoring); undefined before registration */
  lastHeartbeat: number | undefined;
  /** heartbeat requests sent since the last answer */
  unanswered: number;
  latest: HeartbeatPayload | undefined;
}

/** Where one subtask's restored state came from. */
type RestoreSource =
  | { source: 'local'; bytes: number; remoteBytes: number; modelledMs: number }
  | { source: 'remote'; reason: LocalRecoveryFallbackReason | undefined; bytes: number; modelledMs: number };

/**
 * How one subtask of a restore gets its state, decided before anything is read: from its host's
 * local copy, or from remote storage (with the reason the local copy could not serve).
 */
type PlannedRestore =
  | { source: 'local'; snapshot: TaskStateSnapshot; bytes: number; modelledMs: number }
  | { source: 'remote'; reason: LocalRecoveryFallbackReason | undefined };

/** A restart's restore: the checkpoint as read back (the remote subtasks' state), and the plan. */
interface Restoring {
  checkpoint: CompletedCheckpoint;
  /** per subtask index of the new graph */
  planned: Map<number, PlannedRestore>;
  /** how long reading `_metadata` and the remote state took (measured) */
  remoteReadMs: number;
  sharedFile: SharedFileReader;
}

/** What the JobManager knows of one subtask of the current attempt, from the reports. */
interface SubtaskStatus {
  state: ExecutionState;
  finalSnapshot?: TaskStateSnapshot;
}

export class LiveDriver {
  /** the scenario the job runs now (a rescale changes a vertex's parallelism) */
  scenario: Scenario;
  readonly config: FlinkConfig;
  readonly cluster: ClusterTopology;
  graph: ExecutionGraph;
  readonly sinkOutput = new SinkOutputLog();
  readonly job = new JobLifecycle();
  readonly coordinator: CheckpointCoordinator;
  readonly seed: number;
  readonly restores: RestoreRecord[] = [];
  /** per restore, what the JobManager read back from remote storage (`_metadata` and the state files of subtasks that restored remotely) */
  readonly remoteRestoreReads: Array<{ checkpointId: number; bytes: number; requests: number }> = [];
  readonly events: JobEvent[] = [];
  /** execution attempt of the job: 0, then +1 per restart */
  attempt = 0;
  restarts = 0;
  failureCause: string | undefined;
  /** Web Workers (TaskManager processes) started so far, replacements included */
  workersLaunched = 0;
  readonly #heartbeatIntervalMs: number;
  readonly #heartbeatTimeoutMs: number;
  readonly #launch: TaskManagerLauncher;
  readonly #restartStrategy: RestartBackoffTimeStrategy;
  readonly #timers: JobTimers;
  readonly #listeners = new Set<(event: JobEvent) => void>();
  #networkListener: ((taskManagerId: string, snapshot: NetworkSnapshot) => void) | undefined;
  readonly #slowdown = new Map<string, number>();
  readonly #taskManagers = new Map<string, TaskManagerConnection>();
  /** hosts lost with `loseHost`: their TaskManagers come back elsewhere */
  readonly #lostHosts = new Set<string>();
  #clock: JobClock;
  #status: SubtaskStatus[] = [];
  #heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  #heartbeatSeq = 0;
  #disposed = false;
  readonly #storageSpec: CheckpointStorageSpec;
  readonly #recordSinkOutput: boolean;
  /** transactions counted when the sink output is not recorded */
  readonly #countedCommits = new Set<string>();
  /** the JobManager's connection to remote checkpoint storage (opened at boot) */
  #remote: IndexedDbCheckpointStorage | undefined;
  #storage: CostModelledStorage | undefined;
  /** the JobManager's storage requests, one after the other (metadata, deletions, restore reads) */
  #storageQueue: Promise<unknown> = Promise.resolve();
  #storageErrors: string[] = [];
  /** state handles of acknowledged uploads, per checkpoint: what `_metadata` refers to */
  readonly #references = new Map<number, Map<string, SubtaskStateReference>>();
  /** one local disk per host (task-local recovery); it survives its TaskManagers' processes */
  readonly #disks = new Map<string, HostLocalDisk>();
  /** where each subtask (`vertex#index`) ran in the previous attempt */
  #placement = new Map<string, SlotLocation>();
  /** set by rescale() and restartFromSavepoint(): the next restart restores this instead of the latest checkpoint */
  #restoreFrom: CompletedCheckpoint | undefined;
  /** every vertex's max parallelism, kept over a rescale */
  #keepMaxParallelism: Record<string, number> = {};
  /** the remote store's faults, seen by the JobManager and every TaskManager (new ones too) */
  readonly #remoteFaults: RemoteStorageFaults = { slowFactor: 1, failing: false };

  /** the delivery order the TaskManagers report, checkpoint triggers, faults and restores: what exportSession() exports */
  readonly #session = new SessionRecorder();
  readonly #scenarioText: string | undefined;
  /** the rocksdb working databases are in OPFS directories of the hosts (deleted on lose-host and dispose) */
  readonly #localDirsOnOpfs: boolean;
  /** deletions of hosts' rocksdb working directories, one after the other */
  #localDirDeletions: Promise<void> = Promise.resolve();

  private constructor(scenario: Scenario, options: LiveDriverOptions) {
    this.#scenarioText = options.scenarioText;
    this.#listeners.add((event) => this.#session.onEvent(event, this.attempt));
    this.seed = options.seed ?? scenario.seed;
    this.scenario = { ...scenario, seed: this.seed };
    this.config = readConfig(scenario.config);
    this.cluster = new ClusterTopology(scenario.cluster);
    this.graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster);
    const scale = options.heartbeatScale ?? DEFAULT_HEARTBEAT_SCALE;
    this.#heartbeatIntervalMs = this.config.heartbeatInterval * scale;
    this.#heartbeatTimeoutMs = this.config.heartbeatTimeout * scale;
    this.#launch = options.launchTaskManager ?? launchWorkerTaskManager;
    this.#localDirsOnOpfs = this.config.stateBackend === 'rocksdb' && (options.rocksdbLocalDirs ?? 'opfs') === 'opfs';
    this.#recordSinkOutput = options.recordSinkOutput ?? true;
    this.#clock = clockFrom(0, options.speed ?? 1);
    this.#timers = new JobTimers(() => this.#clock);
    const random = new RandomSource(this.seed);
    this.#restartStrategy = createRestartBackoffTimeStrategy(this.config.restartStrategy, this.config.checkpointInterval !== undefined, random.fork('restart'));
    this.coordinator = new CheckpointCoordinator(this.config, () => this.#plan(), random.fork('coordinator'), this.#vertexParallelism(), { finalizeAsync: true });
    const costs = this.scenario.costs;
    const location: CheckpointLocation = { checkpointDir: this.config.checkpointDir ?? 'indexeddb://checkpoints', jobId: LIVE_JOB_ID };
    this.#storageSpec = {
      databaseName: options.checkpointDatabase ?? liveCheckpointDatabaseName(newLiveRunId()),
      location,
      remote: { latencyMs: costs.remote_latency_ms, bandwidthMbPerS: costs.remote_bandwidth_mb_per_s },
      local: { latencyMs: costs.local_latency_ms, bandwidthMbPerS: costs.local_bandwidth_mb_per_s },
      localBackupEnabled: this.config.localBackupEnabled,
    };
    for (const host of this.cluster.hosts) this.#disks.set(host, openHostLocalDisk(host, this.#storageSpec.databaseName, { contentsInMemory: false }));
  }

  /** The database of remote checkpoint storage and the job's place in it. */
  get checkpointStorageSpec(): CheckpointStorageSpec {
    return this.#storageSpec;
  }

  /** Remote checkpoint storage as the JobManager sees it (the IndexedDB store, without the cost model). */
  get checkpointStorage(): CheckpointStorage | undefined {
    return this.#remote;
  }

  /** Messages of storage requests of the JobManager that failed (writing `_metadata`, deleting). */
  get storageErrors(): readonly string[] {
    return this.#storageErrors;
  }

  /**
   * Resolves once the JobManager's storage requests queued so far are done; once the job ended,
   * also those they queued in turn (nothing new comes then). A running job queues requests all
   * the time, so waiting for the queue to run dry could wait for ever.
   */
  async storageIdle(): Promise<void> {
    for (;;) {
      const queue = this.#storageQueue;
      await queue.catch(() => {});
      if (queue === this.#storageQueue || !this.job.isTerminal) return;
    }
  }

  /**
   * Runs `request` (a read of storage, for a check) after the JobManager's storage requests queued
   * so far and before any queued later: storage stays as the coordinator's state is now, since a
   * checkpoint completing meanwhile writes its `_metadata`, and discards what it subsumed, after it.
   */
  inStorageQueue<T>(request: () => Promise<T>): Promise<T> {
    return this.#enqueue(request);
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
    return [...this.#taskManagers.values()].flatMap((tm) => {
      const db = tm.latest?.attempt === this.attempt ? tm.latest.rocksdbWorkingDb : undefined;
      return tm.info.host === host && db ? [{ taskManager: tm.info.id, path: db.path, bytes: db.bytes }] : [];
    });
  }

  /** Resolves once the hosts' rocksdb working directories deleted so far (lose-host, dispose) are gone. */
  localDirsDeleted(): Promise<void> {
    return this.#localDirDeletions;
  }

  /** Deletes an OPFS directory of rocksdb working databases after those queued before; a failure is a storage error. */
  #deleteLocalDirs(remove: () => Promise<void>): void {
    this.#localDirDeletions = this.#localDirDeletions.then(remove).catch((error: unknown) => {
      this.#storageErrors.push(`deleting rocksdb working directories: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Runs a storage request after the ones before it. */
  #enqueue<T>(request: () => Promise<T>): Promise<T> {
    // Once disposed, the storage closes after what was queued before: nothing new may start on it.
    if (this.#disposed) {
      const refused = Promise.reject(new Error('the live run was disposed: its checkpoint storage takes no more requests'));
      refused.catch(() => {});
      return refused;
    }
    const next = this.#storageQueue.catch(() => {}).then(request);
    // Most callers fire and forget: a request that throws (rather than returning its error) is recorded, never unhandled.
    next.catch((error: unknown) => this.#storageErrors.push(error instanceof Error ? error.message : String(error)));
    this.#storageQueue = next;
    return next;
  }

  /**
   * Starts a TaskManager process per TaskManager of the scenario's cluster, deploys the job on
   * them and starts checkpointing; resolves once every subtask is deployed.
   */
  static async start(scenario: Scenario, options: LiveDriverOptions = {}): Promise<LiveDriver> {
    const driver = new LiveDriver(scenario, options);
    try {
      await driver.#boot(options.speed ?? 1);
    } catch (error) {
      driver.dispose();
      throw error;
    }
    return driver;
  }

  async #boot(speed: number): Promise<void> {
    this.#remote = await IndexedDbCheckpointStorage.open({ databaseName: this.#storageSpec.databaseName, location: this.#storageSpec.location });
    this.#storage = new CostModelledStorage(this.#remote, this.#storageSpec.remote, (ms) => sleepJobTime(ms, () => this.#clock));
    for (const info of this.cluster.taskManagers) this.#connect(info);
    await Promise.all([...this.#taskManagers.values()].map((tm) => tm.ready));
    this.#clock = clockFrom(0, speed);
    const deployed = this.#deploy(0, undefined);
    this.#setStatus('START', 0);
    this.#coordinate(0, (e) => this.coordinator.startScheduler(0, e));
    for (const fault of this.scenario.faults) this.#timers.schedule(fault.at_ms, () => void this.#applyFault(fault));
    // Monitoring starts now for all: the first to register must not time out waiting for the last.
    for (const tm of this.#taskManagers.values()) tm.lastHeartbeat = wallNow();
    this.#heartbeatTimer = setInterval(() => this.#heartbeat(), this.#heartbeatIntervalMs);
    await deployed;
  }

  /** Job time, ms since the job started (wall clock × speed). */
  get now(): number {
    return jobTimeAt(this.#clock, wallNow());
  }

  get jobStatus(): JobStatus {
    return this.job.status;
  }

  get speed(): number {
    return this.#clock.speed;
  }

  /** Subscribes to job events; returns the unsubscribe function. */
  /** The channel view's one reader of the TaskManagers' network snapshots (of the current attempt). */
  onNetworkSnapshot(listener: ((taskManagerId: string, snapshot: NetworkSnapshot) => void) | undefined): void {
    this.#networkListener = listener;
  }

  onEvent(listener: (event: JobEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The session so far as a JSON-able document (version, scenario text, seed, recording) that the
   * sim replays in the recorded order (`ckpt-lab replay`, `new Simulation(…, { replay })`).
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

  /** The TaskManager processes now registered with the JobManager (a killed one until it is noticed). */
  get taskManagers(): Array<{ id: string; host: string }> {
    return this.cluster.taskManagers.flatMap((info) => (this.#taskManagers.has(info.id) ? [{ id: info.id, host: info.host }] : []));
  }

  topology(): Topology {
    const topology = describeTopology(this.graph, []);
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
    for (const tm of this.#taskManagers.values()) {
      if (tm.latest?.attempt === this.attempt) subtasks.push(...tm.latest.subtasks);
    }
    subtasks.sort((a, b) => a.taskIndex - b.taskIndex);
    return jobMetricsOf(subtasks.map(({ taskIndex: _, ...s }) => s), this.now);
  }

  // ---- operations of the Playground API; each returns an error message or undefined ----

  failTask(vertexId: string, subtaskIndex: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'fail-task', vertex: vertexId, subtask: subtaskIndex });
  }

  killTaskManager(taskManager: string): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'kill-task-manager', task_manager: taskManager });
  }

  /** Remote storage's fault state: a slow-remote-storage factor (1: none) and whether it fails. */
  get remoteStorageFaults(): { slowFactor: number; failing: boolean } {
    return { ...this.#remoteFaults };
  }

  loseHost(host: string): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'lose-host', host });
  }

  slowOperator(vertexId: string, factor: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'slow-operator', vertex: vertexId, factor });
  }

  slowRemoteStorage(factor: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'slow-remote-storage', factor });
  }

  failRemoteStorage(failing: boolean): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: failing ? 'fail-remote-storage' : 'heal-remote-storage' });
  }

  stallTaskManager(taskManager: string): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'stall-task-manager', task_manager: taskManager });
  }

  corruptLocalCopy(host: string, vertexId: string, subtaskIndex: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'corrupt-local-copy', host, vertex: vertexId, subtask: subtaskIndex });
  }

  deleteLocalCopy(host: string, vertexId: string, subtaskIndex: number): string | undefined {
    return this.#applyFault({ at_ms: this.now, type: 'delete-local-copy', host, vertex: vertexId, subtask: subtaskIndex });
  }

  /** Restarts from the latest completed checkpoint with another parallelism for one vertex (as Simulation.rescale). */
  rescale(vertexId: string, parallelism: number): string | undefined {
    return this.#restartWith(planRescale(this.#restartContext(), vertexId, parallelism));
  }

  /** Restarts the job from a savepoint, the newest when no id is given (as Simulation.restartFromSavepoint). */
  restartFromSavepoint(savepointId?: number): string | undefined {
    return this.#restartWith(planSavepointRestart(this.#restartContext(), savepointId));
  }

  #restartContext(): RestartRequestContext {
    return { scenario: this.scenario, graph: this.graph, cluster: this.cluster, coordinator: this.coordinator, jobStatus: this.job.status };
  }

  /** Carries out an accepted restart request: the job fails over (not counted as a failure) and restores the plan's state. */
  #restartWith(plan: RestartPlan | { problem: string }): string | undefined {
    if ('problem' in plan) return plan.problem;
    if (plan.rescaled) {
      this.#keepMaxParallelism = plan.rescaled.keepMaxParallelism;
      this.scenario = plan.rescaled.scenario;
    }
    this.#restoreFrom = plan.restoreFrom;
    this.#emit(faultEvent(this.now, plan.fault));
    this.#failover(plan.cause, [], this.now, false);
    return undefined;
  }

  triggerCheckpoint(kind: TriggerKind = 'checkpoint'): string | undefined {
    if (this.job.status !== 'RUNNING') return `cannot trigger a ${kind} while the job is ${this.job.status}`;
    const now = this.now;
    this.#coordinate(now, (e) => this.coordinator.trigger(kind, now, e));
    return undefined;
  }

  /** Job ms per wall-clock ms from now on; the TaskManagers get the new clock. */
  setSpeed(factor: number): string | undefined {
    if (!(factor > 0) || !Number.isFinite(factor)) return `speed must be a positive number, got ${factor}`;
    this.#clock = clockFrom(this.now, factor);
    this.#timers.rearm();
    for (const tm of this.#taskManagers.values()) void tm.process.gateway.setClock(this.#clock);
    return undefined;
  }

  /** Cancels the job (RUNNING → CANCELLING → CANCELED); the TaskManagers stay up until dispose(). */
  cancel(): string | undefined {
    if (this.job.isTerminal) return `the job is already ${this.job.status}`;
    const now = this.now;
    this.#emit(faultEvent(now, { kind: 'cancel-job' }));
    this.#coordinate(now, (e) => this.coordinator.shutdown(now, e));
    this.#cancelTasks();
    this.attempt++;
    this.#setStatus('CANCEL', now);
    this.#setStatus('CANCELED', now);
    this.#stopHeartbeats();
    this.#discardOnTermination();
    return undefined;
  }

  /** Stops everything: timers, heartbeats, and every TaskManager process. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#stopHeartbeats();
    this.#timers.clear();
    for (const tm of this.#taskManagers.values()) this.#closeConnection(tm);
    this.#taskManagers.clear();
    const remote = this.#remote;
    if (remote) void this.storageIdle().then(() => remote.close());
    void destroyLocalDisks(this.#disks.values());
    // RocksDB's instance directories go with the cluster (the workers' access handles are released meanwhile).
    if (this.#localDirsOnOpfs) this.#deleteLocalDirs(() => removeOpfsDirectoryAndEmptyParents(hostsDir(this.#storageSpec.databaseName), 3));
  }

  // ---- TaskManager processes and heartbeats ----

  /**
   * Starts the process of a TaskManager and registers it (Flink: the ResourceManager gives the
   * JobManager a new TaskExecutor). `ready` rejects when the process crashes or fails to register
   * before it registered; a crash at any time makes the TaskManager lost.
   */
  #connect(info: TaskManagerInfo): TaskManagerConnection {
    const process = this.#launch(`TaskManager ${info.id} (${info.host})`);
    this.workersLaunched++;
    const reports = new MessageChannel();
    let crash: (message: string) => void = () => {};
    const crashed = new Promise<never>((_, reject) => (crash = (message) => reject(new Error(message))));
    // Each process has its own incarnation directory: it never opens files a killed predecessor may still hold.
    const localDir = this.#localDirsOnOpfs ? { rocksdbLocalDir: rocksDbLocalDir(this.#storageSpec.databaseName, info.host, info.id, this.workersLaunched) } : {};
    const request = { taskManagerId: info.id, host: info.host, reportPort: reports.port2, storage: { ...this.#storageSpec, faults: { ...this.#remoteFaults } }, ...localDir };
    const registered = process.gateway.register(Comlink.transfer(request, [reports.port2]));
    const ready = Promise.race([registered, crashed]).then(() => undefined);
    const tm: TaskManagerConnection = { info, process, reportPort: reports.port1, ready, lastHeartbeat: undefined, unanswered: 0, latest: undefined };
    ready.then(
      () => {
        tm.lastHeartbeat ??= wallNow();
      },
      (error: unknown) => this.#onTaskManagerLost(tm, `TaskManager ${info.id} on ${info.host} did not start: ${error instanceof Error ? error.message : String(error)}`),
    );
    reports.port1.onmessage = (event: MessageEvent<ReportBatch>) => {
      if (this.#taskManagers.get(info.id) !== tm) return;
      this.#onReports(event.data.reports);
      const network = event.data.network;
      if (network && network.attempt === this.attempt) this.#networkListener?.(info.id, network);
    };
    process.onCrash((message) => {
      crash(message);
      this.#onTaskManagerLost(tm, `TaskManager ${info.id} on ${info.host} crashed: ${message}`);
    });
    this.#taskManagers.set(info.id, tm);
    return tm;
  }

  #closeConnection(tm: TaskManagerConnection): void {
    tm.reportPort.onmessage = null;
    tm.reportPort.close();
    tm.process.terminate();
  }

  /**
   * Flink's HeartbeatManager: ask every TaskManager; one silent for heartbeat.timeout is lost.
   * "Silent" also needs the requests it left unanswered to cover the timeout: after the main
   * thread itself stalled, a timer can run before the answers queued meanwhile are read, and a
   * live TaskManager must not be declared lost for that.
   */
  #heartbeat(): void {
    const seq = ++this.#heartbeatSeq;
    const wall = wallNow();
    const requestsPerTimeout = Math.max(2, Math.ceil(this.#heartbeatTimeoutMs / this.#heartbeatIntervalMs));
    for (const tm of [...this.#taskManagers.values()]) {
      if (tm.lastHeartbeat === undefined) continue;
      if (wall - tm.lastHeartbeat > this.#heartbeatTimeoutMs && tm.unanswered >= requestsPerTimeout) {
        this.#onTaskManagerLost(tm, `Heartbeat of TaskManager with id ${tm.info.id} timed out.`);
        continue;
      }
      tm.unanswered++;
      tm.process.gateway.heartbeat(seq).then(
        (payload) => {
          tm.lastHeartbeat = wallNow();
          tm.unanswered = 0;
          tm.latest = payload;
        },
        () => {},
      );
    }
  }

  #stopHeartbeats(): void {
    if (this.#heartbeatTimer !== undefined) clearInterval(this.#heartbeatTimer);
    this.#heartbeatTimer = undefined;
  }

  /**
   * A TaskManager is gone: a new process takes its place (on the same host, unless the host was
   * lost), and the subtasks it ran fail, which fails the job over (even when it ran none: the
   * job is one failover region, as in the sim driver).
   */
  #onTaskManagerLost(tm: TaskManagerConnection, cause: string): void {
    // While the job starts, a TaskManager that cannot start fails the start instead (no relaunch loop).
    if (this.#taskManagers.get(tm.info.id) !== tm || this.#disposed || this.job.status === 'CREATED') return;
    this.#taskManagers.delete(tm.info.id);
    this.#closeConnection(tm);
    const failed = this.#tasksOn(tm.info.id);
    // A crashed TaskManager comes back on its host with the same resource ID (Flink's FLIP-198/201,
    // as in the sim driver); one whose host was lost gets a new ID on another host.
    const info = this.#lostHosts.has(tm.info.host) ? this.cluster.replaceTaskManager(tm.info.id, this.#hostFor(tm.info.host)) : tm.info;
    this.#connect(info);
    this.#failover(`TaskManager ${tm.info.id} on ${tm.info.host} was lost: ${cause}`, failed, this.now, true);
  }

  #hostFor(host: string): string {
    if (!this.#lostHosts.has(host)) return host;
    const others = this.cluster.hosts.filter((h) => !this.#lostHosts.has(h));
    if (others.length === 0) return host;
    const load = (h: string) => this.cluster.taskManagers.filter((t) => t.host === h).length;
    return others.reduce((best, h) => (load(h) < load(best) ? h : best));
  }

  #tasksOn(taskManager: string): number[] {
    return this.graph.subtasks.flatMap((s, i) => (s.slot.taskManager === taskManager ? [i] : []));
  }

  // ---- reports from the TaskManagers ----

  #onReports(reports: readonly TaskManagerReport[]): void {
    for (const report of reports) {
      // The sink's writes happened in the external system when they were sent, whatever the attempt.
      if ((report.type === 'sink-output' || report.type === 'sink-commit') && !this.#recordSinkOutput) this.#countSinkRecords(report);
      else if (report.type === 'sink-output') this.sinkOutput.write(sinkRecordsOf(report.records));
      else if (report.type === 'sink-commit') this.sinkOutput.commit(report.transactionId, sinkRecordsOf(report.records));
      // What a subtask consumed is part of the session whatever became of its attempt.
      else if (report.type === 'delivery-order') this.#session.addPart(report.attempt, report.vertexId, report.subtaskIndex, report);
      else if (report.type === 'acknowledge-checkpoint' && !(report.attempt === this.attempt && this.job.status === 'RUNNING')) this.#deleteUnused(report.checkpointId, report.reference);
      else if (report.attempt === this.attempt && this.job.status === 'RUNNING') this.#onTaskReport(report);
    }
  }

  /** Without recording: the records written, a transaction's once however often it is committed (as SinkOutputLog counts). */
  #countSinkRecords(report: Extract<TaskManagerReport, { type: 'sink-output' | 'sink-commit' }>): void {
    if (report.type === 'sink-commit') {
      if (this.#countedCommits.has(report.transactionId)) return;
      this.#countedCommits.add(report.transactionId);
    }
    this.sinkOutput.totalRecords += report.records.keys.length;
  }

  #onTaskReport(report: Exclude<TaskManagerReport, { type: 'sink-output' | 'sink-commit' }>): void {
    const status = this.#status[report.taskIndex];
    const subtask = this.graph.subtasks[report.taskIndex];
    if (!status || !subtask) return;
    const now = this.now;
    switch (report.type) {
      case 'task-state':
        status.state = report.state;
        if (report.state === 'FAILED') {
          this.#failover(`Task ${subtask.id.vertexId}#${subtask.id.subtaskIndex} failed: ${report.cause ?? 'unknown cause'}`, [report.taskIndex], now, true);
        } else if (report.state === 'FINISHED') this.#maybeFinishJob(now);
        return;
      case 'task-ended-input':
        status.finalSnapshot = decodeTaskStateSnapshot(report.finalSnapshot);
        return;
      case 'acknowledge-checkpoint': {
        // The snapshot is in remote storage (the TaskManager wrote it); the subtask acknowledges.
        if (!this.coordinator.pendingCheckpoints.some((p) => p.id === report.checkpointId)) {
          // Too late (the checkpoint was aborted and discarded meanwhile): nobody will read these files.
          this.#deleteUnused(report.checkpointId, report.reference);
          return;
        }
        const refs = this.#references.get(report.checkpointId) ?? this.#references.set(report.checkpointId, new Map()).get(report.checkpointId)!;
        refs.set(report.reference.key, report.reference);
        const snapshot = decodeTaskStateSnapshot(report.snapshot);
        const metrics = { ...report.metrics, asyncDurationMs: Math.max(0, now - report.metrics.syncEndTime), ackTimestamp: now };
        this.#coordinate(now, (e) => void this.coordinator.receiveAcknowledge(report.checkpointId, subtask.id, snapshot, metrics, now, e));
        return;
      }
      case 'local-copy': {
        // Flink writes no local copy of a savepoint.
        if (this.coordinator.savepoints.some((c) => c.id === report.checkpointId) || this.coordinator.pendingCheckpoints.some((p) => p.id === report.checkpointId && p.isSavepoint)) return;
        // A report sent before the host was lost reaches no disk: it is gone.
        if (this.#lostHosts.has(subtask.slot.host)) return;
        const disk = this.#disks.get(subtask.slot.host);
        // A persistent disk takes the bytes as they came; the in-memory one (Node) holds the snapshot.
        // Runs it references that the disk holds already are linked (the TaskManager sent only the others).
        const runs = report.runs ? { runs: report.runs, newRuns: report.newRuns ?? [] } : {};
        if (disk instanceof PersistentHostLocalDisk) disk.storeEncoded(this.#localKey(report.taskIndex), report.checkpointId, report.snapshot, { bytes: report.bytes, checksum: report.checksum, ...runs });
        else disk?.store(this.#localKey(report.taskIndex), report.checkpointId, withSentRuns(decodeTaskStateSnapshot(report.snapshot), report.newRuns), { bytes: report.bytes });
        if (disk && report.runs) this.#resendRunsTheDiskLacks(disk, report.taskIndex, report.runs);
        return;
      }
      case 'decline-checkpoint':
        this.#coordinate(now, (e) => this.coordinator.receiveDecline(report.checkpointId, report.reason, now, e));
        return;
    }
  }

  // ---- the checkpoint coordinator ----

  #coordinate(now: number, call: (effects: CoordinatorEffect[]) => void): void {
    const effects: CoordinatorEffect[] = [];
    // The registry deletes shared files without an effect of its own (as Flink's does, asynchronously).
    const registered = this.#sharesFiles ? new Set(this.coordinator.sharedState.files().map((f) => f.name)) : undefined;
    call(effects);
    if (registered) {
      for (const f of this.coordinator.sharedState.files()) registered.delete(f.name);
      this.#deleteUnregisteredSharedFiles([...registered]);
    }
    // Storage requests run in order: a new checkpoint's `_metadata` is written before the ones it
    // subsumed are discarded (Flink finalizes, then subsumes), so one is always restorable.
    const discards = effects.filter((e) => e.type === 'discard-checkpoint');
    for (const effect of effects) if (effect.type !== 'discard-checkpoint') this.#applyCoordinatorEffect(effect, now);
    for (const effect of discards) this.#applyCoordinatorEffect(effect, now);
  }

  /** Incremental rocksdb checkpoints share files between checkpoints. */
  get #sharesFiles(): boolean {
    return this.config.stateBackend === 'rocksdb' && this.config.incremental;
  }

  /**
   * The TaskManager linked runs it sent before; if the disk lost some (a delete-local-copy fault),
   * this copy misses them (a restore from it falls back to remote, `missing`) and the next copy
   * must send them again, as the sim's copies take whatever the disk lacks.
   */
  #resendRunsTheDiskLacks(disk: HostLocalDisk, taskIndex: number, runs: ReadonlyArray<{ name: string }>): void {
    const held = new Set(disk.runsOf(this.#localKey(taskIndex)).map((r) => r.name));
    const lacking = runs.map((r) => r.name).filter((name) => !held.has(name));
    if (lacking.length === 0) return;
    const tm = this.#taskManagers.get(this.graph.subtasks[taskIndex]!.slot.taskManager);
    void tm?.process.gateway.resendLocalRuns(this.attempt, taskIndex, lacking);
  }

  #applyCoordinatorEffect(effect: CoordinatorEffect, now: number): void {
    switch (effect.type) {
      case 'trigger-task': {
        const index = this.#taskIndex(effect.subtask);
        const tm = this.#taskManagers.get(this.graph.subtasks[index]!.slot.taskManager);
        void tm?.process.gateway.triggerCheckpoint(this.attempt, index, effect.barrier);
        return;
      }
      case 'finalize-checkpoint':
        this.#finalize(effect.checkpoint);
        return;
      case 'notify-complete':
        // `_metadata` is written (the checkpoint is restorable): a two-phase-commit sink may commit.
        this.#notifyLocalDisks(effect.checkpointId, true);
        for (const tm of this.#taskManagers.values()) void tm.process.gateway.notifyCheckpoint(this.attempt, effect.checkpointId, 'complete');
        return;
      case 'notify-aborted':
        this.#notifyLocalDisks(effect.checkpointId, false);
        for (const tm of this.#taskManagers.values()) void tm.process.gateway.notifyCheckpoint(this.attempt, effect.checkpointId, 'aborted');
        return;
      case 'schedule':
        this.#timers.schedule(effect.at, (at) => this.#coordinate(at, (e) => this.coordinator.onTimer(effect.timer, at, e)));
        return;
      case 'fail-job':
        this.#failover(effect.message, [], now, true);
        return;
      case 'discard-checkpoint': {
        const checkpointId = effect.checkpointId;
        this.#references.delete(checkpointId);
        void this.#enqueue(async () => {
          const error = await this.#storage!.discardCheckpoint(checkpointId);
          if (error) this.#storageErrors.push(error.message);
        });
        return;
      }
      case 'checkpoint-status':
        return this.#emit(checkpointStatusEvent(effect, now));
    }
  }

  // ---- checkpoint storage ----

  /** The completed checkpoint (or savepoint) `id` the coordinator holds. */
  #completed(id: number): CompletedCheckpoint | undefined {
    return this.coordinator.store.getAllCheckpoints().find((c) => c.id === id) ?? this.coordinator.savepoints.find((c) => c.id === id);
  }

  /**
   * Flink's finalizeCheckpoint: writes `_metadata` of a fully acknowledged checkpoint (after the
   * JobManager's storage requests queued before it), and only then does the checkpoint complete,
   * subsume older ones and let the tasks commit. A refused write fails it with
   * FINALIZE_CHECKPOINT_FAILURE, so a retained checkpoint is always restorable.
   */
  #finalize(checkpoint: CompletedCheckpoint): void {
    const attempt = this.attempt;
    const report = (written: boolean) => {
      // A failover meanwhile aborted it (its discard is queued after this write).
      if (attempt !== this.attempt || this.#disposed) return;
      this.#coordinate(this.now, (e) =>
        written ? this.coordinator.onCheckpointFinalized(checkpoint.id, this.now, e) : this.coordinator.onCheckpointFinalizeFailed(checkpoint.id, this.now, e),
      );
    };
    void this.#enqueue(() => this.#writeMetadata(checkpoint)).then(report, () => report(false));
  }

  /**
   * Writes `_metadata`: the handles its tasks acknowledged, plus the files of subtasks that had
   * finished (their final snapshot was never uploaded; the JobManager writes it). Savepoints go to
   * `chk-<n>` too (the live runtime has no savepoint directory). True once written.
   */
  async #writeMetadata(checkpoint: CompletedCheckpoint): Promise<boolean> {
    const placement = checkpointPlacement(this.#storageSpec.location, checkpoint.id);
    const refs = this.#references.get(checkpoint.id) ?? new Map<string, SubtaskStateReference>();
    const files: CheckpointFile[] = [];
    const subtasks: SubtaskStateReference[] = [];
    for (const [key, snapshot] of checkpoint.taskStates) {
      let ref = refs.get(key);
      if (!ref) {
        const upload = taskSnapshotFiles(placement, snapshot, key);
        files.push(...upload.files);
        ref = upload.reference;
      }
      subtasks.push(ref);
    }
    files.push(metadataFile(placement, checkpoint, subtasks));
    const error = await this.#storage!.writeCheckpoint(checkpoint.id, files);
    if (error) this.#storageErrors.push(error.message);
    return error === undefined;
  }

  /** Deletes what an upload wrote that no checkpoint will refer to (it came too late). */
  #deleteUnused(checkpointId: number, reference: SubtaskStateReference): void {
    if (this.#completed(checkpointId)) return;
    // A shared file the registry knows is in use by a checkpoint that uploaded the same run again.
    const shared = reference.sharedFiles.filter((f) => f.uploaded && !this.coordinator.sharedState.has(f.name));
    const paths = [reference.statePath, ...shared.map((f) => f.path)];
    void this.#enqueue(() => this.#deleteFiles(paths));
  }

  /**
   * Deletes every checkpoint directory under the job directory that the coordinator neither
   * retains nor has pending: uploads of an attempt that failed over, written by a TaskManager that
   * died before it could report them.
   */
  async #sweepOrphans(sharedToo: boolean): Promise<void> {
    const location = this.#storageSpec.location;
    const keep = new Set([...this.coordinator.store.getAllCheckpoints(), ...this.coordinator.savepoints].map((c) => c.id));
    for (const p of this.coordinator.pendingCheckpoints) keep.add(p.id);
    const doomed = new Set<number>();
    const sharedInUse = this.#sharedFilesInUse(true);
    const doomedShared: string[] = [];
    for (const file of await this.#storage!.list(`${jobDirectory(location)}/`)) {
      const where = parseJobPath(location, file.path);
      if (where?.kind === 'checkpoint' && !keep.has(where.checkpointId)) doomed.add(where.checkpointId);
      if (sharedToo && where?.kind === 'shared' && !sharedInUse.has(where.name)) doomedShared.push(file.path);
    }
    for (const id of doomed) {
      const error = await this.#storage!.discardCheckpoint(id);
      if (error) this.#storageErrors.push(error.message);
    }
    await this.#deleteFiles(doomedShared);
  }

  /** Shared files (SST runs of incremental checkpoints) that retained checkpoints, savepoints, or (optionally) the registry still use. */
  #sharedFilesInUse(registered: boolean): Set<string> {
    const names = new Set<string>();
    const kept = registered ? [...this.coordinator.store.getAllCheckpoints(), ...this.coordinator.savepoints] : this.coordinator.savepoints;
    for (const c of kept) for (const snapshot of c.taskStates.values()) for (const f of snapshot.sharedFiles ?? []) names.add(f.name);
    if (registered) for (const f of this.coordinator.sharedState.files()) names.add(f.name);
    return names;
  }

  /** Deletes files side by side (as Flink's I/O executor does): each request pays its own round trip, not the sum of them. */
  async #deleteFiles(paths: readonly string[]): Promise<void> {
    const errors = await Promise.all(paths.map((path) => this.#storage!.deleteFile(path)));
    for (const error of errors) if (error) this.#storageErrors.push(error.message);
  }

  /** Deletes the shared files the coordinator's SharedStateRegistry let go of (no retained checkpoint uses them). */
  #deleteUnregisteredSharedFiles(names: readonly string[]): void {
    if (names.length === 0) return;
    const placement = checkpointPlacement(this.#storageSpec.location, 0);
    void this.#enqueue(() => this.#deleteFiles(names.map((name) => sharedFileLocation(placement, name))));
  }

  /** After the job ended: its checkpoints go unless the externalized-checkpoint retention keeps them. */
  #discardOnTermination(): void {
    const status = this.job.status;
    if (status !== 'FINISHED' && status !== 'CANCELED' && status !== 'FAILED') return;
    if (retainOnTermination(this.config.externalizedRetention, status)) return;
    const ids = this.coordinator.store.getAllCheckpoints().map((c) => c.id);
    const location = this.#storageSpec.location;
    void this.#enqueue(async () => {
      for (const id of ids) {
        const error = await this.#storage!.discardCheckpoint(id);
        if (error) this.#storageErrors.push(error.message);
      }
      // The shared files go with them, but for those a savepoint (owned by the user) refers to.
      const savepointFiles = this.#sharedFilesInUse(false);
      const shared = await this.#storage!.list(`${sharedDirectory(location)}/`);
      await this.#deleteFiles(shared.map((f) => f.path).filter((path) => !savepointFiles.has(path.slice(path.lastIndexOf('/') + 1))));
    });
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



  /** Which subtasks a checkpoint involves now, from what the TaskManagers reported; not possible while any is starting. */
  /** Which subtasks a checkpoint involves now, from the TaskManagers' last reports. */
  #plan(): CheckpointPlan {
    const subtasks = this.graph.subtasks.map((s, i) => {
      const status = this.#status[i];
      return {
        id: s.id,
        isSource: this.graph.vertex(s.id.vertexId).operator.type === 'source',
        ended: status?.finalSnapshot !== undefined,
        finalSnapshot: status?.finalSnapshot,
        running: status?.state === 'RUNNING',
      };
    });
    return planCheckpoint(subtasks, Object.fromEntries(this.graph.vertices.map((v) => [v.id, v.parallelism])));
  }


  #vertexParallelism(): { vertexId: string; parallelism: number }[] {
    return this.graph.vertices.map((v) => ({ vertexId: v.id, parallelism: v.parallelism }));
  }

  #taskIndex(id: SubtaskId): number {
    return this.graph.subtasks.findIndex((s) => s.id.vertexId === id.vertexId && s.id.subtaskIndex === id.subtaskIndex);
  }

  // ---- deployment, failures and restore ----

  /**
   * Deploys every subtask of the current graph on the TaskManagers of its slots, with a new
   * MessageChannel per channel between two TaskManagers; restores from `checkpoint` when given.
   */
  /**
   * Before a restore reads state: which subtasks of the graph to deploy restore from their host's
   * local copy (decideSubtaskRestore: same slot, same host, a complete copy that verifies), and
   * which subtasks' state files of the checkpoint must be read from remote storage for the rest
   * (its own; after a rescale, every old subtask of its vertex).
   */
  #planStateReads(graph: ExecutionGraph, metadata: CheckpointMetadata): { planned: Map<number, PlannedRestore>; remoteKeys: Set<string> } {
    const planned = new Map<number, PlannedRestore>();
    const remoteKeys = new Set<string>();
    const refs = new Map(metadata.subtasks.map((ref) => [ref.key, ref]));
    graph.subtasks.forEach((s, i) => {
      const parallelism = graph.vertex(s.id.vertexId).parallelism;
      const oldParallelism = metadata.parallelism[s.id.vertexId] ?? parallelism;
      const key = subtaskKey(s.id);
      const decision = decideSubtaskRestore({
        jobId: LIVE_JOB_ID,
        subtask: s.id,
        checkpointId: metadata.checkpointId,
        localRecovery: this.config.localRecovery,
        rescaled: oldParallelism !== parallelism,
        previousSlot: this.#placement.get(key),
        slot: { slotId: s.slot.id, host: s.slot.host },
        disk: this.#disks.get(s.slot.host),
        remote: { bytes: refs.get(key)?.stateSize ?? 0 },
        costs: this.scenario.costs,
      });
      if (decision.source === 'local') {
        planned.set(i, { source: 'local', snapshot: decision.snapshot, bytes: decision.bytes, modelledMs: decision.durationMs });
        return;
      }
      planned.set(i, { source: 'remote', reason: decision.source === 'remote' ? decision.reason : undefined });
      // After a rescale a subtask takes key groups from every old subtask of its vertex.
      if (oldParallelism === parallelism) remoteKeys.add(key);
      else for (let old = 0; old < oldParallelism; old++) remoteKeys.add(subtaskKey({ vertexId: s.id.vertexId, subtaskIndex: old }));
    });
    return { planned, remoteKeys };
  }

  async #deploy(now: number, restoring?: Restoring): Promise<void> {
    const attempt = this.attempt;
    this.#placement = new Map(this.graph.subtasks.map((s) => [subtaskKey(s.id), { slotId: s.slot.id, host: s.slot.host }]));
    const deployments = buildTaskDeployments(this.graph, this.scenario, { ...this.config, incremental: this.config.incremental }, attempt);
    this.#status = this.graph.subtasks.map(() => ({ state: 'DEPLOYING' }));
    const requests = new Map<string, { tasks: TaskToDeploy[]; ports: ChannelPort[] }>();
    const requestFor = (tm: string) => requests.get(tm) ?? requests.set(tm, { tasks: [], ports: [] }).get(tm)!;
    const sources: RestoreSource[] = [];
    this.graph.subtasks.forEach((s, i) => {
      const task: TaskToDeploy = { taskIndex: i, slotId: s.slot.id, deployment: deployments[i]!, slowdown: this.#slowdown.get(s.id.vertexId) ?? 1 };
      if (restoring) {
        const { checkpoint, sharedFile } = restoring;
        const target = { ...s.id, parallelism: this.graph.vertex(s.id.vertexId).parallelism, keyGroupRange: s.keyGroupRange };
        const planned = restoring.planned.get(i);
        let assignment: SubtaskAssignment;
        if (planned?.source === 'local') {
          // The subtask's own share comes from its host's disk (nothing of it was read from remote).
          const local = { ...checkpoint, taskStates: new Map(checkpoint.taskStates).set(subtaskKey(s.id), planned.snapshot) };
          assignment = assignSubtaskState(local, target, sharedFile);
          // A run the copy did not carry was read from remote storage (none: a copy holds every run it references).
          const remoteBytes = (planned.snapshot.sharedFiles ?? []).reduce((n, f) => n + (f.contents === undefined ? f.sizeBytes : 0), 0);
          sources[i] = { source: 'local', bytes: planned.bytes, remoteBytes, modelledMs: planned.modelledMs };
        } else {
          assignment = assignSubtaskState(checkpoint, target, sharedFile);
          sources[i] = { source: 'remote', reason: planned?.reason, bytes: assignment.bytes, modelledMs: restoring.remoteReadMs };
        }
        this.#disks.get(s.slot.host)?.pruneAllBut(this.#localKey(i), checkpoint.id);
        task.restore = assignment.restore === undefined ? undefined : encodeValue(assignment.restore);
      }
      requestFor(s.slot.taskManager).tasks.push(task);
    });
    // The copies the restore read are in the deployments now; the hosts' databases keep theirs.
    releaseLocalDiskContents(this.#disks.values());
    for (const c of this.graph.channels) {
      if (c.local) continue;
      const { port1, port2 } = new MessageChannel();
      requestFor(this.graph.subtask(c.from).slot.taskManager).ports.push({ channelId: c.id, end: 'sender', port: port1 });
      requestFor(this.graph.subtask(c.to).slot.taskManager).ports.push({ channelId: c.id, end: 'receiver', port: port2 });
    }
    const durations: number[] = [];
    const calls = [...requests].map(async ([tmId, { tasks, ports }]) => {
      const tm = this.#taskManagers.get(tmId);
      if (!tm) return;
      const request: DeployRequest = { attempt, clock: this.#clock, config: this.config, tasks, ports };
      const result = await tm.process.gateway.deploy(Comlink.transfer(request, ports.map((p) => p.port)));
      // From the JobManager's call to the subtask running: the state's trip to the TaskManager and its loading.
      for (const i of result.taskIndexes) durations[i] = this.now - now;
    });
    try {
      await Promise.all(calls);
    } catch (error) {
      if (attempt !== this.attempt) return;
      this.#failover(`Deployment failed: ${error instanceof Error ? error.message : String(error)}`, [], this.now, true);
      return;
    }
    if (restoring && attempt === this.attempt) this.#reportRestore(now, restoring.checkpoint, sources, durations);
  }

  /**
   * A restore's record: per subtask where its state came from, its bytes, and how long it took:
   * a remote subtask waited for the checkpoint to be read back from remote storage (measured,
   * real sleeps of the cost model) and then for its deployment; a local one for its deployment
   * plus the modelled read of its host's disk.
   */
  #reportRestore(now: number, checkpoint: CompletedCheckpoint, sources: RestoreSource[], durations: number[]): void {
    const record: RestoreRecord = { time: now, checkpointId: checkpoint.id, isSavepoint: checkpoint.isSavepoint, subtasks: [] };
    this.graph.subtasks.forEach((s, i) => {
      const src = sources[i];
      const durationMs = (durations[i] ?? 0) + (src?.modelledMs ?? 0);
      if (src?.source === 'local') record.subtasks.push({ ...s.id, source: 'local', bytes: src.bytes, remoteBytes: src.remoteBytes, durationMs });
      else record.subtasks.push({ ...s.id, source: 'remote', ...(src?.reason ? { reason: src.reason } : {}), bytes: src?.bytes ?? 0, remoteBytes: src?.bytes ?? 0, durationMs });
    });
    this.restores.push(record);
    this.coordinator.stats.reportRestoredCheckpoint(checkpoint.id, now, checkpoint.isSavepoint, checkpoint.externalPath);
    this.#emit({ type: 'restore', time: now, restore: record });
  }

  /** Carries out a fault (from the schedule or the API) and records it; returns an error message when it cannot. */
  #applyFault(fault: FaultSpec): string | undefined {
    const problem = this.#carryOutFault(fault);
    if (problem === undefined) this.#session.faultApplied(this.now, fault);
    return problem;
  }

  #carryOutFault(fault: FaultSpec): string | undefined {
    const now = this.now;
    if (fault.type === 'trigger-checkpoint' || fault.type === 'trigger-savepoint') {
      return this.triggerCheckpoint(fault.type === 'trigger-savepoint' ? 'savepoint' : 'checkpoint');
    }
    const problem = faultTargetProblem(fault, this.graph, this.cluster);
    if (problem) return problem;
    if (fault.type === 'slow-operator') return this.#slowOperator(fault.vertex, fault.factor);
    if (fault.type === 'slow-remote-storage') return this.#setRemoteFaults({ slowFactor: fault.factor }, { kind: 'slow-remote-storage', factor: fault.factor });
    if (fault.type === 'fail-remote-storage') return this.#setRemoteFaults({ failing: true }, { kind: 'fail-remote-storage' });
    if (fault.type === 'heal-remote-storage') return this.#setRemoteFaults({ failing: false }, { kind: 'heal-remote-storage' });
    if (fault.type === 'corrupt-local-copy' || fault.type === 'delete-local-copy') {
      return this.#damageLocalCopy(fault.host, fault.vertex, fault.subtask, fault.type === 'corrupt-local-copy' ? 'corrupt' : 'delete', fault.run);
    }
    if (fault.type === 'stall-task-manager') return this.#stallTaskManager(fault.task_manager);
    if (this.job.status !== 'RUNNING') return `the job is ${this.job.status}; nothing to fail`;
    switch (fault.type) {
      case 'fail-task': {
        const i = this.#taskIndex({ vertexId: fault.vertex, subtaskIndex: fault.subtask });
        this.#emit(faultEvent(now, { kind: 'fail-task', vertex: fault.vertex, subtask: fault.subtask }));
        const tm = this.#taskManagers.get(this.graph.subtasks[i]!.slot.taskManager);
        void tm?.process.gateway.failTask(this.attempt, i, 'an exception in the operator (injected)');
        return undefined;
      }
      case 'kill-task-manager': {
        const tm = this.#taskManagers.get(fault.task_manager);
        if (!tm) return `no TaskManager "${fault.task_manager}" (running: ${this.cluster.taskManagers.map((t) => t.id).join(', ')})`;
        this.#emit(faultEvent(now, { kind: 'kill-task-manager', taskManager: tm.info.id, host: tm.info.host }));
        // The process dies; the JobManager is not told: it notices the missing heartbeats.
        tm.process.terminate();
        return undefined;
      }
      case 'lose-host': {
        const lost = [...this.#taskManagers.values()].filter((tm) => tm.info.host === fault.host);
        this.#lostHosts.add(fault.host);
        this.#disks.get(fault.host)?.wipe();
        // The disk is gone, and with it the rocksdb working directories of its TaskManagers.
        if (this.#localDirsOnOpfs) this.#deleteLocalDirs(() => removeOpfsDirectory(hostDir(this.#storageSpec.databaseName, fault.host)));
        this.#emit(faultEvent(now, { kind: 'lose-host', host: fault.host, taskManagers: lost.map((tm) => tm.info.id) }));
        for (const tm of lost) tm.process.terminate();
        return undefined;
      }
    }
  }

  /**
   * A hung TaskManager: its process stops answering but stays alive. Nothing is failed here: the
   * JobManager finds out only when the heartbeats have been silent for heartbeat.timeout.
   */
  #stallTaskManager(taskManager: string): string | undefined {
    const tm = this.#taskManagers.get(taskManager);
    if (!tm) return `no TaskManager "${taskManager}" (running: ${this.taskManagers.map((t) => t.id).join(', ')})`;
    if (this.job.status !== 'RUNNING') return `the job is ${this.job.status}; nothing to stall`;
    this.#emit(faultEvent(this.now, { kind: 'stall-task-manager', taskManager: tm.info.id, heartbeatTimeoutMs: this.config.heartbeatTimeout }));
    void tm.process.gateway.stall();
    return undefined;
  }

  /** A playground fault: damage or remove a subtask's task-local copies on a host's disk. */
  /** `run`: only that shared run of the subtask's incremental copies (every copy linking it is damaged with it). */
  #damageLocalCopy(host: string, vertexId: string, subtaskIndex: number, mode: 'corrupt' | 'delete', run?: string): string | undefined {
    const disk = this.#disks.get(host)!;
    const selector = { vertexId, subtaskIndex, ...(run === undefined ? {} : { run }) };
    const paths = mode === 'corrupt' ? disk.corrupt(selector) : disk.delete(selector);
    if (paths.length === 0) return run === undefined ? `${host} holds no local copy of ${vertexId}#${subtaskIndex}` : `${host} holds no shared run ${run} of ${vertexId}#${subtaskIndex}`;
    this.#emit(faultEvent(this.now, { kind: `${mode}-local-copy`, host, vertex: vertexId, subtask: subtaskIndex, ...(run === undefined ? {} : { run }), paths }));
    return undefined;
  }

  /**
   * The remote store turns slow, failing or healthy for everyone who talks to it: the JobManager
   * (metadata, deletions, restore reads) and every TaskManager (uploads). Once healthy again, what
   * failed deletions left behind is swept away.
   */
  #setRemoteFaults(change: Partial<RemoteStorageFaults>, fault: FaultDetail): undefined {
    const wasFailing = this.#remoteFaults.failing;
    Object.assign(this.#remoteFaults, change);
    if (this.#storage) Object.assign(this.#storage.knobs, this.#remoteFaults);
    for (const tm of this.#taskManagers.values()) void tm.process.gateway.setRemoteStorageFaults({ ...this.#remoteFaults });
    this.#emit(faultEvent(this.now, fault));
    if (wasFailing && !this.#remoteFaults.failing) {
      // Shared files stay: a pending checkpoint may have uploaded some it has not acknowledged yet.
      void this.#enqueue(() => this.#sweepOrphans(false));
    }
    return undefined;
  }

  #slowOperator(vertexId: string, factor: number): undefined {
    this.#slowdown.set(vertexId, factor);
    for (const tm of this.#taskManagers.values()) void tm.process.gateway.slowOperator(vertexId, factor);
    this.#emit(faultEvent(this.now, { kind: 'slow-operator', vertex: vertexId, factor }));
    return undefined;
  }

  /** Every TaskManager cancels the current attempt's subtasks (fire and forget: a dead one cannot answer). */
  #cancelTasks(): void {
    for (const tm of this.#taskManagers.values()) void tm.process.gateway.cancel(this.attempt);
    for (const status of this.#status) if (status.state !== 'FINISHED' && status.state !== 'FAILED') status.state = 'CANCELED';
  }

  /**
   * A failure: every subtask is cancelled (the failed ones fail), pending checkpoints are aborted,
   * and the restart strategy decides between RESTARTING and FAILED (the whole job is one region,
   * as in the sim driver).
   */
  #failover(cause: string, failedTasks: number[], now: number, isFailure: boolean): void {
    if (this.job.status !== 'RUNNING') return;
    for (const i of failedTasks) {
      const s = this.graph.subtasks[i]!;
      this.#emit({ type: 'task-failed', time: now, vertexId: s.id.vertexId, subtaskIndex: s.id.subtaskIndex, cause });
    }
    this.#cancelTasks();
    for (const i of failedTasks) this.#status[i]!.state = 'FAILED';
    this.#coordinate(now, (e) => this.coordinator.stopScheduler(now, e));
    if (isFailure) this.#restartStrategy.notifyFailure(now);
    if (!isFailure || this.#restartStrategy.canRestart()) {
      this.#setStatus('RESTART', now, cause);
      const attempt = ++this.attempt;
      this.restarts += isFailure ? 1 : 0;
      const backoff = isFailure ? this.#restartStrategy.getBackoffTime() : 0;
      this.#timers.schedule(now + backoff, () => void this.#restart(attempt));
    } else {
      this.failureCause = cause;
      this.#setStatus('FAIL', now, cause);
      this.#setStatus('GIVE_UP', now, cause);
      this.#stopHeartbeats();
      this.#discardOnTermination();
    }
  }

  /** After the backoff, once every TaskManager (replacements too) is up: a new attempt from the latest completed checkpoint. */
  async #restart(attempt: number): Promise<void> {
    // One that does not start is lost (and started again) on its own; the restart waits for none of those.
    await Promise.all(this.cluster.taskManagers.map((info) => this.#taskManagers.get(info.id)?.ready.catch(() => {})));
    if (attempt !== this.attempt || this.job.status !== 'RESTARTING' || this.#disposed) return;
    // The latest completed checkpoint, read back from remote storage (after the JobManager's own
    // requests queued before it: its `_metadata` write, deletions), and the files of uploads that
    // died with their attempt swept away. Of the state files, only those of subtasks that cannot
    // restore from their local copy are read.
    const latest = this.#restoreFrom ?? this.coordinator.latestCheckpoint();
    this.#restoreFrom = undefined;
    const graph = new ExecutionGraph(this.scenario, this.config.maxParallelism, this.cluster, this.#keepMaxParallelism);
    // Each subtask asks for the slot it had (and so its host's local copy); lost ones take fresh slots.
    placeOnPreviousSlots(graph, this.#placement);
    const readStart = this.now;
    let checkpoint: CompletedCheckpoint | undefined;
    let planned = new Map<number, PlannedRestore>();
    let sharedFiles = new Map<string, unknown>();
    let readError: string | undefined;
    await this.#enqueue(async () => {
      await this.#sweepOrphans(true);
      // Task-local copies as each host's database holds them: what outlived the crashed workers.
      await reloadLocalDisks(this.#disks.values());
      if (!latest) return;
      const before = { ...this.#storage!.stats };
      const read = await readCompletedCheckpoint(this.#storage!, checkpointDirectory(this.#storageSpec.location, latest.id), {
        select: (metadata) => {
          const plan = this.#planStateReads(graph, metadata);
          planned = plan.planned;
          return plan.remoteKeys;
        },
      });
      if (!read.ok) {
        readError = read.error.message;
        return;
      }
      checkpoint = read.checkpoint;
      const localCopies = new Map([...planned].flatMap(([i, p]) => (p.source === 'local' ? [[subtaskKey(graph.subtasks[i]!.id), p.snapshot] as const] : [])));
      const shared = await this.#readSharedFiles(read.checkpoint, read.metadata, localCopies);
      const after = this.#storage!.stats;
      this.remoteRestoreReads.push({ checkpointId: latest.id, bytes: after.bytesRead - before.bytesRead, requests: after.requests - before.requests });
      if (typeof shared === 'string') readError = shared;
      else sharedFiles = shared;
    }).catch((error: unknown) => {
      readError ??= `Failed to restore checkpoint ${latest?.id}: ${error instanceof Error ? error.message : String(error)}`;
    });
    if (attempt !== this.attempt || this.job.status !== 'RESTARTING' || this.#disposed) return;
    const now = this.now;
    if (readError !== undefined) {
      // As a failed restore in Flink: the restart strategy decides (the job stays RESTARTING meanwhile).
      this.#setStatus('RESTARTED', now);
      this.#status = this.graph.subtasks.map(() => ({ state: 'FAILED' }));
      this.#failover(readError, [], now, true);
      return;
    }
    this.graph = graph;
    this.coordinator.stats.updateVertices(this.#vertexParallelism());
    this.#setStatus('RESTARTED', now);
    const restore = checkpoint && {
      checkpoint,
      planned,
      remoteReadMs: now - readStart,
      sharedFile: (name: string) => {
        if (!sharedFiles.has(name)) throw new Error(`shared file ${name} is not in checkpoint ${checkpoint?.id}`);
        return sharedFiles.get(name);
      },
    };
    void this.#deploy(now, restore);
    this.#coordinate(now, (e) => this.coordinator.startScheduler(now, e));
  }

  /**
   * The contents of every shared file (an incremental checkpoint's SST runs) a checkpoint read back
   * from remote storage refers to: those it uploaded came with it, those it reuses from earlier
   * checkpoints are read now. A message instead when one is missing.
   */
  async #readSharedFiles(checkpoint: CompletedCheckpoint, metadata: CheckpointMetadata, localCopies: ReadonlyMap<string, TaskStateSnapshot>): Promise<Map<string, unknown> | string> {
    const contents = new Map<string, unknown>();
    for (const ref of metadata.subtasks) {
      // A local copy carries every run it references (read from the host's disk); a remote one the runs it uploaded.
      const snapshot = checkpoint.taskStates.get(ref.key) ?? localCopies.get(ref.key);
      if (!snapshot) continue;
      const handles = snapshot.sharedFiles ?? [];
      for (const [i, file] of ref.sharedFiles.entries()) {
        if (contents.has(file.name)) continue;
        const carried = handles[i]?.contents;
        const value = carried !== undefined ? carried : await readSharedFile(this.#storage!, file.path);
        if (value === undefined) return `Failed to restore checkpoint ${checkpoint.id}: java.io.FileNotFoundException: File does not exist: ${file.path}`;
        contents.set(file.name, value);
      }
    }
    return contents;
  }

  #maybeFinishJob(now: number): void {
    if (this.job.status !== 'RUNNING' || !this.#status.every((s) => s.state === 'FINISHED')) return;
    this.#coordinate(now, (e) => this.coordinator.shutdown(now, e));
    this.#setStatus('FINISH', now);
    this.#stopHeartbeats();
    this.#discardOnTermination();
  }

  #setStatus(event: Parameters<JobLifecycle['send']>[0], now: number, message?: string): void {
    if (!this.job.send(event)) return;
    this.#emit({ type: 'job-status', time: now, status: this.job.status, ...(message === undefined ? {} : { message }) });
  }

  #emit(event: JobEvent): void {
    this.events.push(event);
    for (const listener of this.#listeners) listener(event);
  }
}

/** A local copy as a TaskManager sent it, with the contents of the runs it sent put back into its shared files. */
function withSentRuns(snapshot: TaskStateSnapshot, sent: ReadonlyArray<{ name: string; encoded: Uint8Array }> | undefined): TaskStateSnapshot {
  if (!snapshot.sharedFiles || !sent) return snapshot;
  const contents = new Map(sent.map((r) => [r.name, decodeSharedFile(r.encoded).contents]));
  return { ...snapshot, sharedFiles: snapshot.sharedFiles.map((f) => (contents.has(f.name) ? { ...f, contents: contents.get(f.name) } : f)) };
}
