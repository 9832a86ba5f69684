/**
 * The `sim` driver as the page runs it: the scenario's Simulation, and beside it the oracle for
 * its output, a failure-free Simulation of the same scenario and seed (no fault schedule, no
 * operations from the page). Comparing the two sinks gives the duplicates and missing records.
 *
 * Mid-run, "the failure-free output" needs care. A restart shifts the checkpoint schedule, so a
 * two-phase-commit sink may commit a transaction a little earlier than the failure-free run does
 * at the same virtual time; counting those records as duplicates would call a correct
 * exactly-once run wrong. So the reference runs ahead of this run by a few checkpoint intervals:
 * - duplicates: records written more often than the failure-free run writes them by then;
 * - missing: records the failure-free run had written by now (same virtual time) that this run
 *   has not: lost, or not re-produced yet after a restore.
 * The reference's writes are journaled with their time and handed to the oracle as this run's
 * clock reaches them. When this run finishes (bounded sources), both counts compare the complete
 * outputs, as the CLI does.
 *
 * No DOM and no reactivity here: PlaygroundState calls it and copies what the page shows.
 */
import { catchUpsOf, expectationInputs, runReport } from '../../../engine/run/run-report.ts';
import type { CatchUp } from '../../../engine/run/catch-up-time.ts';
import type { ExpectationInputs } from '../../../engine/run/expectations.ts';
import { referenceLeadMs } from '../../../engine/run/reference-lead.ts';
import type { LsmStorageFactory } from '../../../engine/state/state-backend-factory.ts';
import type { CompletedCheckpoint } from '../../../engine/checkpoint/completed-checkpoint.ts';
import type { PendingCheckpoint } from '../../../engine/checkpoint/pending-checkpoint.ts';
import type { FlinkConfig } from '../../../engine/config/flink-config.ts';
import type { ChannelInfo } from '../../../engine/job/execution-graph.ts';
import type { JobOperation } from '../../../engine/job/job-operation.ts';
import type { ScheduledOperation } from '../../../engine/job/scheduled-operation.ts';
import type { HostLocalDisk, LocalDiskListing } from '../../../engine/recovery/host-local-disk.ts';
import type { StreamTask } from '../../../engine/task/stream-task.ts';
import { checkpointConfigDocument } from '../../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../../engine/checkpoint/stats/rest-document-types.ts';
import type { JobMetrics } from '../../../engine/metrics/metrics-sampler.ts';
import type { Topology } from '../../../engine/job/topology.ts';
import type { TaskManagerHealth } from '../../../engine/job/task-manager-liveness.ts';
import type { StreamRecord } from '../../../engine/protocol.ts';
import type { JobEvent, RestoreRecord } from '../../../engine/run/job-events.ts';
import type { SinkOutputLog } from '../../../engine/run/sink-output-log.ts';
import type { Scenario } from '../../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../../engine/sim/simulation.ts';
import { MetricsHistory } from '../../charts/metrics-history.ts';
import { checkpointDirectory, remoteCostView, type StorageView } from '../../storage/storage-view.ts';
import type { OutputRow } from '../oracle/output-oracle.ts';
import { SimOutputReference } from '../oracle/sim-output-reference.ts';
import type { OperationScript } from '../../../engine/replay/operation-script.ts';
import { SendLog } from './send-log.ts';
import { DEFAULT_CHECKPOINT_DIR, newJobId, SimCheckpointStorage } from '../storage/sim-checkpoint-storage.ts';
import type { CheckpointStorageEffect } from '../../../engine/storage/checkpoint-storage-mirror.ts';
import { readConfig } from '../../../engine/config/flink-options.ts';
import { checkpointDatabaseName } from '../../../workers/storage/database-names.ts';
import { destroyLocalDisks } from '../../../workers/storage/host-local-disks.ts';
import { openSimHostLocalDisk } from '../storage/sim-host-local-disk.ts';
import { leaseRunStorage, simRunRoot, type RunStorageLease } from '../storage/run-storage-lease.ts';
import type { PlaygroundStats } from '../api/playground-api-types.ts';
import type { PlaygroundDriver } from './playground-driver.ts';
import { SimChannelSnapshot } from '../../job-graph/sim-channel-snapshot.ts';
import type { EngineMessage } from '../../../engine/messages/message-codes.ts';

