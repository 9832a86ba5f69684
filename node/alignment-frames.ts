/**
 * Which moments of a run the README's barrier-alignment GIF shows: one completed checkpoint from
 * a little before its trigger (queues full, no barrier yet) to a little after its last
 * acknowledgement. The span is sampled finely first; the frames are evenly spaced over it, plus
 * every sample where an input is blocked: alignment lasts tens of milliseconds out of more than a
 * second, and evenly spaced frames alone would step over it.
 */

/** The fields of a `checkpoints.history` entry (Flink's REST shape) that frame selection reads. */
export interface CheckpointHistoryEntry {
  id: number;
  status: string;
  is_savepoint: boolean;
  /** run time in the sim, ms */
  trigger_timestamp: number;
  latest_ack_timestamp: number;
}

/** What the channel view showed at a run time (its `data-barriers` and `data-blocked`). */
export interface ChannelSample {
  time: number;
  barriers: number;
  blocked: number;
}

export interface SurveyOptions {
  /** the first checkpoint id that may be shown: the earlier ones start before backpressure built up */
  fromCheckpointId: number;
  /** ms shown before the trigger and after the last acknowledgement */
  marginMs: number;
  /** ms between samples */
  sampleMs: number;
}

/** The earliest completed checkpoint (not a savepoint) from `fromCheckpointId` on, in any order of `history`. */
export function chosenCheckpoint(history: readonly CheckpointHistoryEntry[], fromCheckpointId: number): CheckpointHistoryEntry {
  const candidates = history.filter((c) => c.status === 'COMPLETED' && !c.is_savepoint && c.id >= fromCheckpointId).sort((a, b) => a.id - b.id);
  const chosen = candidates[0];
  if (!chosen) throw new Error(`No completed checkpoint with id ${fromCheckpointId} or higher in the run: run it longer, or lower fromCheckpointId.`);
  return chosen;
}

/** The run times (whole ms, ascending) to sample the chosen checkpoint at, both margins included. */
export function surveyTimes(history: readonly CheckpointHistoryEntry[], options: SurveyOptions): { checkpointId: number; times: number[] } {
  if (!(options.sampleMs > 0)) throw new Error(`sampleMs must be more than 0; got ${options.sampleMs}.`);
  const checkpoint = chosenCheckpoint(history, options.fromCheckpointId);
  const first = Math.max(0, checkpoint.trigger_timestamp - options.marginMs);
  const last = checkpoint.latest_ack_timestamp + options.marginMs;
  const count = Math.floor((last - first) / options.sampleMs) + 1;
  const times = Array.from({ length: count }, (_, i) => Math.round(first + i * options.sampleMs));
  return { checkpointId: checkpoint.id, times: times.at(-1) === last ? times : [...times, last] };
}

/** `count` items of `items` evenly spread, the first and last included (all of them when there are no more). */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  if (count === 1) return [items[0]!];
  const stride = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => items[Math.round(i * stride)]!);
}

/**
 * The frames' run times: `evenFrames` samples evenly spaced from the first to the last (both
 * included), and the samples with a blocked input (at most `aligningFrames` of them, evenly
 * spread), in time order, each once.
 */
export function alignmentFrames(samples: readonly ChannelSample[], evenFrames: number, aligningFrames: number): number[] {
  if (!Number.isInteger(evenFrames) || evenFrames < 2) throw new Error(`evenFrames must be a whole number of at least 2; got ${evenFrames}.`);
  if (samples.length === 0) throw new Error('No samples of the channel view to choose frames from.');
  const even = spread(samples, evenFrames);
  const aligning = spread(samples.filter((s) => s.blocked > 0), aligningFrames);
  return [...new Set([...even, ...aligning].map((s) => s.time))].sort((a, b) => a - b);
}
