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
  const run = (side: Scenario): CompareStatistics => {
    const withRun = options.until === undefined ? side : { ...side, run: { until_ms: options.until } };
    const simulation = new Simulation(withRun, options.lsmStorage ? { lsmStorage: options.lsmStorage } : {});
    simulation.runToEnd();
    return compareStatisticsOf(simulation);
  };
  const statistics = { a: run(compared.value.a), b: run(compared.value.b) };
  return { scenarios: compared.value, statistics, differences: compareDifferences(statistics.a, statistics.b) };
}