/** Virtual time the driver advances between looks at the wall clock (and between the two simulations). */
const SLICE_MS = 20;
/**
 * The share of a frame's budget the run takes while the failure-free reference is short of its
 * lead (in frames); the reference takes the rest. Under a third, the reference gains on a run at
 * full speed and the comparison stays near the run's time; with the whole frame to the run, the
 * reference fell ever further behind and caught up at the run's end in one task (half a second).
 */
const RUN_SHARE_WHILE_REFERENCE_BEHIND = 1 / 3;

/** The sink of this run next to the failure-free run's at the same virtual time. */
export interface OutputComparisonView {
  totalRecords: number;
  duplicates: number;
  missing: number;
  /** records the failure-free run had written by now */
  referenceRecords: number;
  keyCount: number;
  /** the keys worth showing: those with duplicates or missing records first */
  rows: OutputRow[];
}

/** Calls `listener` with every batch of records the log writes (a plain sink's writes and a two-phase-commit sink's commits both go through `write`). */
function tapWrites(log: SinkOutputLog, listener: (records: readonly StreamRecord[]) => void): void {
  const write = log.write.bind(log);
  log.write = (records: readonly StreamRecord[]) => {
    write(records);
    if (records.length > 0) listener(records);
  };
}

export class SimDriver implements PlaygroundDriver {
  readonly name = 'sim';
  readonly scenario: Scenario;
  readonly #simulation: Simulation;
  /** the failure-free run ahead of this one, and the oracle comparing their sinks */
  readonly #reference: SimOutputReference;
  /** every buffer put on the wire, for the channel view (send-log.ts) */
  readonly sends = new SendLog();
  readonly channelSnapshot = new SimChannelSnapshot(this);
  /** the charts' figures over the run, sampled every virtual second (metrics-history.ts) */
  readonly history: MetricsHistory;
  /** the checkpoints mirrored into IndexedDB (absent where there is no IndexedDB, as in Node) */
  readonly #remote: SimCheckpointStorage | undefined;
  /** keeps this run's host disks from another tab's sweep until dispose deleted them */
  readonly #lease: RunStorageLease | undefined;

