/**
 * The run as a timeline, from the job events: one bar per checkpoint from its trigger to its
 * completion or failure, the min-pause after each completed one, the gaps between consecutive
 * checkpoints, faults (and scheduled faults that could not be carried out), restores, the
 * time the job was not running, and the time a TaskManager was silent before the JobManager
 * declared it lost.
 *
 * It answers the question of the tuning guides: "compare the start times of consecutive
 * checkpoints: is there a gap?" A job whose checkpoints take longer than the interval is always
 * checkpointing: each periodic checkpoint starts the moment the previous one ends, and the gaps
 * are zero. With `execution.checkpointing.min-pause` there is at least that much room after each.
 *
 * Pure data, no DOM, so it can be checked without a browser.
 */
import type { JobEvent } from '../../engine/run/job-events.ts';
import type { FaultDetail } from '../../engine/run/fault-event.ts';
import type { EngineMessage } from '../../engine/messages/message-codes.ts';

export type TimelineCheckpointStatus = 'COMPLETED' | 'FAILED' | 'IN_PROGRESS';

export interface TimelineCheckpoint {
  id: number;
  isSavepoint: boolean;
  start: number;
  /** completion or failure time; `now` while in progress */
  end: number;
  status: TimelineCheckpointStatus;
  /** Flink's CheckpointFailureReason, for failed ones */
  reason?: string;
  /** row of the bar: concurrent checkpoints (and savepoints beside them) get their own rows */
  lane: number;
}

/** Between the end of one periodic checkpoint and the start of the next. */
export interface CheckpointGap {
  afterId: number;
  beforeId: number;
  from: number;
  /** 0 or less: the next one started before (or the moment) the previous one ended */
  length: number;
}

/**
 * A TaskManager that answered no heartbeat: from its `stall-task-manager` fault until the JobMaster
 * declared it lost (the failover's cause `Heartbeat of TaskManager with id <tm> timed out.`, at
 * exactly from + heartbeat.timeout in the sim). `open` while the run has not got there yet: `to`
 * is then the run's current time.
 */
export interface UnresponsiveSpan {
  taskManager: string;
  from: number;
  to: number;
  open: boolean;
  heartbeatTimeoutMs: number;
}

/** The JobMaster's cause when heartbeat.timeout passed (engine/job/job-master.ts, as Flink words it). */
const HEARTBEAT_TIMED_OUT = /Heartbeat of TaskManager with id (\S+) timed out\./;

export interface TimelineModel {
  checkpoints: TimelineCheckpoint[];
  lanes: number;
  /** `execution.checkpointing.min-pause` after each completed checkpoint or savepoint (Flink counts both) */
  pauses: { from: number; to: number; afterId: number }[];
  gaps: CheckpointGap[];
  /** `fault`: the event's data, for the UI's language (web/i18n/fault-text.ts) */
  faults: { time: number; description: string; fault?: FaultDetail }[];
  /** `fault-not-applied`: a scheduled fault refused when it came due, and the engine's reason (English) */
  notApplied: { time: number; faultType: string; reason: string; problem?: EngineMessage }[];
  taskFailures: { time: number; vertexId: string; subtaskIndex: number }[];
  restores: { time: number; checkpointId: number; isSavepoint: boolean }[];
  /** requests that ended before a checkpoint existed: the decider's drops (min-pause), and refused triggers (failed checkpoints without an id) */
  dropped: { time: number; reason: string; isSavepoint: boolean }[];
  /** spans in which the job was not RUNNING (RESTARTING, FAILING, FAILED, …) */
  outages: { from: number; to: number; status: string }[];
  /** per TaskManager: silent from its stall until the JobManager declared it lost */
  unresponsive: UnresponsiveSpan[];
  now: number;
}

