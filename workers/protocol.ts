/**
 * The live runtime's wire protocol: every message between the JobManager (main thread) and a
 * TaskManager (a Web Worker), and between TaskManagers. Types only; read top to bottom like a
 * spec. What travels inside (network buffers, barriers, snapshots, deployments) is the engine's
 * own protocol (engine/protocol.ts); this file only says how it moves between threads.
 *
 * Three planes, as in Flink:
 *
 * 1. Control plane, JobManager → TaskManager: RPCs over Comlink on the worker's own port
 *    (`TaskManagerGateway`): register, deploy, trigger, notify, cancel, fail, heartbeat.
 * 2. Reports, TaskManager → JobManager: one `MessagePort` per TaskManager, handed over at
 *    registration, carrying `ReportBatch`es (Flink's TaskExecutor → JobMaster calls:
 *    updateTaskExecutionState, acknowledgeCheckpoint, declineCheckpoint), plus the sink's writes
 *    to the external system (which lives on the main thread, SinkOutputLog), as transferred columns.
 * 3. Data plane, TaskManager ↔ TaskManager: one `MessageChannel` per channel whose ends run in
 *    different TaskManagers, never through the main thread. The sender's port carries buffers
 *    (`BuffersMessage`), the receiver's port carries credit back (`CreditMessage`). A channel
 *    whose ends share a TaskManager is local: no port, delivered in the worker.
 *
 * Every control call and report that belongs to one execution of the job carries its `attempt`
 * (0, then +1 per restart). A TaskManager ignores control calls of an attempt it is not running;
 * the JobManager ignores task reports of an attempt it has failed over from. Data-plane ports are
 * made new for every attempt, so no buffer crosses from one attempt into the next.
 *
 * Liveness: the JobManager learns that a TaskManager died only from its heartbeats. A terminated
 * worker sends nothing, and Chromium (156) fires no `close` event on the ports it held.
 */
import type { TaskRestoreHandles, TaskRestoreRead } from './task-restore-reads.ts';
import type { CheckpointBarrier, EventBuffer, NetworkBuffer, StreamRecord, SubtaskCheckpointMetrics } from '../engine/protocol.ts';
import type { CheckpointFailureReason } from '../engine/checkpoint/checkpoint-failure-reason.ts';
import type { FlinkConfig } from '../engine/config/flink-config.ts';
import type { SubtaskMetrics } from '../engine/metrics/metrics-sampler.ts';
import type { TaskDeployment } from '../engine/task/task-deployment.ts';
import type { CheckpointLocation } from '../engine/storage/checkpoint-layout.ts';
import type { RemoteCostModel } from '../engine/storage/cost-modelled-storage.ts';
import type { SubtaskStateReference } from '../engine/storage/checkpoint-files.ts';
import type { ExecutionState } from '../engine/task/task-lifecycle.ts';
import type { RocksDbLocalDir } from './storage/rocksdb-local-dir.ts';
import type { LocalCopyChecksumKind } from '../engine/recovery/local-disk-store.ts';

// ---- 0. Time ----

/**
 * The job's clock, shared by the JobManager and every TaskManager. Job time (the engine's `now`,
 * ms since the job started) runs at `speed` job ms per wall-clock ms:
 *
 *   jobNow = originJobMs + (wallNow − originWallMs) × speed
 *
 * where wallNow = performance.timeOrigin + performance.now(), a wall-clock reading that threads
 * of one page agree on. A speed change sends a new clock (origin = the moment of the change).
 */
export interface JobClock {
  originWallMs: number;
  originJobMs: number;
  speed: number;
}

// ---- 1. Control plane: JobManager → TaskManager (Comlink) ----

/** Sent once, right after the worker started: who it is, and where to report. */
export interface RegisterRequest {
  taskManagerId: string;
  host: string;
  /** the TaskManager's end of its report channel (transferred); the JobManager keeps the other */
  reportPort: MessagePort;
  /** the job's remote checkpoint storage, which the TaskManager uploads its snapshots to */
  storage: CheckpointStorageSpec;
  /**
   * `state.backend.rocksdb.localdir` of this process: the OPFS directory of its host where its
   * rocksdb working databases live (sent for `state.backend.type: rocksdb` only)
   */
  rocksdbLocalDir?: RocksDbLocalDir;
}

/**
 * Where and how a TaskManager uploads snapshots: an IndexedDB database (the same one the
 * JobManager opens), made to behave like a remote object store (CostModelledStorage with the
 * scenario's remote costs and real sleeps). Costs are in job ms; a sleep lasts cost / clock speed.
 */
