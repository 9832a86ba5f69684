/**
 * The configuration editor's YAML view: a Flink config.yaml pasted as it is (flat keys, nested
 * maps, or a scenario fragment with `config:`), then applied through the scenario validator.
 * Whatever is pasted, the editor gets a draft or nothing, and the apply gets the config or
 * messages naming the option.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FLINK_OPTIONS, DEPRECATED_KEYS } from '../../engine/config/flink-options.ts';
import { formatScenarioErrors, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { pastedConfigDraft, readPastedConfig } from '../../web/config/config-paste.ts';
import { minimalFile } from '../scenario/scenario-samples.ts';
import { applyEdits, hostileScalar, hostileTree, HOSTILE_STRINGS, InputCounter, PROTOTYPE_KEYS, runs, textEdit, treeValue, answersSafely } from './fuzz-support.ts';

const counter = new InputCounter('Flink config paste');

/** What the editor does with a paste: the form's draft, and applying it to a scenario. */
function paste(text: string): void {
  answersSafely(() => {
    counter.count(text);
    const draft = pastedConfigDraft(text);
    if (draft) for (const value of Object.values(draft)) expect(typeof value).toBe('string');
    const pasted = readPastedConfig(text);
    const result = pasted.ok ? validateScenario({ ...minimalFile(), config: pasted.config }) : pasted;
    if (result.ok) return;
    for (const error of result.errors) expect(error.message.trim()).not.toBe('');
    expect(formatScenarioErrors(result.errors)).not.toBe('');
  });
}

const optionKey = fc.oneof(fc.constantFrom(...FLINK_OPTIONS.map((o) => o.key), ...DEPRECATED_KEYS), fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 30 }));
const optionValue = fc.oneof(
  hostileScalar,
  fc.constantFrom('10 s', '0 ms', '-1 s', '1e308 ms', '9223372036854775807 ms', '64 mb', '1e30 b', '-5 kb', 'EXACTLY_ONCE', 'true', 'TRUE', 'yes', '', ' ', '10 parsecs', ...HOSTILE_STRINGS),
);

describe('fuzzing the Flink config paste', () => {
  it('answers flat config.yaml lines of known, deprecated and hostile keys with any values', () => {
    const lines = fc.array(fc.tuple(optionKey, optionValue), { maxLength: 12 });
    fc.assert(fc.property(lines, (entries) => paste(entries.map(([key, value]) => `${key}: ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`).join('\n'))), runs(120));
  });

  it('answers nested maps, scenario fragments and hostile trees', () => {
    const tree = fc.oneof(hostileTree.map(treeValue), fc.dictionary(optionKey, optionValue).map((config) => ({ config })));
    fc.assert(fc.property(tree, (value) => paste(stringify(value))), runs(120));
  });

  it('answers a valid config.yaml broken by random edits', () => {
    const valid = FLINK_OPTIONS.slice(0, 20).map((o) => `${o.key}: ${o.type === 'boolean' ? 'true' : o.type === 'duration' ? '10 s' : o.type === 'memory' ? '64 mb' : '1'}`).join('\n');
    fc.assert(fc.property(fc.array(textEdit, { minLength: 1, maxLength: 5 }), (edits) => paste(applyEdits(valid, edits))), runs(120));
  });

  it.each([
    ['a map that refers to itself', 'a: &a { b: *a }\n'],
    ['a nested config 5,000 levels deep', `${Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`],
    ['prototype keys at every level', '__proto__: { polluted: 1 }\nconstructor: { prototype: { polluted: 1 } }\nexecution: { __proto__: { polluted: 1 } }\n'],
    ['a config 2 MB long', `pipeline.name: "${'x'.repeat(2_000_000)}"\n`],
    ['a list instead of a map', '- execution.checkpointing.interval: 10 s\n'],
  ])('answers %s in bounded time', (_what, text) => paste(text));
});
