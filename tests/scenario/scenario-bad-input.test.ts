import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parseDocument } from 'yaml';
import { jsonErrorOffset } from '../../engine/scenario/json-error-offset.ts';
import { MAX_NESTING_DEPTH } from '../../engine/scenario/document-shape.ts';
import { findDuplicateJsonKey } from '../../engine/scenario/json-duplicate-keys.ts';
import { MAX_SCENARIO_TEXT_LENGTH } from '../../engine/scenario/scenario-text.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { localizeScenarioError } from '../../web/i18n/validation-messages.ts';

// The YAML parser, watched: a text over the limit must be refused without it ever being called.
vi.mock('yaml', async (importOriginal) => {
  const yaml = await importOriginal<typeof import('yaml')>();
  return { ...yaml, parseDocument: vi.fn(yaml.parseDocument) };
});

const JSON_SCENARIO = JSON.stringify({
  version: 1,
  name: 'bad input',
  job: {
    vertices: [
      { id: 'src', type: 'source', source: { kind: 'sequence', keys: 4, rate_per_s: 10, count: 10 } },
      { id: 'out', type: 'sink' },
    ],
    edges: [{ from: 'src', to: 'out' }],
  },
});

function validated(text: string) {
  const parsed = parseScenarioText(text);
  return parsed.ok ? validateScenario(parsed.value) : parsed;
}

