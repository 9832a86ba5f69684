/**
 * The README GIF's frame selection (node/alignment-frames.ts): which checkpoint it shows, the run
 * times the channel view is sampled at, and which samples become frames.
 */
import { describe, expect, it } from 'vitest';
import { alignmentFrames, surveyTimes, type ChannelSample, type CheckpointHistoryEntry } from '../../node/alignment-frames.ts';

const checkpoint = (id: number, status: string, trigger: number, ack: number, isSavepoint = false): CheckpointHistoryEntry => ({
  id,
  status,
  is_savepoint: isSavepoint,
  trigger_timestamp: trigger,
  latest_ack_timestamp: ack,
});

/** newest first, as Flink's `checkpoints.history` */
const HISTORY = [
  checkpoint(6, 'IN_PROGRESS', 5500, 5550),
  checkpoint(5, 'COMPLETED', 4300, 4500),
  checkpoint(4, 'COMPLETED', 3000, 4200, true),
  checkpoint(3, 'FAILED', 2000, 2900),
  checkpoint(2, 'COMPLETED', 1000, 1500),
  checkpoint(1, 'COMPLETED', 0, 25),
];

/** samples every 10 ms from 0 to 100, inputs blocked at the times given */
function samples(blockedAt: number[]): ChannelSample[] {
  return Array.from({ length: 11 }, (_, i) => ({ time: i * 10, barriers: 1, blocked: blockedAt.includes(i * 10) ? 2 : 0 }));
}

describe('survey times', () => {
  it('samples the earliest completed checkpoint from the given id on, skipping failed ones and savepoints', () => {
    const { checkpointId, times } = surveyTimes(HISTORY, { fromCheckpointId: 3, marginMs: 100, sampleMs: 100 });
    expect(checkpointId).toBe(5);
    expect(times).toEqual([4200, 4300, 4400, 4500, 4600]);
  });

  it('starts no earlier than time 0, and ends exactly one margin after the last acknowledgement', () => {
    const { checkpointId, times } = surveyTimes(HISTORY, { fromCheckpointId: 1, marginMs: 10, sampleMs: 20 });
    expect(checkpointId).toBe(1);
    expect(times).toEqual([0, 20, 35]);
  });

  it('says what is missing when no completed checkpoint qualifies, and refuses a step of 0', () => {
    expect(() => surveyTimes(HISTORY, { fromCheckpointId: 6, marginMs: 100, sampleMs: 10 })).toThrow(
      'No completed checkpoint with id 6 or higher in the run: run it longer, or lower fromCheckpointId.',
    );
    expect(() => surveyTimes(HISTORY, { fromCheckpointId: 1, marginMs: 100, sampleMs: 0 })).toThrow('sampleMs must be more than 0; got 0.');
  });
});

describe('alignment frames', () => {
  it('spreads the frames evenly from the first sample to the last when no input is blocked', () => {
    expect(alignmentFrames(samples([]), 3, 4)).toEqual([0, 50, 100]);
  });

  it('adds every sample with a blocked input, in time order, each once', () => {
    expect(alignmentFrames(samples([30, 40, 50]), 3, 4)).toEqual([0, 30, 40, 50, 100]);
  });

  it('spreads at most the given number of aligning frames over a long alignment, its first and last kept', () => {
    expect(alignmentFrames(samples([10, 20, 30, 40, 60, 70]), 2, 3)).toEqual([0, 10, 40, 70, 100]);
  });

  it('refuses fewer than two even frames and an empty survey', () => {
    expect(() => alignmentFrames(samples([]), 1, 4)).toThrow('evenFrames must be a whole number of at least 2; got 1.');
    expect(() => alignmentFrames([], 2, 4)).toThrow('No samples of the channel view to choose frames from.');
  });
});