export interface CheckpointStorageSpec {
  databaseName: string;
  location: CheckpointLocation;
  remote: RemoteCostModel;
  /** the host's local disk (task-local recovery): a local copy takes this long before it is reported */
  local: { latencyMs: number; bandwidthMbPerS: number };
  /** `execution.checkpointing.local-backup.enabled`: write a secondary local copy of keyed state */
  localBackupEnabled: boolean;
  /**
   * `execution.checkpointing.data-inline-threshold` in bytes: a private state file of at most this
   * size is not written; the acknowledgement carries it and `_metadata` holds it (absent: 0, none).
   */
  dataInlineThresholdBytes?: number;
  /** bytes the store may hold (a full store fails writes with IO_EXCEPTION); default unlimited */
  quotaBytes?: number;
  /** the remote store's fault knobs in force when the TaskManager registers (default: healthy) */
  faults?: RemoteStorageFaults;
}

/**
 * Faults of the remote checkpoint storage (the playground's slow-remote-storage,
 * fail-remote-storage, heal-remote-storage): every process that talks to the store sees them, as
 * every TaskManager of a Flink cluster sees the same S3 or HDFS.
 */
export interface RemoteStorageFaults {
  /** multiplies every request's time (1: as modelled) */
  slowFactor: number;
  /** every write and delete fails with an IOException after its round trip */
  failing: boolean;
}

/** One subtask to run in this TaskManager (Flink's TaskDeploymentDescriptor). */
export interface TaskToDeploy {
  /** the subtask's index in the job's ExecutionGraph (`graph.subtasks`): its name in reports */
  taskIndex: number;
  /** the slot it runs in (`tm-<n>/slot-<k>`): rocksdb backends of one slot share its managed memory */
  slotId: string;
  deployment: TaskDeployment;
  /** where the TaskManager reads its share itself (its host's disk first, then remote storage), no state bytes; absent on a fresh start */
  restoreHandles?: TaskRestoreHandles;
  /** processing-time factor of `slowOperator` (1 = normal) */
  slowdown: number;
}

/** A data-plane port handed to the TaskManager that holds one end of a remote channel. */
export interface ChannelPort {
  channelId: number;
  /** `sender`: this TaskManager runs the channel's upstream subtask (it posts buffers, gets credit) */
  end: 'sender' | 'receiver';
  port: MessagePort;
}

/**
 * Deploys one execution attempt: every subtask of the job placed in this TaskManager's slots,
 * and the ports of their remote channels (transferred). Channels not listed have both ends here.
 */
export interface DeployRequest {
  attempt: number;
  clock: JobClock;
  /**
   * The job's Flink configuration: `state.backend.type` and the rocksdb options choose and size
   * the keyed state backends (the heap one, or the LSM tree on wa-sqlite loaded in the worker).
   */
  config: FlinkConfig;
  tasks: TaskToDeploy[];
  ports: ChannelPort[];
}

/** The subtasks now RUNNING here (their state restored, when there was one). */
export interface DeployResult {
  taskIndexes: number[];
  /** how each subtask deployed with `restoreHandles` read its state (absent: none was) */
  restores?: Array<{ taskIndex: number } & Omit<TaskRestoreRead, 'restore'>>;
}

/** What a TaskManager answers to a heartbeat (Flink's heartbeat payload: the task metrics). */
export interface HeartbeatPayload {
  taskManagerId: string;
  /** job time of the sample */
  time: number;
  /** the attempt the TaskManager is running (-1: none) */
  attempt: number;
  subtasks: Array<SubtaskMetrics & { taskIndex: number }>;
  /** the running attempt's rocksdb working database on the host's disk (OPFS path, bytes), when it has one */
  rocksdbWorkingDb?: { path: string; bytes: number };
}

/**
 * What the JobManager calls on a TaskManager. Every call is a Comlink RPC and returns a Promise
 * (a call to a terminated worker never settles: the JobManager learns of the loss from missed
 * heartbeats, never from a call).
 */
