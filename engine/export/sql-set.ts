/**
 * A scenario's Flink options as Flink SQL `SET` statements (SQL client, `TableEnvironment`), with
 * Flink 2.x keys; a SQL job script starts with them too.
 */

import type { Scenario } from '../scenario/scenario-types.ts';
import { flinkOptionText, orderedOptions } from './flink-option-text.ts';
import { scenarioLabel } from './scenario-label.ts';

export function exportSqlSet(scenario: Scenario): string {
  const header = [
    `-- Flink 2.x SQL: checkpointing and state options of the scenario ${scenarioLabel(scenario)},`,
    '-- exported from Checkpoint Playground. Options not listed keep Flink\'s defaults.',
  ];
  return `${[...header, ...sqlSetStatements(scenario)].join('\n')}\n`;
}

export function sqlSetStatements(scenario: Scenario): string[] {
  return orderedOptions(scenario.config).map(([key, value]) => setStatement(key, flinkOptionText(key, value)));
}

export function setStatement(key: string, value: string): string {
  return `SET ${sqlString(key)} = ${sqlString(value)};`;
}

/** A SQL string literal: a quote inside is doubled. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
