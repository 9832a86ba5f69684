/**
 * What an embedding must never do: run script a scenario smuggled into the share dialog's
 * element snippet, stay silent to an `allowed-origins=*` parent, or take calls from a window
 * that is not the page embedding it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeCaller, OriginPolicy } from '../../web/embed/embed-bridge.ts';
import { elementSnippet, escapeScriptText, inlineScenarioText } from '../../web/embed/inline-scenario.ts';
import { scenarioYaml } from '../../web/embed/scenario-yaml.ts';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';

const MODULE = 'https://playground.example.org/embed/checkpoint-playground-element.ts';
const HOSTILE = '</script><img src=x onerror="alert(document.domain)"><!--<script>alert(1)</script>&lt;';

/** What the HTML parser sees of the snippet: the inline script's text runs to the first `</script` (any case). */
function parseSnippet(snippet: string): { scriptText: string; after: string } {
  const open = '<script type="text/yaml" data-escaped>';
  const start = snippet.indexOf(open) + open.length;
  const end = snippet.toLowerCase().indexOf('</script', start);
  return { scriptText: snippet.slice(start, end), after: snippet.slice(end) };
}

describe('the share dialog’s element snippet', () => {
  it('escapes a hostile scenario so the host page parses no tag from it, and the element reads it back', () => {
    const yaml = scenarioYaml({ version: 1, name: HOSTILE, description: 'a <b>bold</b> & </SCRIPT > claim' });
    const snippet = elementSnippet(MODULE, 'graph', yaml);
    const { scriptText, after } = parseSnippet(snippet);
    expect(after).toBe('</script>\n</checkpoint-playground>');
    expect(scriptText).not.toContain('<');
    expect(snippet.match(/<img|<!--/gi)).toBeNull();
    expect(parseScenarioText(inlineScenarioText(scriptText, true))).toEqual({ ok: true, value: { version: 1, name: HOSTILE, description: 'a <b>bold</b> & </SCRIPT > claim' } });
  });

  it('round-trips any scenario text and never lets it close the script', () => {
    const hostileString = fc.oneof(fc.string(), fc.constantFrom(HOSTILE, '</script', '&amp;lt;', '<!--', '&', '<'), fc.string({ unit: fc.constantFrom('<', '/', 's', 'S', '&', 'l', 't', ';', '!', '-', '>', ' ', '\n') }));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), hostileString, { maxKeys: 5 }), (fields) => {
        const input = { version: 1, ...fields };
        const yaml = scenarioYaml(input);
        const { scriptText, after } = parseSnippet(elementSnippet(MODULE, 'all', yaml));
        expect(after).toBe('</script>\n</checkpoint-playground>');
        expect(inlineScenarioText(scriptText, true)).toBe(yaml);
      }),
      { numRuns: 300, seed: 16 },
    );
  });

  it('reads a hand-written, unmarked script as it stands, indentation removed', () => {
    expect(inlineScenarioText('\n    version: 1\n    job:\n      name: a &lt; b\n  ', false)).toBe('version: 1\njob:\n  name: a &lt; b');
    expect(inlineScenarioText('{"version": 1}', false)).toBe('{"version": 1}');
    expect(escapeScriptText('a & <b>')).toBe('a &amp; &lt;b>');
  });
});

describe('who may call an embedded playground', () => {
  const own = 'https://playground.example.org';

  it('sends `ready` to any parent when allowed-origins is * alone, to the listed origins otherwise', () => {
    expect(new OriginPolicy(['*'], own).readyTargets).toEqual(['*']);
    expect(new OriginPolicy(['https://docs.example.org'], own).readyTargets).toEqual([own, 'https://docs.example.org']);
  });

  it('accepts a call only from the embedding parent on an allowed origin', () => {
    const policy = new OriginPolicy(['https://docs.example.org'], own);
    expect(judgeCaller(policy, 'https://docs.example.org', true)).toEqual({ accept: true });
    expect(judgeCaller(policy, 'https://docs.example.org', false)).toEqual({ accept: false, reason: expect.stringContaining('Only the page that embeds this playground') });
    expect(judgeCaller(policy, 'https://evil.example.org', true)).toEqual({ accept: false, reason: expect.stringContaining('may not call this playground') });
    expect(judgeCaller(new OriginPolicy(['*'], own), 'https://anywhere.example', false).accept).toBe(false);
  });
});
