import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { preParsedScenarioUrl } from '../../web/lessons/pre-parsed-scenario-url.ts';

/** The `<link rel="preload" as="fetch">` addresses of web/index.html, in order. */
function preloads(): string[] {
  const html = readFileSync('web/index.html', 'utf8');
  return [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch" crossorigin="anonymous" \/>/g)].map((m) => m[1]!);
}

describe('the first page’s preloads', () => {
  it('fetch, beside the script, the scenario list and the pre-parsed scenario of the lesson the first page opens', () => {
    // lessonScenarioDataUrl (web/lessons/lesson-state.svelte.ts) is a runes module Node cannot import: its rule is the pre-parsed twin of /lessons/<scenario file>.
    expect(preloads()).toEqual(['/scenarios/index.json', preParsedScenarioUrl(`/${LESSONS[0]!.scenario}`)]);
    expect(preloads()[1]).toBe('/lessons/interval-and-min-pause.json');
  });
});
