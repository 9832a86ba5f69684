/**
 * The scenario fields of a partial local copy: `key_group` on the local-copy faults and the
 * `mixed-restore` expectation, each refused with the field named when it is wrong.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';

function example(): Record<string, unknown> & { faults: Array<Record<string, unknown>>; expectations: Array<Record<string, unknown>> } {
  const parsed = parseScenarioText(readFileSync('public/scenarios/partial-local-copy.yaml', 'utf8'), 'yaml');
  if (!parsed.ok) throw new Error('partial-local-copy.yaml does not parse');
  return parsed.value as ReturnType<typeof example>;
}

function errors(file: unknown): Array<{ path: string; message: string }> {
  const result = validateScenario(file);
  return result.ok ? [] : result.errors.map((e) => ({ path: e.path, message: e.message }));
}

describe('partial local copy fields', () => {
  it('accepts key_group on a local-copy fault and the mixed-restore expectation', () => {
    const result = validateScenario(example());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.scenario.faults[0]).toMatchObject({ type: 'delete-local-copy', key_group: 64 });
    expect(result.scenario.expectations).toContainEqual({ type: 'mixed-restore', vertex: 'count', subtask: 1, restore: 1 });
  });

  for (const [value, problem] of [
    [-1, 'out of range'],
    ['first', 'expected an integer'],
  ] as const) {
    it(`refuses key_group ${JSON.stringify(value)}, naming the field`, () => {
      const file = example();
      file.faults[0]!.key_group = value;
      const found = errors(file).find((e) => e.path === 'faults[0].key_group');
      expect(found, JSON.stringify(errors(file))).toBeDefined();
      expect(found!.message).toContain(problem);
    });
  }

  it('refuses a mixed-restore expectation naming a subtask the vertex does not have', () => {
    const file = example();
    file.expectations.push({ type: 'mixed-restore', vertex: 'count', subtask: 7 });
    expect(errors(file).map((e) => e.path)).toContain(`expectations[${file.expectations.length - 1}].subtask`);
  });
});
