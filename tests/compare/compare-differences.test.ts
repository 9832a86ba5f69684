/**
 * Which differences compare mode calls out, for `ckpt-lab compare` and the page's compare view
 * alike (both read engine/compare/compare-differences.ts): a figure must differ relatively (the
 * runtime's noise share) and absolutely (its smallest difference that matters), so a sync phase of
 * 1 ms against 0 ms, 100 % apart, is not a difference worth a sentence.
 */
import { describe, expect, it } from 'vitest';
import { compareDifferences, LIVE_NOISE, MATERIAL_DIFFERENCE, SIM_NOISE, type NoiseThreshold } from '../../engine/compare/compare-differences.ts';
import { COMPARE_FIGURES, type CompareStatistics } from '../../engine/compare/compare-figures.ts';

interface Figures {
  syncMs?: number;
  persistedBytes?: number;
  completed?: number;
}

/** A run whose three checkpoints each had one subtask with this sync phase, and these summaries. */
function run({ syncMs = 0, persistedBytes = 0, completed = 10 }: Figures): CompareStatistics {
  const subtask = {
    className: 'completed',
    index: 0,
    status: 'completed',
    checkpoint: { sync: syncMs, async: 20 },
    alignment: { buffered: 0, processed: 0, persisted: persistedBytes, duration: 0 },
    start_delay: 0,
  };
  return {
    checkpoints: {
      counts: { restored: 0, total: completed, in_progress: 0, completed, failed: 0 },
      summary: {
        end_to_end_duration: { p50: 400, p90: 400 },
        checkpointed_size: { p50: 50_000, p90: 50_000 },
        state_size: { p50: 50_000, p90: 50_000 },
        persisted_data: { p50: persistedBytes, p90: persistedBytes },
      },
      history: [],
    } as unknown as CompareStatistics['checkpoints'],
    checkpointSubtaskDetails: [1, 2, 3].map((checkpointId) => ({
      checkpointId,
      vertexId: 'count',
      statistics: { status: 'COMPLETED', subtasks: [subtask] } as unknown as NonNullable<CompareStatistics['checkpointSubtaskDetails']>[number]['statistics'],
    })),
  };
}

const calledOut = (a: Figures, b: Figures, noise: NoiseThreshold = SIM_NOISE) => compareDifferences(run(a), run(b), noise).map((d) => [d.code, d.a, d.b]);

describe('the differences compare mode calls out', () => {
  it('does not call out a sync phase of 1 ms against 0 ms, though it is 100 % apart', () => {
    expect(calledOut({ syncMs: 1 }, { syncMs: 0 })).toEqual([]);
    expect(calledOut({ syncMs: 7 }, { syncMs: 2 })).toEqual([]);
  });

  it('calls out a sync phase of 50 ms against 10 ms, as heap timers against RocksDB timers give', () => {
    expect(calledOut({ syncMs: 50 }, { syncMs: 10 })).toEqual([['sync-duration-p50', 50, 10]]);
  });

  it('needs both bounds: 12 ms apart but only 1.2 % of the figure is not called out', () => {
    expect(calledOut({ syncMs: 1012 }, { syncMs: 1000 })).toEqual([]);
    expect(calledOut({ syncMs: 1200 }, { syncMs: 1000 })).toEqual([['sync-duration-p50', 1200, 1000]]);
  });

  it('does not call out a few hundred bytes of in-flight data against none, and calls out hundreds of KiB', () => {
    expect(calledOut({ persistedBytes: 300 }, {})).toEqual([]);
    expect(calledOut({ persistedBytes: 555_000 }, {})).toEqual([['persisted-data-p50', 555_000, 0]]);
  });

  it('calls out two completed checkpoints more, not one', () => {
    expect(calledOut({ completed: 10 }, { completed: 9 })).toEqual([]);
    expect(calledOut({ completed: 10 }, { completed: 8 })).toEqual([['completed-checkpoints', 10, 8]]);
  });

  it('keeps the live jitter bound above what matters for durations: 50 ms against 10 ms is not called out live', () => {
    expect(calledOut({ syncMs: 50 }, { syncMs: 10 }, LIVE_NOISE)).toEqual([]);
    expect(calledOut({ syncMs: 250 }, { syncMs: 10 }, LIVE_NOISE)).toEqual([['sync-duration-p50', 250, 10]]);
  });

  it('has a smallest difference that matters, above 0, for every figure', () => {
    for (const code of COMPARE_FIGURES) expect(MATERIAL_DIFFERENCE[code], code).toBeGreaterThan(0);
  });
});
