import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { scenarioIndex } from '../../node/scenario-index.ts';
import { preParsedScenarioJson } from '../../node/pre-parsed-scenarios.ts';
import { decodeScenario, encodeScenario } from '../../web/embed/share-link.ts';
import { scenarioYaml } from '../../web/embed/scenario-yaml.ts';

/** Every scenario the site ships: the examples of the picker and the lessons' scenarios. */
const SHIPPED_DIRECTORIES = ['public/scenarios', 'public/lessons'];

const shipped = SHIPPED_DIRECTORIES.flatMap((directory) =>
  readdirSync(directory)
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => join(directory, file)),
);

function read(path: string): Scenario {
  const text = parseScenarioText(readFileSync(path, 'utf8'));
  const validated = text.ok ? validateScenario(text.value) : text;
  if (!validated.ok) throw new Error(`${path} is not a valid scenario: ${JSON.stringify(validated.errors)}`);
  return validated.scenario;
}

/** Chinese is written in Han characters; a "translation" without any is English (or empty) again. */
const HAN = /\p{Script=Han}/u;

/** Numbers as the text writes them, without grouping ("50,000" and "50000" are the same number). */
const numbersIn = (text: string) => [...text.replaceAll(/(\d),(\d{3})/g, '$1$2').matchAll(/\d+(\.\d+)?/g)].map((m) => m[0]).sort();

describe('every shipped scenario speaks Chinese', () => {
  it('ships scenarios from both directories', () => {
    expect(shipped.filter((p) => p.startsWith('public/scenarios/')).length).toBeGreaterThanOrEqual(16);
    expect(shipped.filter((p) => p.startsWith('public/lessons/')).length).toBeGreaterThanOrEqual(12);
  });

  it.each(shipped.map((path) => [path]))('%s has a Chinese name and description of its own', (path) => {
    const scenario = read(path);
    const chinese = scenario.translations?.['zh-CN'];
    expect(chinese?.name, 'no zh-CN name').toMatch(HAN);
    expect(chinese?.description, 'no zh-CN description').toMatch(HAN);
    expect(chinese!.name).not.toBe(scenario.name);
    expect(chinese!.description).not.toBe(scenario.description);
  });

  it.each(shipped.map((path) => [path]))('%s keeps the numbers of its English description in the Chinese one', (path) => {
    const scenario = read(path);
    // A translation may write a figure the English spells out ("a terabyte" is "1 TB"), never drop or change one.
    expect(numbersIn(scenario.translations!['zh-CN']!.description!)).toEqual(expect.arrayContaining(numbersIn(scenario.description)));
  });

  it.each(shipped.map((path) => [path]))('%s keeps the option keys and enum names of its English description', (path) => {
    const scenario = read(path);
    const flinkWords = (text: string) => [...new Set(text.match(/\b([a-z]+(\.[a-z-]+)+|[A-Z]+(_[A-Z]+)+)\b/g) ?? [])].sort();
    expect(flinkWords(scenario.translations!['zh-CN']!.description!)).toEqual(expect.arrayContaining(flinkWords(scenario.description)));
  });
});

describe("the picker's list", () => {
  it('carries the Chinese name of every scenario it lists, from the scenario file itself', () => {
    for (const entry of scenarioIndex('public')) {
      const scenario = read(join('public/scenarios', entry.file));
      expect(entry.name).toBe(scenario.name);
      expect(entry.translations?.['zh-CN']?.name).toBe(scenario.translations?.['zh-CN']?.name);
      expect(entry.translations?.['zh-CN']?.name).toMatch(HAN);
    }
  });
});

describe('both languages travel with a scenario', () => {
  const validated = (document: unknown) => {
    const result = validateScenario(document);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.scenario;
  };

  it.each(shipped.filter((p) => p.startsWith('public/lessons/')).map((path) => [path]))("in %s's pre-parsed JSON, which the first page reads", (path) => {
    const json = preParsedScenarioJson(readFileSync(path, 'utf8'), path);
    expect(validated(JSON.parse(json)).translations).toEqual(read(path).translations);
  });

  it('in a share link of the scenario as written', () => {
    const path = 'public/scenarios/min-pause.yaml';
    const text = parseScenarioText(readFileSync(path, 'utf8'));
    const written = text.ok ? (text.value as Record<string, unknown>) : {};
    const linked = parseScenarioText(decodeScenario(encodeScenario(scenarioYaml(written))));
    expect(linked.ok && validated(linked.value).translations).toEqual(read(path).translations);
    expect(read(path).translations?.['zh-CN']?.description).toMatch(HAN);
  });
});
