/**
 * The wire protocol: every element that travels between subtasks, and every input a task takes
 * and effect it returns. Types only; read top to bottom like a spec.
 *
 * Flink's data plane carries network buffers. A data buffer holds serialized stream elements
 * (records, and watermarks inline with them); an event buffer holds one event (a checkpoint
 * barrier, a cancellation marker, end-of-data, end-of-partition). Each buffer, data or event, takes one
 * credit from the receiving channel, as in Flink's credit-based flow control.
 */
import type { CheckpointFailureReason } from './checkpoint/checkpoint-failure-reason.ts';
import type { CompletedCheckpoint } from './checkpoint/completed-checkpoint.ts';

/** One record. Keys are strings (Java `String.hashCode` decides their key group); values numbers. */
export interface StreamRecord {
  key: string;
  value: number;
  /** event time, milliseconds */
  timestamp: number;
}

/** How a subtask aligns barriers for a checkpoint (Flink's `CheckpointOptions.AlignmentType`). */
export type AlignmentType = 'AT_LEAST_ONCE' | 'ALIGNED' | 'UNALIGNED' | 'FORCED_ALIGNED';

/** Flink's `CheckpointType` as the REST API prints it. */
export type CheckpointKind = 'CHECKPOINT' | 'UNALIGNED_CHECKPOINT' | 'SAVEPOINT';

export interface CheckpointBarrier {
  kind: 'barrier';
  checkpointId: number;
  /** when the coordinator created the checkpoint (virtual ms); start delay is measured from it */
  timestamp: number;
  checkpointKind: CheckpointKind;
  alignment: AlignmentType;
  /** for aligned checkpoints with an aligned-checkpoint-timeout: switch to unaligned at this time */
  alignedTimeoutAt?: number;
  /**
   * A checkpoint triggered with checkpointType FULL (Flink's CheckpointType.FULL_CHECKPOINT,
   * SharingFilesStrategy.FORWARD): an incremental backend reuses no file of an earlier checkpoint,
   * while later checkpoints may build on the files it uploads. Absent: as configured.
   */
  checkpointType?: 'FULL';
  /**
   * The synchronous savepoint of stop-with-savepoint (Flink's SavepointType TERMINATE with drain,
   * SUSPEND without; StopMode of the EndOfData that follows): a source stops after injecting it
   * (with DRAIN after MAX_WATERMARK, so every event-time timer fires first), and each task
   * finishes once it completes, its sink having committed what it covers. Absent: not a stop.
   */
  stopMode?: StopMode;
}

/** Flink's StopMode: whether stop-with-savepoint drains the pipeline (`--drain`) first. */
export type StopMode = 'DRAIN' | 'NO_DRAIN';

/** Sent downstream instead of a barrier when a task declined or abandoned a checkpoint. */
export interface CancelCheckpointMarker {
  kind: 'cancel-checkpoint';
  checkpointId: number;
}

/**
 * The upstream subtask's input ended and its operators finished (Flink's EndOfData, FLIP-147): no
 * more records come on this channel, but barriers still do until its end-of-partition, so the
 * channel keeps taking part in checkpoints (the final one among them).
 */
export interface EndOfData {
  kind: 'end-of-data';
}

/** The upstream subtask has finished: no more buffers will come on this channel. */
export interface EndOfPartition {
  kind: 'end-of-partition';
}

export type StreamEvent = CheckpointBarrier | CancelCheckpointMarker | EndOfData | EndOfPartition;

/** A network buffer of records, possibly closed by a watermark that follows them. */
export interface DataBuffer {
  kind: 'data';
  records: StreamRecord[];
  /** a watermark that follows the records in the stream (Flink serializes it inline) */
  watermark?: number;
  /** serialized size in bytes, for in-flight data figures */
  sizeBytes: number;
}

export interface EventBuffer {
  kind: 'event';
  event: StreamEvent;
  sizeBytes: number;
  /** unaligned barriers are priority events: they overtake the buffers queued before them */
  priority: boolean;
}

export type NetworkBuffer = DataBuffer | EventBuffer;

/** Address of one subtask: a vertex id and a subtask index (Flink's `ExecutionVertexID`). */
export interface SubtaskId {
  vertexId: string;
  subtaskIndex: number;
}

/** In-flight buffers persisted by an unaligned checkpoint (Flink's channel state). */
export interface ChannelState {
  /** input channels: (gate, channel index) → buffers to replay into the operator on restore */
  inputs: Array<{ gate: number; channel: number; buffers: DataBuffer[] }>;
  /** output subpartitions: channel id → buffers to send again on restore */
  outputs: Array<{ channelId: number; buffers: DataBuffer[] }>;
}

/** A shared file of an incremental checkpoint (Flink's shared state handle). */
export interface SharedFileHandle {
  name: string;
  sizeBytes: number;
  /** present when this checkpoint uploaded the file; absent when it reuses one uploaded before */
  contents?: unknown;
}

/** A pre-committed transaction of a two-phase-commit sink, kept in its state until committed. */
export interface SinkTransaction {
  /** unique and stable: committing the same id twice writes once (as Kafka transactions do) */
  id: string;
  checkpointId: number;
  records: StreamRecord[];
}

/**
 * What one subtask's snapshot holds (Flink's TaskStateSnapshot / OperatorSubtaskState).
 * Keyed state is typed by the backend (engine/state/keyed-state-backend.ts) and kept opaque here.
 */
