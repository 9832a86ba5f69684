/**
 * The scenario format's `runtime` and `scale` section: a file chooses the runtime that runs it,
 * and a scale file states its state and bandwidths in Flink's units.
 */
import { describe, expect, it } from 'vitest';
import { formatScenarioErrors, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { minimalFile, type ScenarioFile } from '../scenario/scenario-samples.ts';

const TB = 1024 ** 4;
const MB = 1024 ** 2;

function errorsOf(file: ScenarioFile): string {
  const result = validateScenario(file);
  if (result.ok) throw new Error('expected the scenario to be refused');
  return formatScenarioErrors(result.errors);
}

function scaleFile(scale: ScenarioFile = {}, extra: ScenarioFile = {}): ScenarioFile {
  return { ...minimalFile(), runtime: 'scale', scale, ...extra };
}

describe('the runtime a scenario chooses', () => {
  it('is records when the file names none, and the scenario reads as before', () => {
    const result = validateScenario(minimalFile());
    expect(result.ok && result.scenario.runtime).toBe(undefined);
    expect(result.ok && result.scenario.scale).toBe(undefined);
  });

  it('reads Flink memory sizes and bandwidths of a scale section', () => {
    const result = validateScenario(scaleFile({ state_size: '1 tb', state_churn_per_s: '200 mb', host_bandwidth_mb_per_s: 1250 }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.runtime).toBe('scale');
    expect(result.scenario.scale).toEqual({
      state_size_bytes: TB,
      state_growth_bytes_per_s: 0,
      state_churn_bytes_per_s: 200 * MB,
      compaction_bytes_per_s: 0,
      host_bandwidth_mb_per_s: 1250,
      remote_store_bandwidth_mb_per_s: Infinity,
    });
  });

  it('fills every flow with its default when a scale scenario leaves the section out', () => {
    const result = validateScenario({ ...minimalFile(), runtime: 'scale' });
    expect(result.ok && result.scenario.scale?.state_size_bytes).toBe(0);
  });

  it('names the runtime field and the allowed runtimes for an unknown one, with the nearest', () => {
    expect(errorsOf({ ...minimalFile(), runtime: 'scal' })).toContain('runtime: unknown runtime "scal" (allowed: records, scale) — did you mean "scale"?');
  });

  it('names the field of a size that is not a memory size', () => {
    expect(errorsOf(scaleFile({ state_size: '1 parsec' }))).toMatch(/^scale\.state_size: unknown memory unit "parsec"/);
  });

  it('refuses a misspelt scale field with the nearest known one', () => {
    expect(errorsOf(scaleFile({ state_sise: '1 gb' }))).toContain('scale.state_sise: unknown field "state_sise"');
  });

  it('refuses a bandwidth of zero, naming the field', () => {
    expect(errorsOf(scaleFile({ remote_store_bandwidth_mb_per_s: 0 }))).toContain('scale.remote_store_bandwidth_mb_per_s: 0 is out of range');
  });

  it('refuses a scale section in a records scenario, which would ignore it', () => {
    expect(errorsOf({ ...minimalFile(), scale: { state_size: '1 gb' } })).toContain('scale: only a scenario with runtime: scale reads this section');
  });

  it('takes a parallelism and a cluster the record-level runtimes refuse', () => {
    const big: ScenarioFile = {
      ...scaleFile({ state_size: '1 tb' }),
      config: { 'parallelism.default': 1000 },
      cluster: { hosts: 100, task_managers_per_host: 1, slots_per_task_manager: 10 },
      run: { until: '1 h' },
    };
    expect(validateScenario(big).ok).toBe(true);
    expect(errorsOf({ ...big, runtime: 'records', scale: undefined as unknown as ScenarioFile })).toContain('cluster.hosts: 100 is out of range');
  });
});
