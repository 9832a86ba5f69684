/**
 * Runs both sides of a variation in sim, with the same seed, to the same virtual time, and says
 * how they differ: compare mode without a page (tests, and a headless caller).
 */
import type { Scenario } from '../scenario/scenario-types.ts';
import { Simulation } from '../sim/simulation.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import { compareDifferences, type CompareDifference } from './compare-differences.ts';
import type { CompareStatistics } from './compare-figures.ts';
import { compareStatisticsOf } from './compare-statistics.ts';
import { compareScenarios, type ComparedScenarios } from './compare-variation.ts';

export interface ComparisonRun {
  scenarios: ComparedScenarios;
  statistics: { a: CompareStatistics; b: CompareStatistics };
  /** the virtual time each side ran to, ms: the run length, or earlier where the job finished */
  times: { a: number; b: number };
  differences: CompareDifference[];
}

export interface ComparisonOptions {
  /** wa-sqlite storage, for the sides with state.backend.type: rocksdb */
  lsmStorage?: LsmStorageFactory;
  /** overrides the scenario's run length, ms */
  until?: number;
}

/** Throws with the variation's message when the scenario cannot be compared that way. */
export function runComparison(scenario: Scenario, variation: string, options: ComparisonOptions = {}): ComparisonRun {
  const compared = compareScenarios(scenario, variation);
  if (!compared.ok) throw new Error(compared.message);
  const run = (side: Scenario): { statistics: CompareStatistics; time: number } => {
    const withRun = options.until === undefined ? side : { ...side, run: { until_ms: options.until } };
    const simulation = new Simulation(withRun, options.lsmStorage ? { lsmStorage: options.lsmStorage } : {});
    simulation.runToEnd();
    return { statistics: compareStatisticsOf(simulation), time: simulation.now };
  };
  const a = run(compared.value.a);
  const b = run(compared.value.b);
  const statistics = { a: a.statistics, b: b.statistics };
  return { scenarios: compared.value, statistics, times: { a: a.time, b: b.time }, differences: compareDifferences(statistics.a, statistics.b) };
}
