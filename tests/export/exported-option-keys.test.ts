import { describe, expect, it } from 'vitest';
import { FLINK_OPTIONS } from '../../engine/config/flink-options.ts';
import { KEY_IN_FLINK_1X } from '../../engine/export/config-yaml-1x.ts';
import { EXPORT_FLINK_VERSION, exportToFlink, FLINK_EXPORT_FORMATS } from '../../engine/export/flink-export.ts';
import { FLINK_1X_OPTION_KEYS } from '../../engine/export/flink-option-keys-1.x.ts';
import { FLINK_2X_OPTION_KEYS } from '../../engine/export/flink-option-keys-2.x.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { shippedScenarios } from './shipped-scenarios.ts';
import { writtenOptionKeys } from './written-option-keys.ts';

const KNOWN_KEYS = { '1.x': FLINK_1X_OPTION_KEYS, '2.x': FLINK_2X_OPTION_KEYS } as const;

/** A scenario that sets every option the playground knows, so every key an export can write is written. */
function everyOption(): Scenario {
  const base = shippedScenarios()[0]!.scenario;
  const config = Object.fromEntries(FLINK_OPTIONS.map((o) => [o.key, o.default ?? sampleValue(o.type, o.values)]));
  return { ...base, config };
}

function sampleValue(type: string, values: readonly string[] | undefined): string | number | boolean {
  if (values) return values[0]!;
  return type === 'string' ? 's3://bucket/checkpoints' : 1024;
}

const EVERY_OPTION = everyOption();

const CASES = [
  ...shippedScenarios().map((s) => [s.file, s.scenario] as const),
  ['a scenario setting every option', EVERY_OPTION] as const,
].flatMap(([name, scenario]) => FLINK_EXPORT_FORMATS.map((format) => [name, format, scenario] as const));

describe('keys an export writes', () => {
  it.each(CASES)('%s as %s: every key is an option key of the Flink version it targets', (_name, format, scenario) => {
    const known = KNOWN_KEYS[EXPORT_FLINK_VERSION[format]];
    const unknown = writtenOptionKeys(format, exportToFlink(scenario, format)).filter((k) => !known.has(k));
    expect(unknown).toEqual([]);
  });

  it('writes some key in every format for a scenario setting every option', () => {
    for (const format of FLINK_EXPORT_FORMATS) expect(writtenOptionKeys(format, exportToFlink(EVERY_OPTION, format)).length).toBeGreaterThan(0);
  });

  it('renames for 1.x only to keys the playground reads back as the same option', () => {
    for (const [current, old] of Object.entries(KEY_IN_FLINK_1X)) {
      const option = FLINK_OPTIONS.find((o) => o.key === current);
      expect(option?.deprecatedKeys, current).toContain(old);
    }
  });

  it.each([
    ['state.backend.type', 'state.backend'],
    ['execution.checkpointing.incremental', 'state.backend.incremental'],
    ['execution.checkpointing.checkpoints-after-tasks-finish', 'execution.checkpointing.checkpoints-after-tasks-finish.enabled'],
    ['execution.checkpointing.unaligned.enabled', 'execution.checkpointing.unaligned'],
    ['execution.checkpointing.num-retained', 'state.checkpoints.num-retained'],
    ['execution.state-recovery.from-local', 'state.backend.local-recovery'],
  ])('writes %s as %s in flink-conf.yaml', (current, old) => {
    const text = exportToFlink(EVERY_OPTION, 'config-yaml-1x');
    const keys = writtenOptionKeys('config-yaml-1x', text);
    expect(keys).toContain(old);
    expect(keys).not.toContain(current);
  });
});