export function buildTimeline(events: readonly JobEvent[], now: number, minPauseMs: number): TimelineModel {
  const byId = new Map<number, TimelineCheckpoint>();
  const model: TimelineModel = {
    checkpoints: [],
    lanes: 1,
    pauses: [],
    gaps: [],
    faults: [],
    notApplied: [],
    taskFailures: [],
    restores: [],
    dropped: [],
    outages: [],
    unresponsive: [],
    now,
  };
  let outage: { from: number; status: string } | null = null;
  /** stalled TaskManagers not yet declared lost */
  const silent = new Map<string, UnresponsiveSpan>();
  const declaredLost = (taskManager: string, time: number) => {
    const span = silent.get(taskManager);
    if (!span) return;
    span.to = time;
    span.open = false;
    silent.delete(taskManager);
  };
  for (const event of events) {
    // Lost at heartbeat.timeout even without a failover to say so (no tasks on it, or the job already restarting).
    for (const span of [...silent.values()]) {
      if (event.time > span.from + span.heartbeatTimeoutMs) declaredLost(span.taskManager, span.from + span.heartbeatTimeoutMs);
    }
    const lostByHeartbeat = event.type === 'task-failed' ? event.cause : event.type === 'job-status' ? event.message : undefined;
    const lost = lostByHeartbeat === undefined ? null : HEARTBEAT_TIMED_OUT.exec(lostByHeartbeat);
    if (lost) declaredLost(lost[1]!, event.time);
    switch (event.type) {
      case 'checkpoint-triggered': {
        const checkpoint: TimelineCheckpoint = { id: event.checkpointId, isSavepoint: event.isSavepoint, start: event.time, end: now, status: 'IN_PROGRESS', lane: 0 };
        byId.set(event.checkpointId, checkpoint);
        model.checkpoints.push(checkpoint);
        break;
      }
      case 'checkpoint-completed':
        close(byId.get(event.checkpointId), event.time, 'COMPLETED');
        break;
      case 'checkpoint-failed':
        close(byId.get(event.checkpointId), event.time, 'FAILED', event.reason);
        break;
      case 'checkpoint-request-dropped':
        model.dropped.push({ time: event.time, reason: event.reason, isSavepoint: event.isSavepoint ?? false });
        break;
      case 'fault':
        model.faults.push({ time: event.time, description: event.description, ...(event.fault ? { fault: event.fault } : {}) });
        if (event.fault?.kind === 'stall-task-manager' && !silent.has(event.fault.taskManager)) {
          const span: UnresponsiveSpan = { taskManager: event.fault.taskManager, from: event.time, to: now, open: true, heartbeatTimeoutMs: event.fault.heartbeatTimeoutMs };
          silent.set(span.taskManager, span);
          model.unresponsive.push(span);
        }
        break;
      case 'fault-not-applied':
        model.notApplied.push({ time: event.time, faultType: event.faultType, reason: event.reason, ...(event.problem ? { problem: event.problem } : {}) });
        break;
      case 'task-failed':
        model.taskFailures.push({ time: event.time, vertexId: event.vertexId, subtaskIndex: event.subtaskIndex });
        break;
      case 'restore':
        model.restores.push({ time: event.time, checkpointId: event.restore.checkpointId, isSavepoint: event.restore.isSavepoint });
        break;
      case 'job-status':
        if (event.status === 'RUNNING' || event.status === 'CREATED') {
          if (outage) model.outages.push({ from: outage.from, to: event.time, status: outage.status });
          outage = null;
        } else if (!outage) {
          outage = { from: event.time, status: event.status };
        }
        break;
    }
  }
  if (outage) model.outages.push({ from: outage.from, to: now, status: outage.status });
  for (const span of silent.values()) {
    // Past heartbeat.timeout the JobMaster declared it lost; before it, it is still silent now.
    if (now >= span.from + span.heartbeatTimeoutMs) declaredLost(span.taskManager, span.from + span.heartbeatTimeoutMs);
  }
  model.lanes = assignLanes(model.checkpoints);
  model.pauses = minPauseMs > 0
    ? model.checkpoints.filter((c) => c.status === 'COMPLETED').map((c) => ({ from: c.end, to: c.end + minPauseMs, afterId: c.id }))
    : [];
  model.gaps = gapsBetween(model.checkpoints.filter((c) => !c.isSavepoint));
  return model;
}

function close(checkpoint: TimelineCheckpoint | undefined, time: number, status: TimelineCheckpointStatus, reason?: string): void {
  if (!checkpoint || checkpoint.status !== 'IN_PROGRESS') return;
  checkpoint.end = time;
  checkpoint.status = status;
  if (reason !== undefined) checkpoint.reason = reason;
}

/** Greedy interval colouring in start order: a bar goes in the first row free at its start. */
function assignLanes(checkpoints: TimelineCheckpoint[]): number {
  const laneEnds: number[] = [];
  for (const checkpoint of [...checkpoints].sort((a, b) => a.start - b.start || a.id - b.id)) {
    let lane = laneEnds.findIndex((end) => end <= checkpoint.start);
    if (lane < 0) lane = laneEnds.length;
    laneEnds[lane] = Math.max(checkpoint.end, checkpoint.start);
    checkpoint.lane = lane;
  }
  return Math.max(1, laneEnds.length);
}

function gapsBetween(periodic: readonly TimelineCheckpoint[]): CheckpointGap[] {
  const sorted = [...periodic].sort((a, b) => a.start - b.start || a.id - b.id);
  const gaps: CheckpointGap[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const next = sorted[i]!;
    if (previous.status === 'IN_PROGRESS') continue;
    gaps.push({ afterId: previous.id, beforeId: next.id, from: previous.end, length: next.start - previous.end });
  }
  return gaps;
}

/** Share of [from, to] during which at least one checkpoint was in progress, 0…1. */
export function checkpointingShare(model: TimelineModel, from: number, to: number): number {
  if (to <= from) return 0;
  const spans = model.checkpoints
    .map((c) => [Math.max(c.start, from), Math.min(c.end, to)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let reach = from;
  for (const [a, b] of spans) {
    if (b <= reach) continue;
    covered += b - Math.max(a, reach);
    reach = b;
  }
  return covered / (to - from);
}

/** The smallest gap between consecutive periodic checkpoints that ended within [from, to]; undefined when none. */
export function shortestGap(model: TimelineModel, from: number, to: number): CheckpointGap | undefined {
  let best: CheckpointGap | undefined;
  for (const gap of model.gaps) {
    if (gap.from < from || gap.from > to) continue;
    if (!best || gap.length < best.length) best = gap;
  }
  return best;
}
