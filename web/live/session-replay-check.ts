/**
 * Replays a live session in the sim driver, on the page, and says how the replay compares with
 * the recording: per subtask whether it consumed its inputs in exactly the recorded order, which
 * checkpoints completed, what was restored, and the sinks' output. For browser tests and for
 * people checking that a session replays.
 */
import { subtaskKey, type DeliveryLog, type SubtaskDelivery } from '../../engine/replay/delivery-log.ts';
import { decodeSessionDocument } from '../../engine/replay/session-document.ts';
import { SessionRecorder } from '../../engine/replay/session-recorder.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { JobEvent } from '../../engine/run/job-events.ts';
import type { SinkOutputLog } from '../../engine/run/sink-output-log.ts';
import type { LiveDriver } from '../../workers/live/live-driver.ts';
import { replayOf } from '../../engine/replay/replay-pacer.ts';

export interface ReplayCheck {
  /** the exported document's JSON size */
  documentBytes: number;
  /** the replay's divergence message, when it could not follow the recording */
  divergence: string | null;
  replayStatus: string;
  /** subtask recordings (attempt/vertex#index) in the live session */
  recordedSubtasks: string[];
  /** recordings the replay consumed differently from (neither equal nor a prefix) */
  differingSubtasks: string[];
  /** recordings the replay followed only part of (the live attempt ran on after the fault's time before it was cancelled) */
  prefixSubtasks: string[];
  liveCheckpoints: { triggered: number[]; completed: number[] };
  replayCheckpoints: { triggered: number[]; completed: number[] };
  liveRestores: number[];
  replayRestores: number[];
  liveRecords: number;
  replayRecords: number;
  /** keys whose records, sum or last value differ between the live and the replayed sink */
  differingKeys: string[];
}

/** Exports the driver's session as JSON text, reads it back (validated) and replays it in sim. */
export function replayExportedSession(driver: LiveDriver): ReplayCheck {
  const text = JSON.stringify(driver.exportSession());
  const reading = decodeSessionDocument(text);
  if (!reading.ok) throw new Error(`the exported session does not validate: ${reading.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  const { document, scenario } = reading;
  const recorder = new SessionRecorder();
  const sim = new Simulation({ ...scenario, run: { until_ms: document.recording.endTime } }, { seed: document.seed, replay: replayOf(document.recording), recorder });
  let divergence: string | null = null;
  try {
    sim.runToEnd();
  } catch (error) {
    divergence = error instanceof Error ? error.message : String(error);
  }
  const replayed = recorder.log(sim.now);
  const recorded = document.recording;
  const comparison = compareDeliveries(recorded, replayed);
  return {
    documentBytes: text.length,
    divergence,
    replayStatus: sim.jobStatus,
    recordedSubtasks: recorded.subtasks.map(keyOf),
    ...comparison,
    liveCheckpoints: checkpointsOf(driver.events),
    replayCheckpoints: checkpointsOf(sim.events),
    liveRestores: recorded.restores.map((r) => r.checkpointId),
    replayRestores: replayed.restores.map((r) => r.checkpointId),
    liveRecords: driver.sinkOutput.totalRecords,
    replayRecords: sim.sinkOutput.totalRecords,
    differingKeys: differingKeys(driver.sinkOutput, sim.sinkOutput),
  };
}

function keyOf(d: SubtaskDelivery): string {
  return subtaskKey(d.attempt, d.vertex, d.subtask);
}

function compareDeliveries(recorded: DeliveryLog, replayed: DeliveryLog): { differingSubtasks: string[]; prefixSubtasks: string[] } {
  const replayedByKey = new Map(replayed.subtasks.map((d) => [keyOf(d), d]));
  const differingSubtasks: string[] = [];
  const prefixSubtasks: string[] = [];
  const keys = new Set([...recorded.subtasks.map(keyOf), ...replayed.subtasks.map(keyOf)]);
  for (const key of keys) {
    const live = recorded.subtasks.find((d) => keyOf(d) === key);
    const replay = replayedByKey.get(key);
    if (live && replay && JSON.stringify(live) === JSON.stringify(replay)) continue;
    if (live && isPrefix(replay, live)) prefixSubtasks.push(key);
    else differingSubtasks.push(key);
  }
  return { differingSubtasks, prefixSubtasks };
}

/** The replay consumed the start of what was recorded: every run equal, the last one possibly shorter. */
function isPrefix(replay: SubtaskDelivery | undefined, live: SubtaskDelivery): boolean {
  if (!replay) return true;
  const barriersMatch = replay.barriers.every((b, i) => b === live.barriers[i]);
  return barriersMatch && replay.gates.every((runs, g) => runsArePrefix(runs, live.gates[g] ?? []));
}

function runsArePrefix(mine: number[], of: number[]): boolean {
  if (mine.length > of.length) return false;
  for (let i = 0; i < mine.length; i += 2) {
    const last = i === mine.length - 2;
    if (mine[i] !== of[i]) return false;
    if (mine[i + 1] !== of[i + 1] && !(last && mine[i + 1]! > 0 && mine[i + 1]! < of[i + 1]!)) return false;
  }
  return true;
}

function checkpointsOf(events: readonly JobEvent[]): { triggered: number[]; completed: number[] } {
  return {
    triggered: events.flatMap((e) => (e.type === 'checkpoint-triggered' ? [e.checkpointId] : [])),
    completed: events.flatMap((e) => (e.type === 'checkpoint-completed' ? [e.checkpointId] : [])),
  };
}

function differingKeys(live: SinkOutputLog, replay: SinkOutputLog): string[] {
  const a = live.perKey();
  const b = replay.perKey();
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}
