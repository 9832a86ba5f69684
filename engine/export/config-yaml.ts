/**
 * A scenario's Flink options as Flink 2.x's `conf/config.yaml`: standard YAML, one flat dotted key
 * per option (Flink 2.x reads flat and nested keys alike, and flat keys paste into a scenario's
 * `config:` as they are). Only the options the scenario sets are written; the rest keep Flink's
 * defaults, which are the playground's too.
 */

import { stringify } from 'yaml';
import type { Scenario } from '../scenario/scenario-types.ts';
import { flinkOptionText, orderedOptions } from './flink-option-text.ts';
import { scenarioLabel } from './scenario-label.ts';

export function exportConfigYaml(scenario: Scenario): string {
  const header = [
    `# Flink 2.x conf/config.yaml: checkpointing and state options of the scenario ${scenarioLabel(scenario)},`,
    '# exported from Checkpoint Playground. Options not listed keep Flink\'s defaults.',
    ...checkpointDirHint(scenario, 'execution.checkpointing.dir'),
  ];
  const options = orderedOptions(scenario.config).map(([key, value]) => [key, yamlValue(key, value)] as const);
  const body = options.length === 0 ? '' : stringify(Object.fromEntries(options), { lineWidth: 0 });
  return `${header.join('\n')}\n${body}`;
}

/** Numbers and booleans stay YAML scalars; durations and sizes become Flink's text ("1 s"). */
function yamlValue(key: string, value: number | string | boolean): number | string | boolean {
  const text = flinkOptionText(key, value);
  return text === String(value) ? value : text;
}

/**
 * The playground's remote store needs no directory, a real cluster does: say where it goes
 * without writing a made-up path, which would not round-trip as the scenario's configuration.
 */
export function checkpointDirHint(scenario: Scenario, dirKey: string): string[] {
  if (scenario.config['execution.checkpointing.dir'] !== undefined) return [];
  return [`# On a real cluster also set ${dirKey} (e.g. s3://bucket/checkpoints) for durable checkpoints.`];
}
