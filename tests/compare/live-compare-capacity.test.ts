/**
 * When compare mode may run two live runs at once: twice the scenario's TaskManagers must fit in
 * two workers per logical core and a quarter GB of device memory each (live-compare-capacity.ts
 * says why); a browser that does not report its memory is judged by its cores alone.
 */
import { describe, expect, it } from 'vitest';
import { LIVE_NOISE, SIM_NOISE, compareDifferences, type NoiseThreshold } from '../../engine/compare/compare-differences.ts';
import type { CompareStatistics } from '../../engine/compare/compare-figures.ts';
import { liveCompareCapacity, liveCompareRefusalMessage } from '../../web/compare/live-compare-capacity.ts';

describe('whether the machine holds two live runs', () => {
  it('holds two runs of 2 TaskManagers on 2 cores (the measured case), not two of 4', () => {
    expect(liveCompareCapacity(2, { cores: 2, memoryGb: 8 })).toEqual({ ok: true, taskManagers: 4 });
    expect(liveCompareCapacity(4, { cores: 2, memoryGb: 8 })).toEqual({ ok: false, taskManagers: 8, limit: 4, by: 'cores', machine: { cores: 2, memoryGb: 8 } });
    expect(liveCompareCapacity(4, { cores: 4, memoryGb: 8 }).ok).toBe(true);
  });

  it('is limited by memory where the device reports little of it', () => {
    expect(liveCompareCapacity(2, { cores: 8, memoryGb: 0.5 })).toMatchObject({ ok: false, limit: 2, by: 'memory' });
    expect(liveCompareCapacity(2, { cores: 8, memoryGb: undefined }).ok).toBe(true);
  });

  it('explains a refusal with the figures and the way to the sim', () => {
    const refusal = liveCompareCapacity(4, { cores: 2, memoryGb: 8 });
    if (refusal.ok) throw new Error('expected a refusal');
    expect(liveCompareRefusalMessage(refusal)).toBe(
      "This machine cannot hold two live runs of this scenario: they need 8 TaskManager workers, and 2 logical cores hold at most 4 TaskManager workers (2 per core). Compare them in the sim instead: compare(variation, { runtime: 'sim' }).",
    );
  });
});

describe('the noise threshold of live comparisons', () => {
  const withP50 = (ms: number): CompareStatistics => ({
    checkpoints: {
      counts: { restored: 0, total: 10, in_progress: 0, completed: 10, failed: 0 },
      summary: {
        end_to_end_duration: { p50: ms, p90: ms },
        checkpointed_size: { p50: 1000, p90: 1000 },
        state_size: { p50: 1000, p90: 1000 },
        persisted_data: { p50: 0, p90: 0 },
      },
      history: [],
    } as unknown as CompareStatistics['checkpoints'],
  });

  const codes = (a: number, b: number, noise: NoiseThreshold) => compareDifferences(withP50(a), withP50(b), noise).map((d) => d.code);

  it('calls out a 20 % difference in the sim but not live, and a 30 % one in both', () => {
    expect(codes(1000, 800, SIM_NOISE)).toEqual(['end-to-end-p50', 'end-to-end-p90']);
    expect(codes(1000, 800, LIVE_NOISE)).toEqual([]);
    expect(codes(1000, 700, LIVE_NOISE)).toEqual(['end-to-end-p50', 'end-to-end-p90']);
  });

  it('does not call out a live duration difference under 100 ms, however large relatively (7 ms vs 20 ms)', () => {
    expect(codes(7, 20, SIM_NOISE)).toEqual(['end-to-end-p50', 'end-to-end-p90']);
    expect(codes(7, 20, LIVE_NOISE)).toEqual([]);
    expect(codes(50, 250, LIVE_NOISE)).toEqual(['end-to-end-p50', 'end-to-end-p90']);
  });
});
