/**
 * A scenario exported back to a scenario file reads back as the same scenario: every shipped
 * scenario, and a `runtime: scale` one keeps its runtime and its `scale` section in Flink's units.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportScenarioFile } from '../../engine/export/scenario-file.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { shippedScenarios } from './shipped-scenarios.ts';

function readBack(text: string): Scenario {
  const parsed = parseScenarioText(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const valid = validateScenario(parsed.value);
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  return valid.scenario;
}

const SHIPPED = shippedScenarios().map((s) => [s.file, s.scenario] as const);

describe('a scenario exported to a scenario file', () => {
  it.each(SHIPPED)('%s reads back as the same scenario', (_file, scenario) => {
    expect(readBack(exportScenarioFile(scenario))).toEqual(scenario);
  });

  it('keeps runtime: scale and the scale section, sizes in Flink units, for the production-scale scenario', () => {
    const production = SHIPPED.find(([file]) => file.endsWith('production-scale.yaml'))![1];
    const text = exportScenarioFile(production);
    const document = parse(text) as { runtime: string; scale: Record<string, unknown> };
    expect(document.runtime).toBe('scale');
    expect(document.scale).toEqual({ state_size: '1 tb', state_growth_per_s: '10 mb', state_churn_per_s: '200 mb', compaction_per_s: '100 mb', host_bandwidth_mb_per_s: 1250, remote_store_bandwidth_mb_per_s: 20000 });
    const back = readBack(text);
    expect(back.runtime).toBe('scale');
    expect(back.scale).toEqual(production.scale);
  });

  it('keeps runtime: scale and the default scale section (no state, unlimited bandwidth) when the file left it out', () => {
    const scale = readBack(exportScenarioFile(readBack('version: 1\nname: defaults\nruntime: scale\njob:\n  vertices:\n    - { id: s, type: source, source: { kind: random, keys: 10, rate_per_s: 100 } }\n    - { id: k, type: sink }\n  edges:\n    - { from: s, to: k, partitioning: forward }\nrun: { until: 10 s }\n')));
    expect(scale.runtime).toBe('scale');
    expect(scale.scale).toEqual({ state_size_bytes: 0, state_growth_bytes_per_s: 0, state_churn_bytes_per_s: 0, compaction_bytes_per_s: 0, host_bandwidth_mb_per_s: Infinity, remote_store_bandwidth_mb_per_s: Infinity });
  });

  it('names no runtime for a records scenario that named none', () => {
    const records = SHIPPED.find(([file]) => file.endsWith('local-recovery.yaml'))![1];
    expect(records.runtime).toBeUndefined();
    expect((parse(exportScenarioFile(records)) as Record<string, unknown>).runtime).toBeUndefined();
  });
});
