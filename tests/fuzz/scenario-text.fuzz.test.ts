/**
 * Scenario files, YAML or JSON, as `ckpt-lab run`, the page's file picker, the API's load() and a
 * share link hand them to the reader and the validator: whatever the text, a value or messages
 * that name a field come back, in bounded time, with no prototype touched.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runRunCommand } from '../../engine/cli/run-command.ts';
import { decodeUtf8 } from '../../engine/cli/utf8-file-text.ts';
import { MAX_SCENARIO_TEXT_LENGTH } from '../../engine/scenario/scenario-text.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario, type ScenarioValidation } from '../../engine/scenario/scenario-validator.ts';
import { allPaths, minimalFile, validScenarioFile, wordCountFile, type FileValue } from '../scenario/scenario-samples.ts';
import { applyEdits, deeplyNestedJson, hostileTree, InputCounter, PROTOTYPE_KEYS, runs, textEdit, treeJson, treeValue, answersSafely, type Tree } from './fuzz-support.ts';

const counter = new InputCounter('scenario text (YAML/JSON)');

/** The reader and the validator, as every entry point chains them. */
function readScenario(text: string, format?: 'json' | 'yaml'): ScenarioValidation {
  return answersSafely(() => {
    const parsed = parseScenarioText(counter.count(text), format);
    return parsed.ok ? validateScenario(parsed.value) : parsed;
  });
}

/** A refusal says where and what: every error has a path (maybe the whole document) and a message. */
function expectClear(result: ScenarioValidation): void {
  if (result.ok) return;
  expect(result.errors.length).toBeGreaterThan(0);
  for (const error of result.errors) {
    expect(typeof error.path).toBe('string');
    expect(error.message.trim()).not.toBe('');
  }
  expect(formatScenarioErrors(result.errors).split('\n')).toHaveLength(result.errors.length);
}

/** A valid file with the value at one of its paths replaced by a hostile tree (or a hostile key added there). */
function plant(file: FileValue, path: (string | number)[], tree: Tree, asKey: string | undefined): unknown {
  const copy = structuredClone(file) as Record<string, unknown>;
  let parent: Record<string, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string, unknown>;
  const last = path[path.length - 1];
  const target = last === undefined ? copy : parent;
  const key = asKey ?? String(last ?? 'extra');
  Object.defineProperty(target, key, { value: treeValue(tree), enumerable: true, writable: true, configurable: true });
  return copy;
}

const YAML_ATTACKS = [
  'version: 1\nname: x\n__proto__: { polluted: yes }\n',
  'version: 1\nname: x\nconstructor: { prototype: { polluted: yes } }\n',
  'base: &b { __proto__: { polluted: yes } }\nversion: 1\nname: x\njob: { <<: *b }\n',
  'version: 1\nname: &n [*n]\n',
  'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nversion: 1\nname: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n',
  'version: 1\nname: !!js/function "function(){ return 1 }"\n',
  'version: 1\nname: !!binary aGVsbG8=\nseed: !!float 1e999\n',
  'version: !!int 0x1\nname: .nan\nseed: .inf\n',
  '%YAML 1.1\n---\nversion: 1\n---\nname: two documents\n',
  '? [a, b]\n: c\nversion: 1\n',
  `version: 1\nname: x\nconfig: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
  `version: 1\nname: x\nconfig:\n${Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n')} 1\n`,
  'version: 1\nname: x\nseed: 123456789012345678901234567890\n',
  `version: 1\nname: x\nconfig: { ${PROTOTYPE_KEYS.map((k) => `${k}: 1`).join(', ')} }\n`,
];

describe('fuzzing the scenario reader and validator', () => {
  it('answers every JSON text of hostile values with a value or messages that name a field', () => {
    fc.assert(fc.property(hostileTree, (tree) => expectClear(readScenario(treeJson(tree)))), runs(300));
  });

  it('answers hostile values planted anywhere in a valid scenario, as JSON and as YAML', () => {
    const planted = fc.oneof(fc.constant(minimalFile()), fc.constant(wordCountFile()), validScenarioFile).chain((file) =>
      fc.record({ file: fc.constant(file), path: fc.constantFrom(...allPaths(file)), tree: hostileTree, asKey: fc.option(fc.constantFrom(...PROTOTYPE_KEYS, 'polluted'), { nil: undefined }) }),
    );
    fc.assert(
      fc.property(planted, fc.boolean(), ({ file, path, tree, asKey }, json) => {
        const value = plant(file, path, tree, asKey);
        expectClear(readScenario(json ? JSON.stringify(value) : stringify(value), json ? 'json' : 'yaml'));
      }),
      runs(150),
    );
  });

  it('answers valid scenarios broken by random edits of their text, with a BOM or invalid UTF-8 in front', () => {
    const edited = fc.record({ file: validScenarioFile, json: fc.boolean(), edits: fc.array(textEdit, { minLength: 1, maxLength: 4 }), prefix: fc.constantFrom('', '\uFEFF', '\uFFFD', '\uD800') });
    fc.assert(
      fc.property(edited, ({ file, json, edits, prefix }) => {
        expectClear(readScenario(prefix + applyEdits(json ? JSON.stringify(file, null, 1) : stringify(file), edits)));
      }),
      runs(150),
    );
  });

  it('reads any bytes as a file is read: invalid UTF-8 refused with its offset, the rest read or refused clearly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const decoded = decodeUtf8(bytes);
        if (!decoded.ok) expect(decoded.offset).toBeLessThan(bytes.length);
        else expectClear(readScenario(decoded.text));
      }),
      runs(300),
    );
  });

  it('refuses what the validator refuses through `ckpt-lab run`: exit 2, the messages, no stack trace', () => {
    const edited = fc.record({ file: validScenarioFile, edits: fc.array(textEdit, { minLength: 1, maxLength: 4 }) }).map(({ file, edits }) => applyEdits(stringify(file), edits));
    fc.assert(
      fc.property(edited, (text) => {
        if (readScenario(text).ok) return; // a valid one would run the simulation: the other suites do that
        const result = runRunCommand(['scenario.yaml'], () => ({ ok: true, text }));
        expect(result.exitCode).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).not.toMatch(/^\s+at /m);
      }),
      runs(80),
    );
  });

  it.each(YAML_ATTACKS.map((text, i) => [i, text]))('answers YAML attack %i (aliases, merge keys, tags, nesting, prototype keys) and pollutes nothing', (_i, text) => {
    expectClear(readScenario(text));
  });

  it.each([
    ['JSON nested 10,000 levels', () => deeplyNestedJson(10_000)],
    ['a config nested 100,000 levels', () => `{"version":1,"name":"x","config":${deeplyNestedJson(100_000)}}`],
    ['a 50 MB YAML file', () => `version: 1\nname: x\ndescription: "${'x'.repeat(50_000_000)}"\n`],
    ['a text just over the limit', () => `# ${'-'.repeat(MAX_SCENARIO_TEXT_LENGTH)}\nversion: 1\n`],
    ['a million-item JSON list', () => `{"version":1,"name":"x","faults":[${'0,'.repeat(999_999)}0]}`],
  ])('answers %s in bounded time', (_what, make) => {
    const result = readScenario(make());
    expect(result.ok).toBe(false);
    expectClear(result);
  });
});
