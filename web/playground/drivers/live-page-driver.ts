/**
 * The `live` driver as the page runs it: a LiveDriver (the JobManager on this thread, one Web
 * Worker per TaskManager, checkpoints in real IndexedDB) behind the same surface as SimDriver,
 * plus what the page adds around it:
 * - the output oracle, against a failure-free sim run followed by source offsets
 *   (live-output-reference.ts says what is compared and why);
 * - the charts' history, sampled every frame;
 * - the storage view from what IndexedDB really holds, listed a few times a second;
 * - a performance mark per TaskManager worker started and terminated, so a test (or devtools)
 *   can count the page's workers independently of the driver's own bookkeeping.
 *
 * Time is the job clock: wall clock × speed. The live runtime's clock cannot stop (its speed
 * must be positive), so `hold()` slows it to PAUSED_SPEED: sources, checkpoint triggers, restart
 * backoffs and the fault schedule wait, while heartbeats (wall clock, as in Flink) go on, so a
 * TaskManager killed during a pause is still noticed.
 */
import type { ScheduledOperation } from '../../../engine/job/scheduled-operation.ts';
import type { SessionDocument } from '../../../engine/replay/session-document.ts';
import { catchUpsOf, expectationInputs, runReport } from '../../../engine/run/run-report.ts';
import type { CatchUp } from '../../../engine/run/catch-up-time.ts';
import type { ExpectationInputs } from '../../../engine/run/expectations.ts';
import { checkpointConfigDocument } from '../../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../../engine/checkpoint/stats/rest-document-types.ts';
import type { CompletedCheckpoint } from '../../../engine/checkpoint/completed-checkpoint.ts';
import type { PendingCheckpoint } from '../../../engine/checkpoint/pending-checkpoint.ts';
import type { FlinkConfig } from '../../../engine/config/flink-config.ts';
import type { ChannelInfo } from '../../../engine/job/execution-graph.ts';
import type { JobOperation } from '../../../engine/job/job-operation.ts';
import type { Topology } from '../../../engine/job/topology.ts';
import type { TaskManagerHealth } from '../../../engine/job/task-manager-liveness.ts';
import type { JobMetrics } from '../../../engine/metrics/metrics-sampler.ts';
import type { LocalDiskListing } from '../../../engine/recovery/host-local-disk.ts';
import type { JobEvent, RestoreRecord } from '../../../engine/run/job-events.ts';
import type { Scenario } from '../../../engine/scenario/scenario-types.ts';
import { jobDirectory } from '../../../engine/storage/checkpoint-layout.ts';
import type { StoredFile } from '../../../engine/storage/checkpoint-storage.ts';
import type { StreamTask } from '../../../engine/task/stream-task.ts';
import { deleteCheckpointDatabase, liveCheckpointDatabaseName, newLiveRunId } from '../../../workers/storage/indexeddb-checkpoint-storage.ts';
import { leaseRunStorage, liveRunRoot, type RunStorageLease } from '../storage/run-storage-lease.ts';
import { forgetLiveRun, pageRecordStorage, recordRunningLiveRun, type LiveRunRecord } from '../storage/interrupted-live-run.ts';
import { deleteSinkOutputDatabase } from '../../../workers/storage/indexeddb-sink-output-store.ts';
import { SinkOutputLog } from '../../../engine/run/sink-output-log.ts';
import type { StreamRecord } from '../../../engine/protocol.ts';
import { MetricsHistory } from '../../charts/metrics-history.ts';
import { LiveDriver } from '../../../workers/live/live-driver.ts';
import { launchWorkerTaskManager, type TaskManagerLauncher } from '../../../workers/live/task-manager-process.ts';
import { remoteCostView, type StorageView } from '../../storage/storage-view.ts';
import { LiveOutputReference, sourceOffsetsOf, tapSinkWrites } from '../oracle/live-output-reference.ts';
import type { PlaygroundStats } from '../api/playground-api-types.ts';
import type { OutputComparisonView, PlaygroundDriver } from './playground-driver.ts';
import { storageViewFromListing } from '../storage/remote-storage-listing.ts';
import type { SendLog } from './send-log.ts';
import { TASK_MANAGER_STARTED_MARK, TASK_MANAGER_TERMINATED_MARK } from './task-manager-marks.ts';
import { LiveChannelSnapshot } from '../../job-graph/live-channel-snapshot.ts';
import type { EngineMessage } from '../../../engine/messages/message-codes.ts';

