import { describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';

const YAML_SCENARIO = `# a comment
version: 1
name: from yaml
job:
  vertices:
    - { id: src, type: source, source: { kind: sequence, keys: 8, rate_per_s: 1000, count: 50000 } }
    - { id: count, type: keyed-aggregate, aggregate: count }
    - { id: out, type: sink }
  edges:
    - { from: src, to: count }
    - { from: count, to: out }
config:
  execution.checkpointing.interval: 10 s
faults:
  - { at: 5 s, type: fail-task, vertex: count, subtask: 0 }
`;

describe('parseScenarioText', () => {
  it('reads YAML, with durations in Flink syntax left as text for the validator', () => {
    const parsed = parseScenarioText(YAML_SCENARIO);
    expect(parsed.ok).toBe(true);
    const validated = validateScenario(parsed.ok ? parsed.value : undefined);
    expect(validated.ok && validated.scenario.faults[0]).toEqual({ at_ms: 5000, type: 'fail-task', vertex: 'count', subtask: 0 });
  });

  it('reads JSON when the text starts with {', () => {
    expect(parseScenarioText('  {"version": 1, "name": "x"}')).toEqual({ ok: true, value: { version: 1, name: 'x' } });
  });

  it('reads YAML when asked to, even if the text starts with {', () => {
    expect(parseScenarioText('{version: 1}', 'yaml')).toEqual({ ok: true, value: { version: 1 } });
  });

  it.each([
    ['a YAML flow sequence left open', 'version: 1\nname: [a, b\njob: 3\n', 3, 1],
    ['a duplicate YAML key', 'version: 1\nname: a\nname: b\n', 3, 1],
    ['mapping items at different columns', 'version: 1\njob:\n  vertices: []\n   edges: []\n', 4, 1],
    ['a tab in YAML indentation', 'job:\n\tvertices: []\n', 2, 1],
  ])('reports %s with its line and column', (_what, text, line, column) => {
    const parsed = parseScenarioText(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.errors).toHaveLength(1);
      expect(parsed.errors[0]).toMatchObject({ path: '', line, column });
      expect(parsed.errors[0]?.message).toMatch(new RegExp(`^YAML syntax error at line ${line}, column ${column}: \\S`));
    }
  });

  it.each([
    ['a missing colon', '{\n  "version": 1,\n  "name" "x"\n}', 3, 10],
    ['a trailing comma', '{\n  "version": 1,\n}', 3, 1],
    ['unclosed braces', '{\n  "version": 1', 2, 15],
  ])('reports JSON with %s with its line and column', (_what, text, line, column) => {
    const parsed = parseScenarioText(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.errors[0]).toMatchObject({ path: '', line, column });
      expect(parsed.errors[0]?.message).toContain(`JSON syntax error at line ${line}, column ${column}`);
    }
  });

  it('reads an empty document as nothing, which the validator then rejects', () => {
    const parsed = parseScenarioText('');
    expect(parsed).toEqual({ ok: true, value: null });
    expect(validateScenario(null)).toMatchObject({ ok: false, errors: [{ path: '', message: expect.stringContaining('expected a scenario') }] });
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 12; i++) lines.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`);
    const parsed = parseScenarioText(lines.join('\n'));
    expect(parsed.ok).toBe(false);
  });
});