export interface TaskManagerGateway {
  register(request: RegisterRequest): { taskManagerId: string };
  /** answers once every subtask runs (after loading wa-sqlite first, for the first rocksdb deployment) */
  deploy(request: DeployRequest): DeployResult | Promise<DeployResult>;
  /** inject a barrier at a subtask (Flink's triggerCheckpoint, for sources) */
  triggerCheckpoint(attempt: number, taskIndex: number, barrier: CheckpointBarrier): void;
  /** a checkpoint completed (commit) or was aborted; every subtask of the attempt hears it */
  notifyCheckpoint(attempt: number, checkpointId: number, outcome: 'complete' | 'aborted'): void;
  /** failover: stop every subtask of the attempt and close its ports; in-flight data is dropped */
  cancel(attempt: number): void;
  /** an injected failure: the subtask fails as if its operator threw (it reports `task-state` FAILED) */
  failTask(attempt: number, taskIndex: number, cause: string): void;
  slowOperator(vertexId: string, factor: number): void;
  /**
   * An injected hang (a long GC pause, a deadlock): the process stays alive but stops answering:
   * no more scheduling turns, heartbeats, reports or data-plane traffic. Only the JobManager's
   * heartbeat.timeout notices it; the process then is terminated like a dead one.
   */
  stall(): void;
  /** the remote checkpoint storage turned slow, failing, or healthy again */
  setRemoteStorageFaults(faults: RemoteStorageFaults): void;
  /**
   * The host's disk lacks these shared runs a local copy of the subtask referenced (a fault
   * deleted them): its next copy sends them again instead of linking what is no longer there.
   */
  resendLocalRuns(attempt: number, taskIndex: number, runs: string[]): void;
  setClock(clock: JobClock): void;
  /** answers with the task metrics; a stalled TaskManager never answers */
  heartbeat(seq: number): HeartbeatPayload | Promise<HeartbeatPayload>;
}

// ---- 2. Reports: TaskManager → JobManager (the report port) ----

/**
 * One thing a TaskManager tells the JobManager. The task ones (`task-state` … `decline-checkpoint`)
 * are dropped by the JobManager when their attempt is not the current one; the sink's writes are
 * kept whatever their attempt, because the external system took them when they were sent.
 */
export type TaskManagerReport =
  /**
   * The subtask's execution state changed (RUNNING after deploy, FINISHED, FAILED with a cause).
   * FINISHED carries what later checkpoints record for the subtask (its finished operator state).
   */
  | { type: 'task-state'; attempt: number; taskIndex: number; state: ExecutionState; cause?: string; finalSnapshot?: EncodedSnapshot }
  /**
   * The asynchronous part of a snapshot is done: the TaskManager wrote its files to remote
   * checkpoint storage (`reference` says where), off the task loop, and acknowledges (Flink's
   * acknowledgeCheckpoint with the state handle). Sent only after the write succeeded; a failed
   * write is a `decline-checkpoint` instead. Sent whatever became of the attempt meanwhile, so the
   * JobManager can delete files nobody will use.
   */
  | {
      type: 'acknowledge-checkpoint';
      attempt: number;
      taskIndex: number;
      checkpointId: number;
      /** the snapshot's state handle (state-handle.ts): sizes and small operator state, never keyed or channel state */
      snapshot: EncodedSnapshot;
      reference: SubtaskStateReference;
      metrics: SubtaskCheckpointMetrics;
    }
  /** a secondary copy of the snapshot is now on the host's local disk (task-local recovery) */
  | {
      type: 'local-copy';
      attempt: number;
      taskIndex: number;
      checkpointId: number;
      snapshot: EncodedSnapshot;
      /** of `snapshot`'s bytes, computed where it was taken (local-copy-digest.ts): the disk stores the bytes as they are, and the TaskManager that reads them back checks them */
      checksum: string;
      /** 'xxh64' (xxhash-wasm) */
      checksumOf: LocalCopyChecksumKind;
      /** its state size (bytes on the disk) */
      bytes: number;
      /** an incremental snapshot: every shared run the copy references (`snapshot` holds them as handles) */
      runs?: Array<{ name: string; sizeBytes: number }>;
      /** of those, the runs sent now (encodeSharedFile, with fnv1a32Bytes of the bytes): the disk links the others it holds */
      /** each with the XXH64 of `encoded` (`checksumOf: 'xxh64'`) */
      newRuns?: Array<{ name: string; bytes: number; encoded: Uint8Array; checksum: string; checksumOf: 'xxh64' }>;
    }
  /** the subtask declined a checkpoint (Flink's declineCheckpoint); `cause`: the error behind it (a failed upload's) */
  | { type: 'decline-checkpoint'; attempt: number; taskIndex: number; checkpointId: number; reason: CheckpointFailureReason; cause?: string }
  /** a plain sink wrote records to the external system (every write of one scheduling turn, in order) */
  | { type: 'sink-output'; attempt: number; taskIndex: number; records: SinkOutputColumns }
  /** a two-phase-commit sink committed a transaction (the external system ignores an id it has) */
  | { type: 'sink-commit'; attempt: number; taskIndex: number; transactionId: string; records: SinkRecordColumns }
  /** what a subtask consumed since its last report, in order (engine/replay/delivery-recorder.ts), once per turn at most */
  | { type: 'delivery-order'; attempt: number; taskIndex: number; vertexId: string; subtaskIndex: number; gates: number[][]; barriers: number[]; aborts: number[]; watermarks: number[] };

