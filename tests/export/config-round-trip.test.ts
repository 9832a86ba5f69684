import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfig } from '../../engine/config/flink-options.ts';
import { exportToFlink } from '../../engine/export/flink-export.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { shippedScenarios, type ShippedScenario } from './shipped-scenarios.ts';

const SHIPPED = shippedScenarios().map((s) => [s.file, s] as const);

/** The exported text pasted back as the scenario's `config:`, validated as any scenario is. */
function pastedBack(shipped: ShippedScenario, exported: string) {
  const config = (parse(exported) as Record<string, unknown> | null) ?? undefined;
  const valid = validateScenario({ ...shipped.input, config });
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  return valid;
}

describe('exported Flink configuration pasted back into the scenario', () => {
  it('finds the shipped scenarios and lessons', () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(24);
  });

  it.each(SHIPPED)('%s: the 2.x config.yaml gives the same options, key for key', (_file, shipped) => {
    const back = pastedBack(shipped, exportToFlink(shipped.scenario, 'config-yaml'));
    expect(back.scenario.config).toEqual(shipped.scenario.config);
    expect(back.notes.filter((n) => n.includes('deprecated'))).toEqual([]);
  });

  it.each(SHIPPED)('%s: the 1.x flink-conf.yaml gives the same configuration', (_file, shipped) => {
    const back = pastedBack(shipped, exportToFlink(shipped.scenario, 'config-yaml-1x'));
    expect(readConfig(back.scenario.config)).toEqual(readConfig(shipped.scenario.config));
  });
});
