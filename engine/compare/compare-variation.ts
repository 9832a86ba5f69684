/**
 * Compare mode's variations: one scenario run twice with the same seed, under two configurations
 * that differ in one of the contrasts the seed articles teach. Each variation is named data: the
 * Flink options (current keys, parsed values as `Scenario.config` holds them) each side sets on
 * top of the scenario's own configuration. Both sides are overridden, so the contrast holds
 * whatever the scenario configured (an incremental scenario still gets a full side).
 */
import { checkConfigRules } from '../config/flink-config-rules.ts';
import { readConfig } from '../config/flink-options.ts';
import type { ConfigValue, Scenario } from '../scenario/scenario-types.ts';

export const COMPARE_VARIATIONS = [
  'full-vs-incremental',
  'aligned-vs-unaligned',
  'local-recovery',
  'min-pause',
  'heap-vs-rocksdb-timers',
] as const;
export type CompareVariation = (typeof COMPARE_VARIATIONS)[number];

/** Which side of a variation a run is: `a` is the baseline, `b` the alternative. */
export type CompareSide = 'a' | 'b';

type Overrides = Record<string, ConfigValue>;

const INCREMENTAL = 'execution.checkpointing.incremental';
const UNALIGNED = 'execution.checkpointing.unaligned.enabled';
const LOCAL_BACKUP = 'execution.checkpointing.local-backup.enabled';
const FROM_LOCAL = 'execution.state-recovery.from-local';
const MIN_PAUSE = 'execution.checkpointing.min-pause';
const TIMERS = 'state.backend.rocksdb.timer-service.factory';
const BACKEND = 'state.backend.type';

/**
 * Unaligned checkpoints need EXACTLY_ONCE and at most one concurrent checkpoint
 * (CheckpointCoordinatorConfiguration); both sides get them, so only alignment differs.
 */
const UNALIGNED_PREREQUISITES: Overrides = {
  'execution.checkpointing.mode': 'EXACTLY_ONCE',
  'execution.checkpointing.max-concurrent-checkpoints': 1,
};

/**
 * The min-pause the `min-pause` variation gives its `b` side: the scenario's own when it sets
 * one, else half the interval (Flink's default is 0: no pause at all).
 */
function minPauseOf(scenario: Scenario, intervalMs: number): number {
  const own = scenario.config[MIN_PAUSE];
  return typeof own === 'number' && own > 0 ? own : Math.round(intervalMs / 2);
}

function overridesFor(variation: CompareVariation, scenario: Scenario, intervalMs: number): { a: Overrides; b: Overrides } {
  switch (variation) {
    case 'full-vs-incremental':
      // incremental snapshots exist only for the RocksDB backend (EmbeddedRocksDBStateBackend)
      return { a: { [BACKEND]: 'rocksdb', [INCREMENTAL]: false }, b: { [BACKEND]: 'rocksdb', [INCREMENTAL]: true } };
    case 'aligned-vs-unaligned':
      return { a: { ...UNALIGNED_PREREQUISITES, [UNALIGNED]: false }, b: { ...UNALIGNED_PREREQUISITES, [UNALIGNED]: true } };
    case 'local-recovery':
      // task-local recovery needs both: the local copy written, and read on restore
      return { a: { [LOCAL_BACKUP]: false, [FROM_LOCAL]: false }, b: { [LOCAL_BACKUP]: true, [FROM_LOCAL]: true } };
    case 'min-pause':
      return { a: { [MIN_PAUSE]: 0 }, b: { [MIN_PAUSE]: minPauseOf(scenario, intervalMs) } };
    case 'heap-vs-rocksdb-timers':
      // the timer service factory is an option of the RocksDB backend only
      return { a: { [BACKEND]: 'rocksdb', [TIMERS]: 'HEAP' }, b: { [BACKEND]: 'rocksdb', [TIMERS]: 'ROCKSDB' } };
  }
}

export interface ComparedScenarios {
  variation: CompareVariation;
  a: Scenario;
  b: Scenario;
  /** the options each side sets over the scenario's configuration */
  overrides: { a: Overrides; b: Overrides };
}

export type CompareVariationResult = { ok: true; value: ComparedScenarios } | { ok: false; message: string };

export function isCompareVariation(value: unknown): value is CompareVariation {
  return typeof value === 'string' && (COMPARE_VARIATIONS as readonly string[]).includes(value);
}

/** The two scenarios of a variation, or why there are none (the message names the field and what is allowed). */
export function compareScenarios(scenario: Scenario, variation: unknown): CompareVariationResult {
  if (!isCompareVariation(variation)) {
    return { ok: false, message: `variation: ${JSON.stringify(variation)} is not a compare variation; allowed: ${COMPARE_VARIATIONS.join(', ')}` };
  }
  const intervalMs = readConfig(scenario.config).checkpointInterval;
  if (intervalMs === undefined) {
    return { ok: false, message: `config.execution.checkpointing.interval: not set, so the job takes no periodic checkpoints to compare; allowed: a duration such as 1 s` };
  }
  const overrides = overridesFor(variation, scenario, intervalMs);
  const sides = { a: withConfig(scenario, overrides.a), b: withConfig(scenario, overrides.b) };
  for (const side of ['a', 'b'] as const) {
    const problem = configProblem(sides[side]);
    if (problem !== undefined) return { ok: false, message: `${variation}, side ${side}: ${problem}` };
  }
  return { ok: true, value: { variation, ...sides, overrides } };
}

function withConfig(scenario: Scenario, overrides: Overrides): Scenario {
  return { ...scenario, config: { ...scenario.config, ...overrides } };
}

/** Flink's cross-option rules still hold on each side (an override never makes an invalid job). */
function configProblem(scenario: Scenario): string | undefined {
  const error = checkConfigRules(readConfig(scenario.config), new Set(Object.keys(scenario.config))).find((f) => f.severity === 'error');
  return error === undefined ? undefined : `config.${error.key}: ${error.message}${error.allowed ? `; allowed: ${error.allowed}` : ''}`;
}

/**
 * The variation whose contrast a scenario is most likely about, for the page's Compare button:
 * a scenario that fails TaskManagers is about recovery, one that sets an option of a contrast is
 * about that option; otherwise full vs incremental, the contrast of every stateful job.
 */
export function suggestedVariation(scenario: Scenario): CompareVariation {
  const config = scenario.config;
  if (scenario.faults.some((f) => f.type === 'kill-task-manager' || f.type === 'lose-host')) return 'local-recovery';
  if (config[TIMERS] !== undefined) return 'heap-vs-rocksdb-timers';
  if (config[UNALIGNED] !== undefined || config['execution.checkpointing.aligned-checkpoint-timeout'] !== undefined) return 'aligned-vs-unaligned';
  if (config[MIN_PAUSE] !== undefined) return 'min-pause';
  return 'full-vs-incremental';
}
