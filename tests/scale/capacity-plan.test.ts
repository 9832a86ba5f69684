/**
 * The capacity planner's sweep: recovery (failure → restored → caught up) shortens as parallelism
 * adds spare capacity, never ends without spare capacity, and the smallest parallelism meeting the
 * recovery objective is the first one that does.
 */
import { describe, expect, it } from 'vitest';
import { planCapacity, type CapacityQuestion } from '../../engine/scale/capacity-plan.ts';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

const question: CapacityQuestion = {
  ratePerS: 200_000,
  recordCostUs: 250,
  stateBytes: 100 * GB,
  stateGrowthBytesPerS: 1 * MB,
  stateChurnBytesPerS: 20 * MB,
  checkpointIntervalMs: 60_000,
  remoteBandwidthMbPerS: 100,
  remoteStoreBandwidthMbPerS: 5000,
  recoveryObjectiveMs: 2 * 60_000,
  // 50 subtasks process exactly the input (no spare capacity); 100 twice it
  parallelisms: [50, 60, 80, 100, 200],
};

describe('the capacity plan', () => {
  const plan = planCapacity(question);
  for (const p of plan.points) console.log(`parallelism ${p.parallelism}: spare ${(p.spareCapacity * 100).toFixed(0)}%, checkpoint ${p.checkpointMs.toFixed(0)} ms, restore ${p.restoreMs.toFixed(0)} ms, catch-up ${p.catchUpMs ?? 'never'} ms, recovery ${p.recoveryMs ?? 'never'} ms`);

  it('never recovers without spare capacity', () => {
    expect(plan.points[0]!.spareCapacity).toBeCloseTo(0, 5);
    expect(plan.points[0]!.recoveryMs).toBeNull();
    expect(plan.points[0]!.meetsObjective).toBe(false);
  });

  it('recovers faster as parallelism adds spare capacity', () => {
    const recoveries = plan.points.slice(1).map((p) => p.recoveryMs!);
    for (let i = 1; i < recoveries.length; i++) expect(recoveries[i]!).toBeLessThan(recoveries[i - 1]!);
  });

  it('names the smallest parallelism whose recovery meets the objective', () => {
    const meeting = plan.points.filter((p) => p.recoveryMs !== null && p.recoveryMs <= question.recoveryObjectiveMs);
    expect(meeting.length).toBeGreaterThan(0);
    expect(plan.smallest).toBe(meeting[0]);
    expect(plan.points.filter((p) => p.parallelism < plan.smallest!.parallelism).every((p) => !p.meetsObjective)).toBe(true);
  });
});
