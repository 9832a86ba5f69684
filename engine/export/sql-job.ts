import type { Scenario } from '../scenario/scenario-types.ts';
import { exportSqlSet } from './sql-set.ts';
export function exportSqlJob(scenario: Scenario): string {
  return exportSqlSet(scenario);
}
