import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportScenarioFile } from '../../engine/export/scenario-file.ts';
import { scenarioTextIn } from '../../engine/scenario/localized-text.ts';
import { formatScenarioError, type ScenarioError } from '../../engine/scenario/scenario-error.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { minimalFile } from './scenario-samples.ts';
import { LANGUAGES } from '../../engine/messages/message-catalogues.ts';

const WORD_COUNT = { en: 'Word count', 'zh-CN': '单词计数' };
const DESCRIPTION = { en: 'Counts words; a checkpoint every second.', 'zh-CN': '统计单词；每秒做一次 checkpoint。' };

function valid(file: Record<string, unknown>): Scenario {
  const validated = validateScenario(file);
  if (!validated.ok) throw new Error(validated.errors.map((e) => formatScenarioError(e)).join('\n'));
  return validated.scenario;
}

function errorAt(file: Record<string, unknown>, path: string): ScenarioError {
  const validated = validateScenario(file);
  expect(validated.ok, 'the scenario must be refused').toBe(false);
  const errors = validated.ok ? [] : validated.errors;
  const error = errors.find((e) => e.path === path);
  expect(error, `no error at ${path}; got: ${errors.map((e) => formatScenarioError(e)).join(' | ')}`).toBeDefined();
  return error!;
}

const schema = JSON.parse(readFileSync(join('public', 'scenarios', 'scenario.schema.json'), 'utf8')) as Record<string, unknown>;
const checkSchema = new Ajv({ allErrors: true, strict: true }).compile(schema);

describe('a scenario name and description in two languages', () => {
  it('reads { en, zh-CN }: English as the name and description, Chinese as their translation', () => {
    const scenario = valid({ ...minimalFile(), name: WORD_COUNT, description: DESCRIPTION });
    expect(scenario.name).toBe('Word count');
    expect(scenario.description).toBe(DESCRIPTION.en);
    expect(scenario.translations).toEqual({ 'zh-CN': { name: '单词计数', description: DESCRIPTION['zh-CN'] } });
  });

  it('shows each reader the text in their language', () => {
    const scenario = valid({ ...minimalFile(), name: WORD_COUNT, description: DESCRIPTION });
    expect(scenarioTextIn(scenario, 'name', 'zh-CN')).toBe('单词计数');
    expect(scenarioTextIn(scenario, 'description', 'zh-CN')).toBe(DESCRIPTION['zh-CN']);
    expect(scenarioTextIn(scenario, 'name', 'en')).toBe('Word count');
    expect(scenarioTextIn(scenario, 'description', 'en')).toBe(DESCRIPTION.en);
  });

  it('shows a one-language text as written in both languages, and carries no translations', () => {
    const scenario = valid({ ...minimalFile(), name: '我的作业', description: '只有中文的描述' });
    expect(scenario.translations).toBeUndefined();
    for (const language of ['en', 'zh-CN'] as const) {
      expect(scenarioTextIn(scenario, 'name', language)).toBe('我的作业');
      expect(scenarioTextIn(scenario, 'description', language)).toBe('只有中文的描述');
    }
  });

  it('falls back to English where only the name is translated', () => {
    const scenario = valid({ ...minimalFile(), name: WORD_COUNT, description: 'English only' });
    expect(scenarioTextIn(scenario, 'description', 'zh-CN')).toBe('English only');
    expect(scenario.translations).toEqual({ 'zh-CN': { name: '单词计数' } });
  });

  it('takes { en } alone as an English text', () => {
    const scenario = valid({ ...minimalFile(), name: { en: 'Word count' } });
    expect(scenario.name).toBe('Word count');
    expect(scenario.translations).toBeUndefined();
  });

  it('names the job after the English name when the job has none', () => {
    const file = minimalFile() as { job: Record<string, unknown> };
    const { name: _dropped, ...job } = file.job;
    expect(valid({ ...file, job, name: WORD_COUNT }).job.name).toBe('Word count');
  });
});

