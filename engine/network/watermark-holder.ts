import type { StreamTask } from '../task/stream-task.ts';

/**
 * The channel with the lowest watermark among the subtask's open inputs, when it has more than
 * one (with one, nothing is held back by a neighbour); -1 otherwise. Both drivers use it: the
 * sim's channel view (web/job-graph/sim-channel-snapshot.ts) reads it every frame, and the live
 * TaskManagers compute it where the tasks run (workers/network-snapshot-encoder.ts).
 */
export function watermarkHolder(task: StreamTask): number {
  let min = Infinity;
  let holder = -1;
  let open = 0;
  for (const gate of task.gates) {
    for (const channel of gate.channels) {
      if (channel.finished) continue;
      open++;
      if (channel.watermark < min) {
        min = channel.watermark;
        holder = channel.channelId;
      }
    }
  }
  return open > 1 ? holder : -1;
}
