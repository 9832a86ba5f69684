/**
 * A scenario's Flink options as Flink 1.x's `conf/flink-conf.yaml`: flat `key: value` lines (the
 * 1.x parser is not a YAML parser: no nesting, no quoting), with the key names 1.x used where 2.x
 * renamed an option. The playground reads these old keys back as their current ones.
 */

import { readConfig } from '../config/flink-options.ts';
import type { ConfigValue, Scenario } from '../scenario/scenario-types.ts';
import { checkpointDirHint } from './config-yaml.ts';
import { flinkOptionText, orderedOptions } from './flink-option-text.ts';
import { scenarioLabel } from './scenario-label.ts';

/**
 * The 1.x spelling of each option 2.x renamed: 1.20's FLINK-34482 renames, and the newer names
 * of 1.17 to 1.19 (`state.backend.type`, `restart-strategy.type`, `execution.buffer-timeout.interval`)
 * whose older keys every 1.x release reads.
 */
export const KEY_IN_FLINK_1X: Readonly<Record<string, string>> = {
  'execution.checkpointing.unaligned.enabled': 'execution.checkpointing.unaligned',
  'execution.checkpointing.checkpoints-after-tasks-finish': 'execution.checkpointing.checkpoints-after-tasks-finish.enabled',
  'execution.checkpointing.num-retained': 'state.checkpoints.num-retained',
  'execution.checkpointing.storage': 'state.checkpoint-storage',
  'execution.checkpointing.dir': 'state.checkpoints.dir',
  'execution.checkpointing.savepoint-dir': 'state.savepoints.dir',
  'execution.checkpointing.data-inline-threshold': 'state.storage.fs.memory-threshold',
  'execution.checkpointing.incremental': 'state.backend.incremental',
  'execution.state-recovery.claim-mode': 'execution.savepoint-restore-mode',
  'execution.state-recovery.from-local': 'state.backend.local-recovery',
  'execution.checkpointing.local-backup.enabled': 'state.backend.local-recovery',
  'state.backend.type': 'state.backend',
  'restart-strategy.type': 'restart-strategy',
  'execution.buffer-timeout.interval': 'execution.buffer-timeout',
};

const LOCAL_RECOVERY_1X = 'state.backend.local-recovery';

export function exportConfigYaml1x(scenario: Scenario): string {
  const header = [
    `# Flink 1.x conf/flink-conf.yaml: checkpointing and state options of the scenario ${scenarioLabel(scenario)},`,
    '# exported from Checkpoint Playground, with the key names Flink 1.15 to 1.20 read.',
    '# Options not listed keep Flink\'s defaults.',
    ...checkpointDirHint(scenario, 'state.checkpoints.dir'),
    ...localRecoveryNote(scenario),
  ];
  const lines = new Map<string, string>();
  for (const [key, value] of orderedOptions(scenario.config)) {
    const oldKey = KEY_IN_FLINK_1X[key] ?? key;
    if (!lines.has(oldKey)) lines.set(oldKey, `${oldKey}: ${lineValue(scenario, key, value)}`);
  }
  return `${[...header, ...lines.values()].join('\n')}\n`;
}

/** 1.x has one key for both halves of local recovery; a restore is what it changes, so from-local wins. */
function lineValue(scenario: Scenario, key: string, value: ConfigValue): string {
  if (KEY_IN_FLINK_1X[key] !== LOCAL_RECOVERY_1X) return flinkOptionText(key, value);
  return String(scenario.config['execution.state-recovery.from-local'] ?? value);
}

function localRecoveryNote(scenario: Scenario): string[] {
  const config = readConfig(scenario.config);
  if (config.localBackupEnabled === config.localRecovery) return [];
  return [
    `# Not expressible in 1.x: the scenario sets execution.checkpointing.local-backup.enabled ${config.localBackupEnabled}`,
    `# and execution.state-recovery.from-local ${config.localRecovery}; 1.x's ${LOCAL_RECOVERY_1X} sets both at once.`,
  ];
}
