/**
 * Share links (`#scenario=<base64url YAML>`), as the playground page and the embed page read
 * their address: any fragment and query give a scenario text, none, or a bad link with a reason
 * — never an exception out of the page's start — and the text then reads as any scenario does.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { readEmbedOptions } from '../../web/embed/embed-options.ts';
import { decodeScenario, encodeScenario, MAX_SHARED_SCENARIO_LENGTH, scenarioFromHash } from '../../web/embed/share-link.ts';
import { validScenarioFile } from '../scenario/scenario-samples.ts';
import { applyEdits, HOSTILE_STRINGS, hostileTree, InputCounter, runs, textEdit, treeJson, answersSafely } from './fuzz-support.ts';

const counter = new InputCounter('share links (#scenario=)');

/** What the page does with its address: the embed options, or the main page's share-link load. */
function openAddress(search: string, hash: string): void {
  answersSafely(() => {
    counter.count(hash);
    const options = readEmbedOptions({ search, hash });
    if (options.scenario.kind === 'bad-link') expect(options.scenario.reason).toMatch(/^the link's scenario is /);
    let text: string | null = null;
    try {
      text = scenarioFromHash(hash);
    } catch (error) {
      // the page shows this as the load problem (playground-state's #loadSharedFromHash)
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^the link's scenario is /);
    }
    if (text === null) return;
    const parsed = parseScenarioText(text);
    const result = parsed.ok ? validateScenario(parsed.value) : parsed;
    if (!result.ok) for (const e of result.errors) expect(e.message.trim()).not.toBe('');
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('fuzzing share links', () => {
  it('opens any fragment: random text, random bytes in base64url, several scenario= parameters', () => {
    const randomBytes = fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('base64url'));
    const fragment = fc.oneof(fc.string({ maxLength: 60 }), randomBytes, fc.constantFrom('%%%', '=', '====', 'a', 'ab=c', '+/+/', ' ', '\u0000', ...HOSTILE_STRINGS));
    const hash = fc.array(fragment, { minLength: 1, maxLength: 3 }).map((values) => `#${values.map((v) => `scenario=${v}`).join('&')}`);
    fc.assert(fc.property(hash, fc.string({ maxLength: 40 }), (h, search) => openAddress(`?${search}`, h)), runs(400));
  });

  it('opens links to hostile and broken scenarios, and a link changed by hand', () => {
    const yaml = fc.oneof(validScenarioFile.map((f) => stringify(f)), hostileTree.map(treeJson));
    const link = fc.record({ yaml, edits: fc.array(textEdit, { maxLength: 2 }) }).map(({ yaml: text, edits }) => `#scenario=${applyEdits(encodeScenario(text), edits)}`);
    fc.assert(fc.property(link, (h) => openAddress('', h)), runs(250));
  });

  it('round-trips any well-formed text through a link', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }).filter((s) => !LONE_SURROGATE.test(s)), (text) => {
        counter.count(text);
        expect(decodeScenario(encodeScenario(text))).toBe(text);
      }),
      runs(300),
    );
  });

  it('refuses a link longer than any scenario the reader takes, before decoding it', () => {
    const hash = `#scenario=${'A'.repeat(MAX_SHARED_SCENARIO_LENGTH + 4)}`;
    openAddress('', hash);
    expect(() => scenarioFromHash(hash)).toThrow(/^the link's scenario is 5,333,338 characters long; at most 5,333,334 are read$/);
  });
});