  /**
   * `operations`: operator requests the run makes at set times (a lesson step's cancel or rescale);
   * the reference makes none. `referenceCatchUp: 'in-frames'` (the page's run): the failure-free
   * reference builds its lead over the first frames (sim-output-reference.ts), not in the constructor.
   */
  constructor(scenario: Scenario, options: { seed?: number; lsmStorage?: LsmStorageFactory; checkpointStorage?: boolean; operations?: readonly ScheduledOperation[]; referenceCatchUp?: 'now' | 'in-frames' } = {}) {
    this.scenario = scenario;
    const storage = options.lsmStorage ? { lsmStorage: options.lsmStorage } : {};
    const jobId = newJobId();
    const persist = options.checkpointStorage ?? typeof indexedDB !== 'undefined';
    const config = readConfig(scenario.config);
    // Each host's local disk is a database of this run (named after its job), gone with the run.
    const diskRoot = simRunRoot(checkpointDatabaseName(config.checkpointDir ?? DEFAULT_CHECKPOINT_DIR), jobId);
    // Leased before any disk opens: another tab's sweep never takes them for a closed tab's.
    this.#lease = persist ? leaseRunStorage(diskRoot) : undefined;
    const localDisk = persist ? { localDisk: (host: string) => openSimHostLocalDisk(host, diskRoot) } : {};
    // The JobMaster's storage effects go to the run's IndexedDB mirror as they happen.
    const storageEffects = persist ? { storageEffects: (effect: CheckpointStorageEffect) => this.#remote?.apply(effect) } : {};
    const operations = options.operations?.length ? { operations: options.operations } : {};
    this.#simulation = new Simulation(scenario, { ...storage, ...localDisk, ...storageEffects, ...operations, ...(options.seed === undefined ? {} : { seed: options.seed }) });
    const reference = new Simulation({ ...scenario, faults: [] }, { ...storage, seed: this.#simulation.seed });
    this.#reference = new SimOutputReference(reference, referenceLeadMs(this.#simulation.config));
    tapWrites(this.#simulation.sinkOutput, (records) => this.#reference.written(this.#simulation.now, records));
    tapWrites(reference.sinkOutput, (records) => this.#reference.ahead(records));
    this.#inFrames = options.referenceCatchUp === 'in-frames';
    if (!this.#inFrames) this.#syncReference();
    this.history = new MetricsHistory(this.#simulation.topology());
    if (persist) {
      const simulation = this.#simulation;
      this.#remote = new SimCheckpointStorage(simulation.config, {
        get jobStatus() {
          return simulation.jobStatus;
        },
        get retainedCheckpoints() {
          return simulation.coordinator.store.getAllCheckpoints();
        },
        sharedContents: (name) => simulation.coordinator.sharedState.contents(name),
      }, { seed: simulation.seed, jobId });
    }
  }

  /** The run's checkpoint storage in IndexedDB, when the page has one. */
  get checkpointStorage(): SimCheckpointStorage | undefined {
    return this.#remote;
  }

  /**
   * Carries out one operation now (the Simulation's JobMaster validates it); why it was refused,
   * as a message code, or undefined when it was done.
   */
  perform(operation: JobOperation): EngineMessage | undefined {
    return this.#simulation.perform(operation);
  }

  /** `perform`, with the refusal in English. */
  operate(operation: JobOperation): string | undefined {
    return this.#simulation.operate(operation);
  }

  /** The page replaces this run: a job still running is cancelled, storage catches up and closes. */
  dispose(): Promise<void> {
    if (!this.isTerminal) this.operate({ type: 'cancel' });
    return Promise.all([this.#remote?.dispose(), destroyLocalDisks(this.#simulation.hostLocalDisks())])
      .then(() => undefined)
      .finally(() => this.#lease?.release());
  }

  readonly #inFrames: boolean;

  /**
   * Runs the reference to `now + ahead` (in frames: until `deadline` at most), and compares the
   * sinks up to now. Once this run finished its bounded input: against the complete failure-free output.
   */
  #syncReference(deadline = Infinity): void {
    this.#reference.sync(this.#simulation.now, this.#simulation.jobStatus === 'FINISHED', this.#inFrames ? deadline : Infinity);
  }

  /** The run's time the sink comparison stands at: its own time, or earlier while the reference catches up. */
  get comparedMs(): number {
    return this.#reference.comparedMs;
  }

  /** Brings the comparison to this run's time now, however long the reference takes (the API's readings). */
  catchUpReference(): void {
    this.#reference.sync(this.#simulation.now, this.#simulation.jobStatus === 'FINISHED');
  }

  get seed(): number {
    return this.#simulation.seed;
  }

  get now(): number {
    return this.#simulation.now;
  }

  get jobStatus(): string {
    return this.#simulation.jobStatus;
  }

  get restarts(): number {
    return this.#simulation.restarts;
  }

  get failureCause(): string | undefined {
    return this.#simulation.failureCause;
  }

  /** FINISHED, FAILED or CANCELED: nothing more will happen. */
  get isTerminal(): boolean {
    return this.#simulation.job.isTerminal;
  }

  /** Events so far, oldest first (the engine's list: read, do not change). */
  get events(): readonly JobEvent[] {
    return this.#simulation.events;
  }

  get restores(): readonly RestoreRecord[] {
    return this.#simulation.restores;
  }

  onEvent(listener: (event: JobEvent) => void): () => void {
    return this.#simulation.onEvent(listener);
  }

  /**
   * Advances both simulations towards `time` in small slices, and stops early once the wall clock
   * passes `deadline` (performance.now() ms), so a frame never freezes the page: at a speed the
   * machine cannot keep up with, virtual time simply falls behind. `afterSlice` runs between
   * slices (the page delivers queued events there) and may return false to stop.
   * `endSliceAtDeadline` (the page's frames): a slice still running when the deadline passes ends
   * at the next instant the clock moves on from (SimKernel.runUntil) instead of running whole: a
   * page's first slices run the engine's code cold, and one took 50–80 ms of a start-up frame.
   * Without it (runUntil's chunks, compare), slices run whole and end on their time.
   */
  advanceTo(time: number, deadline = Infinity, afterSlice?: () => boolean, endSliceAtDeadline = false): void {
    const runDeadline = this.#runDeadline(deadline);
    const overdue = endSliceAtDeadline && deadline !== Infinity ? () => performance.now() >= runDeadline : undefined;
    while (this.now < time && !this.isTerminal) {
      const next = Math.min(time, this.now + SLICE_MS);
      this.sends.tap(this.#simulation.tasks);
      const sliceDone = this.#runUntil(next, overdue);
      // In frames the run's own slices come first: a reference still building its lead took the
      // whole budget at the first slice, and the run (its first checkpoint) fell behind the clock.
      if (!this.#inFrames) this.#syncReference();
      this.history.sample(this);
      if (afterSlice && !afterSlice()) break;
      if (!sliceDone || performance.now() >= runDeadline) break;
    }
    // the reference takes what the frame has left (two slices at least, sim-output-reference.ts)
    if (this.#inFrames) this.#syncReference(deadline);
  }

  /**
   * Until when the run's own slices go on in this frame: in frames, while the reference is short
   * of its lead, a share of the budget only (one slice at least, so a run at speed 1 keeps to the
   * clock and its first checkpoint is not held back while the reference builds its lead; with
   * endSliceAtDeadline, the events up to an instant's end after 32 at least).
   */
  #runDeadline(deadline: number): number {
    if (!this.#inFrames || deadline === Infinity || !this.#reference.behind(this.now)) return deadline;
    const start = performance.now();
    return start + Math.max(0, deadline - start) * RUN_SHARE_WHILE_REFERENCE_BEHIND;
  }

  /** Handles one event of the simulation; false when nothing is left to do. */
  step(): boolean {
    this.sends.tap(this.#simulation.tasks);
    this.#script?.applyDue(this.#simulation);
    const handled = this.#simulation.step();
    this.#syncReference();
    this.history.sample(this);
    return handled;
  }

  // ---- time travel (sim-history.ts): the recorded operations of a branch, replayed at their points ----

  #script: OperationScript | null = null;

  /** Follows a branch's recorded operations: advancing applies each at the exact point it was recorded at. */
  follow(script: OperationScript | null): void {
    this.#script = script;
  }

  get script(): OperationScript | null {
    return this.#script;
  }

  /** Simulation events handled so far: with `now`, the exact point of the run an operation is applied at. */
  get handledEvents(): number {
    return this.#simulation.kernel.handledEvents;
  }

  #runUntil(time: number, stop?: () => boolean): boolean {
    if (this.#script) return this.#script.runUntil(this.#simulation, time, stop);
    return this.#simulation.runUntil(time, stop);
  }

  topology(): Topology {
    return this.#simulation.topology();
  }

  taskManagerHealth(): TaskManagerHealth[] {
    return this.#simulation.jobMaster.taskManagerHealth(this.#simulation.now);
  }

  metrics(): JobMetrics {
    return this.#simulation.metrics();
  }

  checkpointing(): CheckpointingStatisticsDocument {
    return this.#simulation.coordinator.stats.checkpointingStatistics();
  }

  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined {
    return this.#simulation.coordinator.stats.checkpointDetails(id);
  }

  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined {
    return this.#simulation.coordinator.stats.taskCheckpointStatistics(id, vertexId);
  }

  /** Flink's GET …/checkpoints/config; its interval is Long.MAX_VALUE when periodic checkpoints are off. */
  checkpointConfig(): CheckpointConfigDocument {
    return checkpointConfigDocument(this.#simulation.config);
  }

  /** The comparison with the failure-free run; `rowLimit` bounds the per-key rows. */
  output(rowLimit = 50): OutputComparisonView {
    const oracle = this.#reference.oracle;
    return {
      totalRecords: this.#simulation.sinkOutput.totalRecords,
      duplicates: oracle.duplicates,
      missing: oracle.missing,
      referenceRecords: oracle.totalNow,
      keyCount: oracle.keyCount,
      rows: oracle.rows(rowLimit),
    };
  }

  /** The CLI's `--json` document (engine/run/run-report.ts) for the run so far. */
  stats(): PlaygroundStats {
    this.catchUpReference();
    return structuredClone(runReport(this.#simulation, this.#reference.oracle)) as PlaygroundStats;
  }

  expectationInputs(): ExpectationInputs {
    return expectationInputs(this.#simulation, this.#reference.oracle);
  }

  catchUps(): readonly CatchUp[] {
    return catchUpsOf(this.#simulation);
  }

  // ---- read-only views into the running simulation (channel view, storage view, inspector) ----
  // They hand out the engine's own objects so a frame can read them without copying: callers
  // must only read them, and re-read after a restart (tasks and channels are replaced).

  /** The subtasks of the current attempt, in the execution graph's order. */
  get tasks(): readonly StreamTask[] {
    return this.#simulation.tasks;
  }

  /** Every channel of the current execution graph; a channel's id is its index. */
  get channels(): readonly ChannelInfo[] {
    return this.#simulation.graph.channels;
  }

  get config(): FlinkConfig {
    return this.#simulation.config;
  }

  get pendingCheckpoints(): readonly PendingCheckpoint[] {
    return this.#simulation.coordinator.pendingCheckpoints;
  }

  /** The retained completed checkpoints (`execution.checkpointing.num-retained`), oldest first. */
  get retainedCheckpoints(): readonly CompletedCheckpoint[] {
    return this.#simulation.coordinator.store.getAllCheckpoints();
  }

  get savepoints(): readonly CompletedCheckpoint[] {
    return this.#simulation.coordinator.savepoints;
  }

  /** Each host's local disk itself (persistent in IndexedDB on the page). */
  hostLocalDisks(): HostLocalDisk[] {
    return this.#simulation.hostLocalDisks();
  }

  /** What each host's local disk holds (task-local copies). */
  localDisks(): LocalDiskListing[] {
    return this.#simulation.localDisks();
  }

  /** The shared files of incremental checkpoints in remote storage. */
  sharedFiles(): ReturnType<Simulation['coordinator']['sharedState']['files']> {
    return this.#simulation.coordinator.sharedState.files();
  }

  /**
   * The checkpoint directories in remote storage: the completed checkpoints the store keeps, and
   * once the job ended only those retention kept (externalized-checkpoint-retention discarded the
   * rest with the job), as the live driver's listing of its real storage shows them.
   */
  #checkpointsInStorage(): readonly CompletedCheckpoint[] {
    const completed = this.retainedCheckpoints;
    if (!this.isTerminal) return completed;
    const kept = new Set(this.#simulation.retainedCheckpoints);
    return completed.filter((c) => kept.has(c.externalPath));
  }

  /** Local disks and remote checkpoint storage as plain data (a copy: safe to keep). */
  storage(): StorageView {
    const checkpoints = this.#checkpointsInStorage();
    const latest = checkpoints.at(-1);
    return {
      localDisks: this.localDisks(),
      checkpoints: checkpoints.map((c) => checkpointDirectory(c, c === latest)),
      savepoints: this.savepoints.map((c) => checkpointDirectory(c, false)),
      sharedFiles: this.sharedFiles().sort((a, b) => a.createdByCheckpointId - b.createdByCheckpointId || (a.name < b.name ? -1 : 1)),
      localRecovery: this.config.localRecovery,
      database: this.#remote?.view ?? null,
      remoteCost: remoteCostView(this.scenario.costs, this.#simulation.remoteStorageFaults),
    };
  }
}
