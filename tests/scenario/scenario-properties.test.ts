import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FLINK_OPTIONS, DEPRECATED_KEYS } from '../../engine/config/flink-options.ts';
import {
  CLUSTER_FIELDS,
  EDGE_FIELDS,
  EXPECTATION_FIELDS,
  FAULT_FIELDS,
  FILTER_FIELDS,
  JOB_FIELDS,
  OPERATOR_FIELDS,
  RUN_FIELDS,
  SCENARIO_FIELDS,
  SOURCE_FIELDS,
  VERTEX_BASE_FIELDS,
} from '../../engine/scenario/scenario-vocabulary.ts';
import { COST_FIELDS } from '../../engine/scenario/costs-reader.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { mutate, mutationArbitrary, validScenarioFile } from './scenario-samples.ts';

/** Every field name a scenario file may use anywhere; a typo that lands on one of them is no typo. */
const KNOWN_NAMES = new Set<string>([
  ...SCENARIO_FIELDS,
  ...JOB_FIELDS,
  ...EDGE_FIELDS,
  ...CLUSTER_FIELDS,
  ...RUN_FIELDS,
  ...COST_FIELDS,
  ...VERTEX_BASE_FIELDS,
  ...Object.values(OPERATOR_FIELDS).flat(),
  ...Object.values(SOURCE_FIELDS).flat(),
  ...Object.values(FILTER_FIELDS).flat(),
  ...Object.values(FAULT_FIELDS).flat(),
  ...Object.values(EXPECTATION_FIELDS).flat(),
  ...FLINK_OPTIONS.map((o) => o.key),
  ...DEPRECATED_KEYS,
]);

function parsedFromText(text: string) {
  const parsed = parseScenarioText(text);
  if (!parsed.ok) throw new Error(formatScenarioErrors(parsed.errors));
  return validateScenario(parsed.value);
}

describe('validateScenario on generated input', () => {
  it('accepts every generated valid scenario', () => {
    fc.assert(
      fc.property(validScenarioFile, (file) => {
        const result = validateScenario(file);
        expect(result.ok, result.ok ? '' : formatScenarioErrors(result.errors)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on a mutated scenario, and names a field whenever it rejects one', () => {
    fc.assert(
      fc.property(validScenarioFile, mutationArbitrary, (file, mutation) => {
        const { file: mutated, renamedTo } = mutate(file, mutation);
        const result = validateScenario(mutated);
        if (result.ok) {
          expect(renamedTo === undefined || KNOWN_NAMES.has(renamedTo), `a key renamed to ${renamedTo} was accepted`).toBe(true);
          return;
        }
        expect(result.errors.length).toBeGreaterThan(0);
        for (const error of result.errors) {
          expect(error.path).not.toBe('');
          expect(error.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = validateScenario(value);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary JSON in any section of a scenario', () => {
    const section = fc.jsonValue({ maxDepth: 4 });
    const scenarioLike = fc.record(
      {
        version: fc.oneof(fc.constant(1), section),
        name: fc.oneof(fc.constant('x'), section),
        job: section,
        config: section,
        cluster: section,
        costs: section,
        faults: section,
        run: section,
        expectations: section,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(scenarioLike, (value) => {
        expect(() => validateScenario(value)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const parsed = parseScenarioText(text);
        if (parsed.ok) validateScenario(parsed.value);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a valid scenario round-trips through text', () => {
  it('to the same parsed scenario from YAML and from JSON', () => {
    fc.assert(
      fc.property(validScenarioFile, (file) => {
        const direct = validateScenario(file);
        expect(parsedFromText(stringify(file))).toEqual(direct);
        expect(parsedFromText(JSON.stringify(file, null, 2))).toEqual(direct);
      }),
      { numRuns: 200 },
    );
  });
});
