import type { JobEvent, SubtaskRestore } from '../../engine/run/job-events.ts';

/**
 * A run's job-level event sequence, without times: status transitions, faults, failed tasks,
 * restores with each subtask's source and reason and each of its state handles' source, and the checkpoints completed and failed. Two
 * runtimes that run the same JobMaster on the same inputs produce the same sequence.
 */
export function jobLevelEvents(events: readonly JobEvent[]): string[] {
  return events.flatMap((e): string[] => {
    switch (e.type) {
      case 'job-status':
        return [`status ${e.status}${e.message ? ` (${e.message})` : ''}`];
      case 'fault':
        return [`fault ${e.fault?.kind ?? e.description}`];
      case 'fault-not-applied':
        return [`not applied ${e.faultType}: ${e.reason}`];
      case 'task-failed':
        return [`task failed ${e.vertexId}#${e.subtaskIndex}: ${e.cause}`];
      case 'restore':
        return [`restore ${e.restore.checkpointId}: ${e.restore.subtasks.map((s) => `${s.vertexId}#${s.subtaskIndex} ${s.source}${s.reason ? ` ${s.reason}` : ''}${handlesOf(s)}`).join(', ')}`];
      case 'checkpoint-completed':
        return [`checkpoint ${e.checkpointId} completed`];
      case 'checkpoint-failed':
        return [`checkpoint ${e.checkpointId} failed: ${e.reason}`];
      default:
        return [];
    }
  });
}

/** Per state handle of a restored subtask, its kind, key groups and source (and reason), as both runtimes report them. */
function handlesOf(s: SubtaskRestore): string {
  const handles = (s.handles ?? []).map((h) => `${h.kind}${h.keyGroupRange ? ` ${h.keyGroupRange.start}-${h.keyGroupRange.end}` : ''} ${h.source}${h.reason ? ` ${h.reason}` : ''}`);
  return ` [${handles.join('; ')}]`;
}

/** The first place two sequences differ, said so a failing test names the event. */
export function firstDifference(a: readonly string[], b: readonly string[], names: [string, string]): string | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) continue;
    return `event ${i} differs: ${names[0]} has ${a[i] === undefined ? 'nothing more' : JSON.stringify(a[i])}, ${names[1]} has ${b[i] === undefined ? 'nothing more' : JSON.stringify(b[i])}`;
  }
  return undefined;
}