export interface TaskStateSnapshot {
  subtask: SubtaskId;
  /** source subtasks: the split offset to resume from */
  sourceOffset?: number;
  keyedState?: unknown;
  /** two-phase-commit sinks: pre-committed transactions not yet known to be committed */
  pendingTransactions?: SinkTransaction[];
  channelState?: ChannelState;
  /**
   * Shared files this snapshot refers to (incremental RocksDB-style checkpoints: the SST runs).
   * A file this checkpoint uploaded carries its contents; a reused one only its name.
   */
  sharedFiles?: SharedFileHandle[];
  /** the subtask had finished (Flink's fully-finished operator state) */
  finished?: boolean;
  /** bytes of the full snapshot (state_size) */
  stateSize: number;
  /** bytes this checkpoint wrote (checkpointed_size; the delta when incremental) */
  checkpointedSize: number;
}

/** Per subtask figures of one checkpoint, measured as Flink measures them. */
export interface SubtaskCheckpointMetrics {
  /** barrier creation → first barrier at this subtask */
  startDelayMs: number;
  /** first → last barrier */
  alignmentDurationMs: number;
  syncDurationMs: number;
  /** bytes processed while aligning */
  processedDataBytes: number;
  /** in-flight bytes persisted (unaligned) */
  persistedDataBytes: number;
  unalignedCheckpoint: boolean;
  /** when the synchronous part ended; the driver measures the asynchronous part from here */
  syncEndTime: number;
}

/**
 * An effect a task asks its driver to carry out. The sim driver turns each into an event on its
 * queue; the live driver (Web Workers) into a postMessage on a MessageChannel.
 */
export type TaskEffect =
  /** put a buffer on an output channel (the task already spent one credit for it) */
  | { type: 'send'; channelId: number; buffer: NetworkBuffer }
  /** return credit to the sender of an input channel after a buffer was consumed (priority events took none) */
  /**
   * credit returned for consumed buffers; `endOfDataProcessed`: the receiver has processed the
   * channel's end-of-data (Flink's EndOfData acknowledgement behind getAllDataProcessedFuture)
   */
  | { type: 'credit'; channelId: number; credits: number; endOfDataProcessed?: true }
  /** records written to the sink's external system at once (a plain sink) */
  | { type: 'sink-output'; records: StreamRecord[] }
  /** a two-phase-commit sink commits a transaction; the external system ignores an id it committed already */
  | { type: 'sink-commit'; transaction: SinkTransaction }
  /** the synchronous part of a snapshot is done: upload it (the asynchronous part), then acknowledge */
  | { type: 'persist-snapshot'; checkpointId: number; snapshot: TaskStateSnapshot; metrics: SubtaskCheckpointMetrics }
  /** the task cannot take part in this checkpoint (Flink's declineCheckpoint) */
  | { type: 'decline-checkpoint'; checkpointId: number; reason: CheckpointFailureReason };

/**
 * What a task did on one `poll`: processed something and is busy until `until`, or is blocked
 * because its output has no room (backpressured), or has nothing to do (idle), perhaps until a
 * known time (a source's next record, a flush timeout), or has finished.
 */
export type PollOutcome =
  | { status: 'busy'; until: number }
  | { status: 'backpressured' }
  | { status: 'idle'; wakeAt?: number }
  | { status: 'finished' };

/** A timer the checkpoint coordinator asks its driver to fire. */
export type CoordinatorTimer =
  /** the periodic trigger; a timer of an older generation was cancelled by a reschedule */
  | { kind: 'periodic'; generation: number }
  /** execution.checkpointing.timeout of one checkpoint */
  | { kind: 'timeout'; checkpointId: number };

/**
 * An effect of the checkpoint coordinator (the JobManager side), carried out by the driver:
 * RPCs to tasks, timers, and what the job must learn.
 */
export type CoordinatorEffect =
  /** inject a barrier at this subtask (a source, or a task whose inputs have all ended) */
  | { type: 'trigger-task'; subtask: SubtaskId; barrier: CheckpointBarrier }
  /**
   * every subtask acknowledged: write the checkpoint's `_metadata`, then report the outcome
   * (only with the coordinator's `finalizeAsync`)
   */
  | { type: 'finalize-checkpoint'; checkpoint: CompletedCheckpoint }
  /** tell every task that a checkpoint completed (commit what it covers) */
  | { type: 'notify-complete'; checkpointId: number }
  /** tell every task that a checkpoint was aborted */
  | { type: 'notify-aborted'; checkpointId: number }
  | { type: 'schedule'; at: number; timer: CoordinatorTimer }
  /** too many checkpoints failed in a row: the job fails with Flink's message */
  | { type: 'fail-job'; message: string }
  /** a completed checkpoint was subsumed (or a failed one dropped): its files may be deleted */
  | { type: 'discard-checkpoint'; checkpointId: number }
  /** the SharedStateRegistry let go of these shared files (incremental checkpoints' runs): no checkpoint refers to them */
  | { type: 'discard-shared-files'; names: string[] }
  /** for listeners (timeline, API events): a checkpoint started, completed, failed, or a request was dropped */
  | {
      type: 'checkpoint-status';
      status: 'triggered' | 'completed' | 'failed' | 'dropped';
      checkpointId: number | null;
      isSavepoint: boolean;
      reason?: string;
      /** stop-with-savepoint's savepoint: its failure lets the job run on (the JobMaster resumes checkpointing) */
      synchronous?: boolean;
      /** a checkpoint triggered with checkpointType FULL (on `triggered`), so a recording replays it as one */
      checkpointType?: 'FULL';
    };