describe('scenario text that is not what it should be', () => {
  it('reads a JSON or YAML scenario that starts with a UTF-8 byte order mark', () => {
    expect(validated(`\uFEFF${JSON_SCENARIO}`).ok).toBe(true);
    expect(parseScenarioText('\uFEFFversion: 1\n')).toEqual({ ok: true, value: { version: 1 } });
  });

  it('reports a JSON syntax error after a byte order mark at the column an editor shows', () => {
    expect(parseScenarioText('\uFEFF{"version": 1,}')).toMatchObject({ ok: false, errors: [{ line: 1, column: 15 }] });
  });

  it('refuses a JSON key set twice, naming its path, line and column', () => {
    const text = '{\n  "version": 1,\n  "job": { "vertices": [ { "id": "a", "type": "map", "id": "b" } ] }\n}';
    expect(parseScenarioText(text)).toEqual({
      ok: false,
      errors: [
        {
          path: 'job.vertices[0].id',
          message: expect.stringContaining('is set twice (JSON at line 3, column 54)'),
          allowed: 'each key once per map',
          line: 3,
          column: 54,
          code: 'text.duplicate-key',
          params: { line: 3, column: 54 },
          allowedMessage: { code: 'phrase', params: { text: 'each key once per map' } },
        },
      ],
    });
  });

  it('tells equal keys apart from equal values and keys of different objects', () => {
    expect(findDuplicateJsonKey('{"a": "a", "b": {"a": 1, "x\\"": ["a", {"a": 2}]}, "c": "\\\\"}')).toBeUndefined();
    expect(findDuplicateJsonKey('{"a": [1, {"b": 1, "\\u0062": 2}]}')).toEqual({ path: 'a[1].b', offset: 19 });
    expect(findDuplicateJsonKey('{"config": {"a.b": 1, "a.b": 2}}')?.path).toBe('config."a.b"');
  });

  it('refuses a text longer than the limit before parsing it, naming the limit', () => {
    const huge = `version: 1\nname: "${'x'.repeat(MAX_SCENARIO_TEXT_LENGTH)}"\n`;
    vi.mocked(parseDocument).mockClear();
    const parsed = parseScenarioText(huge);
    // Bounded: the length alone decides, the YAML parser (about 0.25 s per MB) never sees the text.
    expect(parseDocument).not.toHaveBeenCalled();
    expect(parsed).toMatchObject({ ok: false, errors: [{ path: '', message: `the scenario text is ${(MAX_SCENARIO_TEXT_LENGTH + 20).toLocaleString('en-US')} characters long; nothing was read`, allowed: 'at most 1,000,000 characters (MAX_SCENARIO_TEXT_LENGTH)' }] });
    expect(parseScenarioText('version: 1\n')).toEqual({ ok: true, value: { version: 1 } });
    expect(parseDocument).toHaveBeenCalledTimes(1);
  });

  it('refuses a JSON text longer than the limit without handing it to JSON.parse', () => {
    const huge = `{"version": 1, "name": "${'x'.repeat(MAX_SCENARIO_TEXT_LENGTH)}"}`;
    const jsonParse = vi.spyOn(JSON, 'parse');
    try {
      expect(parseScenarioText(huge)).toMatchObject({ ok: false, errors: [{ path: '', allowed: 'at most 1,000,000 characters (MAX_SCENARIO_TEXT_LENGTH)' }] });
      expect(jsonParse).not.toHaveBeenCalled();
    } finally {
      jsonParse.mockRestore();
    }
  });

  it('refuses a config nested 10,000 levels deep with the path where it gets too deep, without overflowing the stack', () => {
    let deep = '1';
    for (let i = 0; i < 10_000; i++) deep = `{"a":${deep}}`;
    const result = validated(JSON_SCENARIO.replace(/}$/, `,"config":${deep}}`));
    expect(result).toMatchObject({ ok: false, errors: [{ path: `config${'.a'.repeat(MAX_NESTING_DEPTH - 1)}`, message: `is nested more than ${MAX_NESTING_DEPTH} levels deep (or refers to itself)` }] });
  });

  it('refuses an object that refers to itself, as the API may be handed one', () => {
    const input = JSON.parse(JSON_SCENARIO) as Record<string, unknown>;
    const config: Record<string, unknown> = {};
    config['self'] = config;
    input['config'] = config;
    expect(validateScenario(input)).toMatchObject({ ok: false, errors: [{ message: expect.stringContaining('refers to itself') }] });
  });

  it('says a YAML text nests too deeply instead of passing on the parser’s stack overflow', () => {
    const parsed = parseScenarioText(`version: 1\nconfig: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
    expect(parsed).toMatchObject({ ok: false, errors: [{ path: '', message: expect.stringContaining('nests maps and lists too deeply') }] });
  });

  it('has each of these refusals in Chinese for the page', () => {
    let deep = '1';
    for (let i = 0; i < 100; i++) deep = `{"a":${deep}}`;
    const refusals = [
      parseScenarioText('x'.repeat(MAX_SCENARIO_TEXT_LENGTH + 1)),
      parseScenarioText('{"a": 1, "a": 2}'),
      parseScenarioText(`config: ${'['.repeat(10_000)}${']'.repeat(10_000)}`),
      validated(JSON_SCENARIO.replace(/}$/, `,"config":${deep}}`)),
    ];
    for (const refusal of refusals) {
      expect(refusal.ok).toBe(false);
      for (const error of refusal.ok ? [] : refusal.errors) {
        const zh = localizeScenarioError(error, 'zh-CN');
        expect(zh.message, error.message).toMatch(/[\u4e00-\u9fff]/);
        if (error.allowed !== undefined) expect(zh.allowed, error.allowed).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });

  it('points a JSON error V8 gives no position for at the token, not at the end of the file', () => {
    expect(parseScenarioText('{\n  "version": x,\n  "name": "n"\n}')).toMatchObject({ ok: false, errors: [{ line: 2, column: 14, message: "JSON syntax error at line 2, column 14: Unexpected token 'x'" }] });
  });

  it('finds a JSON syntax error exactly when JSON.parse does', () => {
    const edit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', 'x', '1', '-', 'e', '.', ' ', 'null', '\u0001') });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(edit, { maxLength: 3 }), (value, edits) => {
        const text = edits.reduce((t, { at, remove, insert }) => t.slice(0, at % (t.length + 1)) + insert + t.slice((at % (t.length + 1)) + remove), JSON.stringify(value) ?? 'null');
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(jsonErrorOffset(text) === -1).toBe(valid);
      }),
      { seed: 16, numRuns: 500 },
    );
  });
});
