/**
 * The first page reads lesson 1's scenario pre-parsed as JSON (node/pre-parsed-scenarios.ts) and
 * loads the YAML parser only when a YAML text comes. The JSON is generated from the YAML by the
 * build and the dev server, never kept as a copy: checked here against the engine's YAML reader,
 * as the dev server serves it, and as the build emits it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { preParsedScenarioFiles, preParsedScenarioJson, preParsedScenarios } from '../../node/pre-parsed-scenarios.ts';
import { startAppDevServer } from '../../node/app-dev-server.ts';
import { preParsedScenarioUrl } from '../../web/lessons/pre-parsed-scenario-url.ts';
import { REPO_ROOT } from '../browser/browser-session.ts';
import { packagesImported, staticGraph } from '../support/static-module-graph.ts';

const PUBLIC = join(REPO_ROOT, 'public');
const yamlOf = (lessonScenario: string) => readFileSync(join(PUBLIC, lessonScenario), 'utf8');
const yamlValue = (text: string) => {
  const parsed = parseScenarioText(text);
  if (!parsed.ok) throw new Error('a lesson scenario does not parse');
  return parsed.value;
};

describe('lesson scenarios pre-parsed as JSON', () => {
  it('hold the document of each lesson’s YAML, which validates to the same scenario', () => {
    for (const lesson of LESSONS) {
      const yaml = yamlOf(lesson.scenario);
      const json: unknown = JSON.parse(preParsedScenarioJson(yaml, lesson.scenario));
      expect(json, lesson.scenario).toEqual(yamlValue(yaml));
      expect(validateScenario(json), lesson.scenario).toEqual(validateScenario(yamlValue(yaml)));
    }
  });

  it('are served for every lesson the catalog names, at the YAML’s address with .json', () => {
    const served = preParsedScenarioFiles(PUBLIC).map((f) => f.jsonUrl);
    expect(served).toEqual(expect.arrayContaining(LESSONS.map((l) => preParsedScenarioUrl(`/${l.scenario}`))));
    expect(preParsedScenarioUrl('/lessons/interval-and-min-pause.yaml')).toBe('/lessons/interval-and-min-pause.json');
  });

  it('are never a hand-kept copy: public/lessons/ holds no JSON', () => {
    expect(readdirSync(join(PUBLIC, 'lessons')).filter((f) => f.endsWith('.json'))).toEqual([]);
  });

  it('are emitted by the build for every lesson YAML, from the YAML', () => {
    const emitted = new Map<string, string>();
    const plugin = preParsedScenarios(PUBLIC);
    const generate = plugin.generateBundle as (this: { emitFile(file: { fileName: string; source: string }): string }) => void;
    generate.call({ emitFile: (file) => (emitted.set(file.fileName, file.source), file.fileName) });
    expect([...emitted.keys()].sort()).toEqual(LESSONS.map((l) => l.scenario.replace(/\.yaml$/, '.json')).sort());
    for (const lesson of LESSONS) expect(JSON.parse(emitted.get(lesson.scenario.replace(/\.yaml$/, '.json'))!)).toEqual(yamlValue(yamlOf(lesson.scenario)));
  });

  it('fail the build on a YAML that does not parse, naming the file', () => {
    expect(() => preParsedScenarioJson('a: [1, 2', 'lessons/broken.yaml')).toThrow(/lessons\/broken\.yaml cannot be pre-parsed/);
  });
});

describe('the dev server', () => {
  let server: Awaited<ReturnType<typeof startAppDevServer>>;
  beforeAll(async () => {
    server = await startAppDevServer(createServer, 'error');
  });
  afterAll(async () => {
    await server?.server.close();
  });

  it('answers a lesson’s pre-parsed scenario from its YAML as JSON', async () => {
    const lesson = LESSONS[0]!;
    const response = await fetch(server.baseUrl + preParsedScenarioUrl(`/${lesson.scenario}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual(yamlValue(yamlOf(lesson.scenario)));
  });
});

describe('the first page’s static module graph', () => {
  it('holds no YAML parser: it reads JSON, and imports the YAML reader when a YAML text comes', () => {
    const firstPage = staticGraph(join(REPO_ROOT, 'web/main.ts'));
    const yamlImporters = [...packagesImported(firstPage)].filter(([spec]) => spec === 'yaml' || spec.startsWith('yaml/')).map(([, file]) => relative(REPO_ROOT, file));
    expect(yamlImporters).toEqual([]);
    expect([...firstPage].map((file) => relative(REPO_ROOT, file))).not.toContain('engine/scenario/scenario-text.ts');
    // the reader the page uses is there, and it reaches the YAML reader only through import()
    const reader = join(REPO_ROOT, 'web/playground/scenario-text-reader.ts');
    expect(firstPage.has(reader)).toBe(true);
    expect(readFileSync(reader, 'utf8')).toMatch(/await import\('\.\.\/\.\.\/engine\/scenario\/scenario-text\.ts'\)/);
    expect(existsSync(join(REPO_ROOT, 'engine/scenario/scenario-text.ts'))).toBe(true);
  });
});