/**
 * Job ms per wall ms while paused. Not smaller: the runtime arms browser timers at
 * (job delay / speed), and a timer beyond 2^31 ms fires at once instead of never; at 1/1000 a
 * job delay of up to 35 min stays armable (the default checkpoint timeout is 10 min).
 */
export const PAUSED_SPEED = 0.001;
/** How often the IndexedDB listing behind the storage view is re-read (wall ms). */
const LISTING_REFRESH_MS = 500;


/** Web Worker TaskManagers that leave a performance mark when they start and when they are terminated. */
const markedWorkerLauncher: TaskManagerLauncher = (name, entry) => {
  const process = launchWorkerTaskManager(name, entry);
  performance.mark(TASK_MANAGER_STARTED_MARK, { detail: name });
  let terminated = false;
  return {
    gateway: process.gateway,
    onCrash: (listener) => process.onCrash(listener),
    terminate: () => {
      if (!terminated) performance.mark(TASK_MANAGER_TERMINATED_MARK, { detail: name });
      terminated = true;
      process.terminate();
    },
  };
};

export interface LivePageDriverOptions {
  seed?: number;
  /** job ms per wall ms once running */
  speed: number;
  /** start with the clock held (PAUSED_SPEED) */
  paused: boolean;
  /** the scenario as loaded, as text: an exported session carries it */
  scenarioText?: string;
  /** operator requests at set job times (a lesson step's cancel or rescale) */
  operations?: readonly ScheduledOperation[];
  /** resumes this run, which a reload interrupted, from its latest completed checkpoint */
  resume?: LiveRunRecord;
}

export class LivePageDriver implements PlaygroundDriver {
  readonly name = 'live';
  readonly scenario: Scenario;
  readonly history: MetricsHistory;
  /** Tasks run in the workers: this thread has none to show. */
  readonly tasks: readonly StreamTask[] = [];
  /** The queues of the TaskManagers' subtasks, from their network snapshots (~10 Hz each). */
  readonly channelSnapshot: LiveChannelSnapshot;
  readonly #live: LiveDriver;
  readonly #reference: LiveOutputReference;
  #listed: readonly StoredFile[] = [];
  #listing = false;
  #nextListing = -Infinity;
  #disposed = false;
  /** keeps the run's storage from another tab's sweep until dispose deleted it */
  readonly #lease: RunStorageLease;

  readonly #scenarioText: string | undefined;
  #unrecord: () => void = () => {};

  private constructor(live: LiveDriver, lease: RunStorageLease, scenarioText: string | undefined) {
    this.#live = live;
    this.#lease = lease;
    this.scenario = live.scenario;
    this.channelSnapshot = new LiveChannelSnapshot(() => live.attempt);
    live.onNetworkSnapshot((taskManagerId, snapshot) => this.channelSnapshot.receive(taskManagerId, snapshot));
    this.#reference = new LiveOutputReference(live.scenario, live.seed);
    this.history = new MetricsHistory(live.topology());
    this.#scenarioText = scenarioText;
    if (scenarioText !== undefined) this.#recordRun();
  }

