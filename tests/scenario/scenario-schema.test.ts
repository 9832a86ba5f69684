import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEPRECATED_KEYS, FLINK_OPTIONS } from '../../engine/config/flink-options.ts';
import { scenarioFileSchema } from '../../engine/scenario/scenario-schema.ts';
import { SCENARIO_PICKER_ORDER } from '../../node/scenario-index.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { joinFile, minimalFile, mutate, mutationArbitrary, validScenarioFile, wordCountFile } from './scenario-samples.ts';

const SCENARIO_DIR = join(import.meta.dirname, '..', '..', 'public', 'scenarios');
const SCHEMA_FILE = join(SCENARIO_DIR, 'scenario.schema.json');
const REGENERATE =
  "npx tsx -e \"import('./engine/scenario/scenario-schema.ts').then(m => process.stdout.write(JSON.stringify(m.scenarioFileSchema(), null, 2) + '\\n'))\" > public/scenarios/scenario.schema.json";

const shippedSchema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
const checkSchema = new Ajv({ allErrors: true, strict: true }).compile(shippedSchema);

/** Files in public/scenarios that are scenarios (not the index, not the schema). */
function exampleScenarioFiles(): string[] {
  return readdirSync(SCENARIO_DIR)
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .filter((name) => name !== 'index.json' && !name.endsWith('.schema.json'))
    .sort();
}

function expectValidBothWays(value: unknown): void {
  const valid = checkSchema(value);
  expect(valid, JSON.stringify(checkSchema.errors, null, 2)).toBe(true);
  const validated = validateScenario(value);
  expect(validated.ok, validated.ok ? '' : formatScenarioErrors(validated.errors)).toBe(true);
}

describe('the shipped scenario schema', () => {
  it('is the schema generated from the vocabulary and the option registry', () => {
    expect(shippedSchema, `public/scenarios/scenario.schema.json is stale; regenerate it with:\n${REGENERATE}`).toEqual(
      scenarioFileSchema(),
    );
  });

  it('accepts exactly the config keys of the option registry, current and deprecated', () => {
    const definitions = shippedSchema.definitions as Record<string, unknown>;
    const leafKeys = Object.keys(definitions)
      .filter((name) => name.startsWith('option:'))
      .map((name) => name.slice('option:'.length));
    const registryKeys = [...FLINK_OPTIONS.map((o) => o.key), ...DEPRECATED_KEYS];
    expect(leafKeys.sort()).toEqual([...registryKeys].sort());
    const rootConfig = definitions.config as { properties: Record<string, unknown> };
    for (const key of registryKeys) expect(Object.keys(rootConfig.properties)).toContain(key);
  });

  it('accepts every option with its default value, written as Flink text and as a number', () => {
    for (const option of FLINK_OPTIONS.filter((o) => o.default !== undefined)) {
      const config = { [option.key]: option.default as string | number | boolean };
      expectValidBothWays({ ...minimalFile(), config });
    }
    expectValidBothWays({ ...minimalFile(), config: { 'execution.checkpointing.timeout': '10 min', 'taskmanager.memory.segment-size': '32kb' } });
  });

  it('rejects a misspelt config key, flat or nested', () => {
    expect(checkSchema({ ...minimalFile(), config: { 'execution.checkpointing.intervall': '1 s' } })).toBe(false);
    expect(checkSchema({ ...minimalFile(), config: { execution: { checkpointing: { intervall: '1 s' } } } })).toBe(false);
  });
});

describe('example scenarios pass both the schema and the validator', () => {
  it.each(exampleScenarioFiles().map((name) => [name]))('public/scenarios/%s', (name) => {
    const parsed = parseScenarioText(readFileSync(join(SCENARIO_DIR, name), 'utf8'));
    expect(parsed.ok, parsed.ok ? '' : formatScenarioErrors(parsed.errors)).toBe(true);
    if (parsed.ok) expectValidBothWays(parsed.value);
  });

  it('the picker lists every shipped scenario once, and only those', () => {
    expect([...SCENARIO_PICKER_ORDER].sort()).toEqual(exampleScenarioFiles());
  });

  it.each([
    ['a minimal scenario', minimalFile()],
    ['a word count with faults', wordCountFile()],
    ['a window join', joinFile()],
  ])('%s written inline', (_what, file) => {
    expectValidBothWays(file);
  });

  it('a YAML scenario with nested and deprecated config keys', () => {
    const parsed = parseScenarioText(`
version: 1
name: nested config
seed: 9
job:
  vertices:
    - { id: src, type: source, parallelism: 2, source: { kind: random, keys: 10, rate_per_s: 500, skew: 0.5 } }
    - { id: big, type: filter, filter: { fn: value-at-least, value: 3 } }
    - { id: win, type: window, size: 10 s, aggregate: sum, parallelism: 3 }
    - { id: out, type: sink, sink: two-phase-commit, parallelism: 3 }
  edges:
    - { from: src, to: big }
    - { from: big, to: win }
    - { from: win, to: out }
config:
  parallelism.default: 2
  execution:
    checkpointing:
      interval: 5 s
      mode: exactly_once
      unaligned: true
  state.backend: rocksdb
  state.backend.incremental: true
  restart-strategy: { type: fixed-delay, fixed-delay: { attempts: 3, delay: 2 s } }
cluster: { hosts: 3, task_managers_per_host: 1 }
costs: { remote_latency_ms: 80, record_size_bytes: 64 }
faults:
  - { at: 12 s, type: lose-host, host: host-2 }
  - { at: 20 s, type: trigger-savepoint }
run: { until: 1 min }
expectations:
  - { type: job-status, status: RUNNING }
`);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expectValidBothWays(parsed.value);
  });
});

describe('the schema and the validator agree', () => {
  it('on generated valid scenarios', () => {
    fc.assert(
      fc.property(validScenarioFile, (file) => {
        expectValidBothWays(file);
      }),
      { numRuns: 150 },
    );
  });

  it('so that whatever the schema rejects, the validator rejects too', () => {
    fc.assert(
      fc.property(validScenarioFile, mutationArbitrary, (file, mutation) => {
        const { file: mutated } = mutate(file, mutation);
        if (checkSchema(mutated)) return;
        const validated = validateScenario(mutated);
        expect(validated.ok, `schema errors: ${JSON.stringify(checkSchema.errors)}`).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});