describe('a name or description in two languages, refused', () => {
  it('refuses an unknown language, naming the allowed ones and the nearest', () => {
    const error = errorAt({ ...minimalFile(), description: { en: 'Counts words', zh: '统计单词' } }, 'description.zh');
    expect(error.message).toBe('unknown language "zh"');
    expect(error.allowed).toBe('en, zh-CN');
    expect(error.suggestion).toBe('zh-CN');
  });

  it('suggests zh-CN for zh_CN', () => {
    expect(errorAt({ ...minimalFile(), name: { en: 'Word count', zh_CN: '单词计数' } }, 'name.zh_CN').suggestion).toBe('zh-CN');
  });

  it('refuses a text that is not a string', () => {
    const error = errorAt({ ...minimalFile(), name: { en: 'Word count', 'zh-CN': 42 } }, 'name.zh-CN');
    expect(error.message).toBe('expected a string, got the number 42');
  });

  it('refuses an empty translation', () => {
    const error = errorAt({ ...minimalFile(), description: { en: 'Counts words', 'zh-CN': '  ' } }, 'description.zh-CN');
    expect(error.message).toContain('is not valid here');
    expect(error.allowed).toBe('a non-empty string');
  });

  it('refuses a map without English, the text every other reader falls back on', () => {
    const error = errorAt({ ...minimalFile(), name: { 'zh-CN': '单词计数' } }, 'name.en');
    expect(error.message).toBe('required field is missing');
  });

  it('refuses a list, saying both forms a text may take', () => {
    const error = errorAt({ ...minimalFile(), description: ['Counts words'] }, 'description');
    expect(error.allowed).toBe('a string, or a map of texts by language: en (required) and zh-CN');
  });

  it('says what is wrong in Chinese too', () => {
    const error = errorAt({ ...minimalFile(), description: { en: 'Counts words', zh: '统计单词' } }, 'description.zh');
    const chinese = formatScenarioError(error, LANGUAGES['zh-CN']);
    expect(chinese).toContain('未知的语言 "zh"');
    expect(chinese).toContain('允许：en, zh-CN');
    expect(chinese).toContain('"zh-CN"？');
  });

  it('runs nothing: a scenario with a bad translation is not a scenario', () => {
    expect(validateScenario({ ...minimalFile(), name: { en: 'Word count', 'zh-CN': '' } }).ok).toBe(false);
  });
});

describe('the JSON schema of a name or description', () => {
  it('accepts a plain string and { en, zh-CN }', () => {
    expect(checkSchema({ ...minimalFile(), name: WORD_COUNT, description: DESCRIPTION })).toBe(true);
    expect(checkSchema({ ...minimalFile(), name: '单词计数', description: 'only English' })).toBe(true);
  });

  it('rejects an unknown language, a map without en and an empty text', () => {
    expect(checkSchema({ ...minimalFile(), name: { en: 'Word count', zh: '单词计数' } })).toBe(false);
    expect(checkSchema({ ...minimalFile(), name: { 'zh-CN': '单词计数' } })).toBe(false);
    expect(checkSchema({ ...minimalFile(), description: { en: 'Counts', 'zh-CN': '' } })).toBe(false);
  });
});

describe('the exported scenario file', () => {
  it('writes both languages back and reads back the same scenario', () => {
    const scenario = valid({ ...minimalFile(), name: WORD_COUNT, description: DESCRIPTION });
    const text = exportScenarioFile(scenario);
    const document = parse(text) as Record<string, unknown>;
    expect(document['name']).toEqual(WORD_COUNT);
    expect(document['description']).toEqual(DESCRIPTION);
    const reread = parseScenarioText(text);
    const revalidated = reread.ok ? validateScenario(reread.value) : reread;
    expect(revalidated.ok && revalidated.scenario).toEqual(scenario);
  });

  it('keeps a one-language name and description plain strings', () => {
    const scenario = valid({ ...minimalFile(), name: '我的作业', description: 'Counts words.' });
    const document = parse(exportScenarioFile(scenario)) as Record<string, unknown>;
    expect(document['name']).toBe('我的作业');
    expect(document['description']).toBe('Counts words.');
  });
});