  /**
   * Keeps the record a reload finds (interrupted-live-run.ts) up to date: each completed
   * checkpoint, and the job time when the page goes; gone once the job ended.
   */
  #recordRun(): void {
    const record = () => this.#record(this.#live.coordinator.latestCheckpoint()?.id);
    this.#unrecord = this.#live.onEvent((event) => {
      if (event.type === 'checkpoint-completed' && !event.isSavepoint) record();
      if (event.type === 'job-status' && this.isTerminal) forgetLiveRun(pageRecordStorage(), this.#live.checkpointStorageSpec.databaseName);
    });
    if (typeof addEventListener === 'function') addEventListener('pagehide', record);
    const unsubscribe = this.#unrecord;
    this.#unrecord = () => {
      unsubscribe();
      if (typeof removeEventListener === 'function') removeEventListener('pagehide', record);
    };
    record();
  }

  #record(checkpointId: number | undefined): void {
    if (checkpointId === undefined || this.isTerminal || this.#scenarioText === undefined) return;
    const run = { scenarioText: this.#scenarioText, seed: this.#live.seed, checkpointDatabase: this.#live.checkpointStorageSpec.databaseName, checkpointId, jobTimeMs: this.#live.now };
    recordRunningLiveRun(pageRecordStorage(), run);
  }

  /** Boots the TaskManager workers and deploys the job; rejects with the runtime's message when it cannot. */
  static async start(scenario: Scenario, options: LivePageDriverOptions): Promise<LivePageDriver> {
    const resume = options.resume;
    const checkpointDatabase = resume?.checkpointDatabase ?? liveCheckpointDatabaseName(newLiveRunId());
    const lease = leaseRunStorage(liveRunRoot(checkpointDatabase));
    // What the sink wrote before the page compares it (a resumed run's earlier commits come first).
    const sinkOutput = new SinkOutputLog();
    const written: Array<readonly StreamRecord[]> = [];
    let onWrite = (records: readonly StreamRecord[]): void => void written.push(records);
    tapSinkWrites(sinkOutput, (records) => onWrite(records));
    try {
      const seed = resume?.seed ?? options.seed;
      const live = await LiveDriver.start(scenario, {
        ...(seed === undefined ? {} : { seed }),
        speed: options.paused ? PAUSED_SPEED : options.speed,
        launchTaskManager: markedWorkerLauncher,
        checkpointDatabase,
        sinkOutput,
        persistSinkOutput: true,
        ...(resume ? { recover: { jobTimeMs: resume.jobTimeMs } } : {}),
        ...(options.scenarioText === undefined ? {} : { scenarioText: options.scenarioText }),
        ...(options.operations?.length ? { operations: options.operations } : {}),
      });
      const driver = new LivePageDriver(live, lease, options.scenarioText);
      const oracle = driver.#reference.oracle;
      for (const records of written) oracle.mine(records);
      onWrite = (records) => oracle.mine(records);
      return driver;
    } catch (error) {
      // What the failed start created is left to the next page's sweep.
      lease.release();
      throw error;
    }
  }

  /** Buffers travel between workers, not through this thread: nothing is logged (the snapshots show them queued). */
  get sends(): SendLog {
    return this.channelSnapshot.sends;
  }

  get seed(): number {
    return this.#live.seed;
  }

  get now(): number {
    return this.#live.now;
  }

  get jobStatus(): string {
    return this.#live.jobStatus;
  }

  get restarts(): number {
    return this.#live.restarts;
  }

  get failureCause(): string | undefined {
    return this.#live.failureCause;
  }

  get isTerminal(): boolean {
    return this.#live.job.isTerminal;
  }

  get events(): readonly JobEvent[] {
    return this.#live.events;
  }

  get restores(): readonly RestoreRecord[] {
    return this.#live.restores;
  }

  /** Web Workers started for TaskManagers so far, replacements included (the driver's own count). */
  get workersLaunched(): number {
    return this.#live.workersLaunched;
  }

  onEvent(listener: (event: JobEvent) => void): () => void {
    return this.#live.onEvent(listener);
  }

  // ---- the clock ----

  /** Runs the job clock at `speed` job ms per wall ms. */
  run(speed: number): string | undefined {
    return this.#live.setSpeed(speed);
  }

  /**
   * Holds the job clock (see PAUSED_SPEED). Not once the job ended: nothing waits for job time
   * then but the storage requests of its clean-up, which would crawl.
   */
  hold(): void {
    if (!this.isTerminal) this.#live.setSpeed(PAUSED_SPEED);
  }

  /**
   * The page's frame: follows the failure-free reference (until `deadline`, performance.now()
   * ms), samples the charts, and re-reads the IndexedDB listing when due.
   */
  update(deadline: number): void {
    if (this.#disposed) return;
    const offsets = sourceOffsetsOf(this.#live.metrics().subtasks);
    this.#reference.follow(offsets, this.#live.jobStatus === 'FINISHED', deadline);
    this.history.sample(this);
    if (performance.now() >= this.#nextListing) this.#refreshListing();
  }

  #refreshListing(): void {
    const storage = this.#live.checkpointStorage;
    if (this.#listing || !storage) return;
    this.#listing = true;
    storage.list(`${jobDirectory(this.#live.checkpointStorageSpec.location)}/`).then(
      (files) => {
        this.#listed = files;
      },
      // The store closes when the run is disposed; a listing caught by that is of no use anyway.
      () => {},
    ).finally(() => {
      this.#listing = false;
      this.#nextListing = performance.now() + LISTING_REFRESH_MS;
    });
  }

  /** Terminates every TaskManager worker, then deletes this run's IndexedDB database. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#live.onNetworkSnapshot(undefined);
    const database = this.#live.checkpointStorageSpec.databaseName;
    // Storage requests still queued sleep their modelled cost at the clock's speed: not at the
    // crawl of a held clock, or the database would wait minutes to be deleted.
    if (this.#live.speed < 1) this.#live.setSpeed(1);
    this.#unrecord();
    forgetLiveRun(pageRecordStorage(), database);
    // The databases go once the driver let go of them (its storage requests done, its connections
    // closed, the workers gone): deleting sooner can be blocked and leave them behind.
    void this.#live
      .dispose()
      .then(() => Promise.all([deleteCheckpointDatabase(database), deleteSinkOutputDatabase(database)]))
      .catch((error: unknown) => console.warn(`The checkpoint database ${database} of a finished live run could not be deleted:`, error))
      .finally(() => this.#lease.release());
  }

  // ---- views ----

  topology(): Topology {
    return this.#live.topology();
  }

  taskManagerHealth(): TaskManagerHealth[] {
    return this.#live.jobMaster.taskManagerHealth(this.#live.now);
  }

  metrics(): JobMetrics {
    return this.#live.metrics();
  }

  checkpointing(): CheckpointingStatisticsDocument {
    return this.#live.coordinator.stats.checkpointingStatistics();
  }

  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined {
    return this.#live.coordinator.stats.checkpointDetails(id);
  }

  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined {
    return this.#live.coordinator.stats.taskCheckpointStatistics(id, vertexId);
  }

  checkpointConfig(): CheckpointConfigDocument {
    return checkpointConfigDocument(this.#live.config);
  }

  get channels(): readonly ChannelInfo[] {
    return this.#live.graph.channels;
  }

  get config(): FlinkConfig {
    return this.#live.config;
  }

  get pendingCheckpoints(): readonly PendingCheckpoint[] {
    return this.#live.coordinator.pendingCheckpoints;
  }

  get retainedCheckpoints(): readonly CompletedCheckpoint[] {
    return this.#live.coordinator.store.getAllCheckpoints();
  }

  get savepoints(): readonly CompletedCheckpoint[] {
    return this.#live.coordinator.savepoints;
  }

  localDisks(): LocalDiskListing[] {
    return this.#live.localDisks();
  }

  storage(): StorageView {
    const coordinator = this.#live.coordinator;
    return storageViewFromListing(
      this.#live.checkpointStorageSpec.location,
      this.#listed,
      { retained: this.retainedCheckpoints, savepoints: this.savepoints, pending: this.pendingCheckpoints, sharedFiles: coordinator.sharedState.files() },
      this.localDisks(),
      this.#live.config.localRecovery,
      this.#live.checkpointStorageSpec.databaseName,
      remoteCostView(this.#live.scenario.costs, this.#live.remoteStorageFaults),
    );
  }

  output(rowLimit = 50): OutputComparisonView {
    const oracle = this.#reference.oracle;
    return {
      totalRecords: this.#live.sinkOutput.totalRecords,
      duplicates: oracle.duplicates,
      missing: oracle.missing,
      referenceRecords: oracle.totalNow,
      keyCount: oracle.keyCount,
      rows: oracle.rows(rowLimit),
    };
  }

  /** The CLI's `--json` document for the run so far; `scenario.virtual_time_ms` is the job clock. */
  /** The live session so far, recorded for a replay in sim (LiveDriver.exportSession). */
  exportSession(): SessionDocument {
    return this.#live.exportSession();
  }

  stats(): PlaygroundStats {
    return structuredClone(runReport(this.#live, this.#reference.oracle)) as PlaygroundStats;
  }

  expectationInputs(): ExpectationInputs {
    return expectationInputs(this.#live, this.#reference.oracle);
  }

  catchUps(): readonly CatchUp[] {
    return catchUpsOf(this.#live);
  }

  // ---- operations ----

  /** Carries out one operation now: the LiveDriver's own answer. A cancel leaves the workers up until dispose(), as the sim's storage stays. */
  perform(operation: JobOperation): EngineMessage | undefined {
    return this.#live.perform(operation);
  }
}
