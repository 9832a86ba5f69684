/**
 * `ckpt-lab inspect` and the Flink statistics importer behind it: whatever a saved REST response
 * or History Server archive holds, every file gets a report or problems with their JSON paths, in
 * English and Chinese, exit 0 or 2 — never an exception or an internal error.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runInspectCommand } from '../../engine/cli/inspect-command.ts';
import { importFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';
import { allPaths, type FileValue } from '../scenario/scenario-samples.ts';
import { checkpointConfig, checkpointingStatistics, checkpointStatistics, taskCheckpointStatisticsWithSubtaskDetails } from '../interop/flink-document-arbitraries.ts';
import { applyEdits, hostileTree, InputCounter, PROTOTYPE_KEYS, runs, textEdit, treeJson, treeValue, answersSafely } from './fuzz-support.ts';

const counter = new InputCounter('Flink statistics import (ckpt-lab inspect)');

const SAMPLES = ['01-checkpoints-flink-kubernetes-operator-flink115-history10.json', '08-checkpoints-soojae-study-flink191-38completed.json'].map(
  (file) => JSON.parse(readFileSync(`tests/flink-samples/${file}`, 'utf8')) as FileValue,
);

/** One file through the command, as text and as JSON output, in both languages. */
function inspect(text: string, lang: 'en' | 'zh-CN'): void {
  answersSafely(() => {
    counter.count(text);
    const readFile = () => ({ ok: true as const, text });
    const report = runInspectCommand(['stats.json', '--lang', lang], readFile);
    expect([0, 2]).toContain(report.exitCode);
    if (report.exitCode === 2) expect(report.stderr).toMatch(/stats\.json: (cannot be read as Flink checkpoint statistics|无法读取为 Flink checkpoint 统计)\n {2}\S/);
    const json = runInspectCommand(['stats.json', '--json'], readFile);
    if (json.exitCode === 0) expect(() => JSON.parse(json.stdout) as unknown).not.toThrow();
  });
}

/** A document with one member replaced by a hostile value (or a hostile key added beside it). */
function planted(document: FileValue, path: (string | number)[], value: unknown, asKey: string | undefined): string {
  const copy = structuredClone(document) as Record<string, unknown>;
  if (path.length === 0) return JSON.stringify(value);
  let parent: Record<string, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string, unknown>;
  Object.defineProperty(parent, asKey ?? String(path[path.length - 1]), { value, enumerable: true, writable: true, configurable: true });
  return JSON.stringify(copy);
}

const document: fc.Arbitrary<FileValue> = fc.oneof(
  fc.constantFrom(...SAMPLES),
  checkpointingStatistics as fc.Arbitrary<unknown> as fc.Arbitrary<FileValue>,
  checkpointConfig as fc.Arbitrary<unknown> as fc.Arbitrary<FileValue>,
  checkpointStatistics(true) as fc.Arbitrary<unknown> as fc.Arbitrary<FileValue>,
  taskCheckpointStatisticsWithSubtaskDetails as fc.Arbitrary<unknown> as fc.Arbitrary<FileValue>,
);
const lang = fc.constantFrom('en' as const, 'zh-CN' as const);
const hostileValue = fc.oneof(hostileTree.map(treeValue), fc.constantFrom('NaN', 'Infinity', 1e308, -1, 2 ** 63, 'COMPLETED', 'FAILED', null, [], {}));

describe('fuzzing the Flink statistics importer', () => {
  it('reads real and generated responses with one member made hostile', () => {
    const input = document.chain((doc) => fc.record({ doc: fc.constant(doc), path: fc.constantFrom(...allPaths(doc)), value: hostileValue, asKey: fc.option(fc.constantFrom(...PROTOTYPE_KEYS), { nil: undefined, freq: 5 }) }));
    fc.assert(fc.property(input, lang, ({ doc, path, value, asKey }, l) => inspect(planted(doc, path, value, asKey), l)), runs(200));
  });

  it('reads History Server archives whose entries hold hostile paths and JSON', () => {
    const entry = fc.record({
      path: fc.oneof(fc.constantFrom('/jobs/j/checkpoints', '/jobs/j/checkpoints/config', '/jobs/j/checkpoints/details/1', '/jobs/j/checkpoints/details/1/subtasks/v', '/jobs/overview'), fc.string({ maxLength: 30 })),
      json: fc.oneof(hostileTree.map(treeJson), document.map((d) => JSON.stringify(d)), fc.string({ maxLength: 20 })),
    });
    fc.assert(fc.property(fc.array(entry, { maxLength: 4 }), lang, (archive, l) => inspect(JSON.stringify({ archive }), l)), runs(200));
  });

  it('reads hostile JSON trees and real responses broken by random edits', () => {
    const text = fc.oneof(hostileTree.map(treeJson), fc.record({ doc: document, edits: fc.array(textEdit, { minLength: 1, maxLength: 4 }) }).map(({ doc, edits }) => applyEdits(JSON.stringify(doc), edits)));
    fc.assert(fc.property(text, lang, (t, l) => inspect(t, l)), runs(200));
  });

  it('reads parsed values JSON cannot write (holes in lists, undefined members), as the page hands them over', () => {
    const odd = fc.oneof(fc.sparseArray(hostileTree.map(treeValue), { maxLength: 5 }), fc.constant(undefined), fc.constant([undefined]));
    const input = document.chain((doc) => fc.record({ doc: fc.constant(doc), path: fc.constantFrom(...allPaths(doc)), value: odd }));
    fc.assert(
      fc.property(input, ({ doc, path, value }) => {
        const copy = JSON.parse(planted(doc, path, null, undefined)) as unknown;
        let parent = copy as Record<string, unknown>;
        for (const step of path.slice(0, -1)) parent = parent[step] as Record<string, unknown>;
        if (path.length > 0) parent[String(path[path.length - 1])] = value;
        const result = answersSafely(() => importFlinkStatistics(counter.count(path.length > 0 ? copy : value)));
        if (!result.ok) for (const p of result.problems) expect(p.path).toMatch(/^\$/);
      }),
      runs(150),
    );
  });

  it.each([
    ['JSON nested 100,000 levels', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['an archive nested in an archive', JSON.stringify({ archive: [{ path: '/jobs/j/checkpoints', json: JSON.stringify({ archive: [{ path: '/jobs/j/checkpoints', json: '{}' }] }) }] })],
    ['a history of 100,000 entries', JSON.stringify({ counts: {}, summary: {}, latest: {}, history: Array.from({ length: 100_000 }, () => ({ id: 1 })) })],
  ])('reads %s in bounded time', (_what, text) => inspect(text, 'en'));
});