/**
 * Records column by column: the numbers in typed arrays whose buffers are transferred with their
 * message, each distinct key once. Record i is (keyNames[keys[i]], values[i], timestamps[i]).
 * Data buffers between TaskManagers carry them (network-buffer-columns.ts), and so do the sink's
 * writes to the main thread (sink-record-columns.ts).
 */
export interface RecordColumns {
  keyNames: string[];
  keys: Uint32Array;
  values: Float64Array;
  timestamps: Float64Array;
}

/** Records for the sink's external system, with the report batch: a batch on its own (a committed transaction's). */
export type SinkRecordColumns = RecordColumns;

/**
 * A plain sink's writes of one turn (sink-output-columns.ts): `keyNames` holds only the keys the
 * TaskManager's report port has not carried before; `keys` index every name the port carried so
 * far, in the order named. The receiver must follow every batch of the port, in order.
 */
export type SinkOutputColumns = RecordColumns;

/** A TaskStateSnapshot through snapshot-codec (encodeTaskStateSnapshot): no structured-clone surprises. */
export type EncodedSnapshot = Uint8Array;

/** What a TaskManager posts on its report port: the reports of one scheduling turn, in order. */
export interface ReportBatch {
  taskManagerId: string;
  reports: TaskManagerReport[];
  /** its subtasks' channel queues, at most ~10 times a second (for the channel view) */
  network?: NetworkSnapshot;
}

/**
 * The network state of a TaskManager's subtasks at one moment, for the channel view: every
 * channel end it hosts (a sender's ResultSubpartition backlog, a receiver's InputChannel queue)
 * with its queued items in order, next to go first. Columns of typed arrays, transferred.
 * Items of end e are items `itemStart[e]` up to (not including) `itemStart[e + 1]`.
 */
export interface NetworkSnapshot {
  attempt: number;
  /** job time it was taken */
  time: number;
  // ---- per channel end ----
  channelIds: Int32Array;
  /** 0: sender (ResultSubpartition), 1: receiver (InputChannel) */
  ends: Uint8Array;
  /** NETWORK_END_BLOCKED | NETWORK_END_FINISHED | NETWORK_END_HOLDS_WATERMARK (receivers only) */
  endFlags: Uint8Array;
  itemStart: Uint32Array;
  // ---- per queued item ----
  /** ItemKind codes (engine/network/channel-item-kind.ts): data, persisted, barrier, priority barrier, cancel marker, end of partition */
  kinds: Uint8Array;
  /** the item's identity: stable while it stays queued in this TaskManager (unique per TaskManager and attempt) */
  seqs: Uint32Array;
  /** a barrier's or cancel marker's checkpoint id; persisted data: the checkpoint whose channel state holds it; else 0 */
  checkpointIds: Uint32Array;
  /** data: the watermark that follows its records (NaN: none); a barrier: its timestamp */
  values: Float64Array;
  /** data: records in it */
  records: Uint32Array;
  sizeBytes: Uint32Array;
  /** a barrier: NETWORK_ITEM_SAVEPOINT, NETWORK_ITEM_AT_LEAST_ONCE (network-snapshot-encoder.ts) */
  itemFlags: Uint8Array;
  /** data: its first and last record, at 2i and 2i + 1 (null for events and empty buffers); cloned, not transferred */
  edgeRecords: (StreamRecord | null)[];
}

// ---- 3. Data plane: TaskManager ↔ TaskManager (one MessageChannel per remote channel) ----

/**
 * Sender → receiver: network buffers of one channel, in the order the subtask sent them. One
 * message carries the buffers a subtask sent on the channel during one scheduling turn (each
 * buffer took one credit, as in Flink's credit-based flow control). The records of its data
 * buffers travel in columns after them (network-buffer-columns.ts), as Flink serializes records
 * into a buffer's bytes rather than sending objects.
 */
export interface BuffersMessage {
  kind: 'buffers';
  channelId: number;
  buffers: WireBuffer[];
  /**
   * the records of every data buffer, in order: buffer i's are the next `recordCount` of them.
   * Here `keyNames` holds only the names the channel has not carried before, in the order they
   * were numbered; `keys` index every name the channel carried so far (network-buffer-columns.ts).
   */
  records: RecordColumns;
}

/** A network buffer on the wire: an event as it is, a data buffer as its record count and trailer. */
export type WireBuffer = EventBuffer | { kind: 'data'; recordCount: number; sizeBytes: number; watermark?: number };

/** Receiver → sender: credit returned for buffers the receiving subtask consumed. */
export interface CreditMessage {
  kind: 'credit';
  channelId: number;
  credits: number;
  /** the receiver processed the channel's end-of-data (the sender may then finish) */
  endOfDataProcessed?: true;
}

export type DataPlaneMessage = BuffersMessage | CreditMessage;
