import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flinkImportMessage, formatFlinkImportProblem, IMPORT_LOCALES } from '../../engine/interop/flink-import-messages.ts';
import type { FlinkImportProblem } from '../../engine/interop/flink-import-problem.ts';
import { importFlinkStatistics, importFlinkStatisticsText } from '../../engine/interop/flink-statistics-import.ts';
import { flinkResponseValidator } from '../flink-reference/flink-schema.ts';
import { checkpointConfig, checkpointingStatistics, checkpointStatistics, taskCheckpointStatisticsWithSubtaskDetails } from './flink-document-arbitraries.ts';

const [overview] = fc.sample(checkpointingStatistics.filter((d) => d.history.length >= 4 && d.latest.completed !== null), { numRuns: 1, seed: 1 });
const [details] = fc.sample(checkpointStatistics(true).filter((d) => Object.keys(d.tasks).length > 0), { numRuns: 1, seed: 2 });
const [subtasks] = fc.sample(taskCheckpointStatisticsWithSubtaskDetails.filter((d) => d.subtasks.length >= 2), { numRuns: 1, seed: 3 });
const [config] = fc.sample(checkpointConfig, { numRuns: 1, seed: 4 });

/** A copy of `document` with `change` applied to it. */
function broken<T>(document: T, change: (d: any) => void): unknown {
  const copy = structuredClone(document) as any;
  change(copy);
  return copy;
}

const firstVertex = Object.keys(details!.tasks)[0]!;
const archive = (...entries: { path: string; json: string }[]) => ({ archive: entries });

const CASES: [string, unknown, string][] = [
  ['a status Flink does not have', broken(overview, (d) => (d.history[3].status = 'DONE')),
    '`$.history[3].status`: `DONE` is not a Flink checkpoint status (IN_PROGRESS, COMPLETED, FAILED)'],
  ['a pre-1.15 entry of an unknown kind', broken(overview, (d) => { delete d.history[0].className; d.history[0] = { '@class': 'pending', ...d.history[0] }; }),
    '`$.history[0]["@class"]`: `pending` is not a kind of entry Flink writes here (completed, failed, in_progress)'],
  ['a count written as a string', broken(overview, (d) => (d.counts.total = '79')), '`$.counts.total`: expected an integer, got "79"'],
  ['a failed entry as the latest completed one', broken(overview, (d) => {
    const { external_path: _path, discarded: _discarded, ...shared } = d.latest.completed;
    d.latest.completed = { ...shared, className: 'failed', status: 'FAILED', failure_timestamp: 1, failure_message: 'Checkpoint expired before completing.' };
  }),
    '`$.latest.completed.className`: `failed` is not a kind of entry Flink writes here (completed)'],
  ['a percentile that is a string but not NaN', broken(overview, (d) => (d.summary.state_size.p50 = '150.5')),
    '`$.summary.state_size.p50`: expected a number (or "NaN"), got "150.5"'],
  ['a summary that is missing', broken(overview, (d) => delete d.summary.end_to_end_duration), '`$.summary.end_to_end_duration`: missing: expected an object'],
  ['a status that contradicts the className', broken(overview, (d) => (d.history[1] = { ...d.latest.completed, status: 'FAILED' })),
    '`$.history[1].status`: status `FAILED` does not match the entry\'s className `completed`'],
  ['a checkpoint type Flink does not write', broken(details, (d) => (d.checkpoint_type = 'FULL')),
    '`$.checkpoint_type`: `FULL` is not one of the values Flink writes here (CHECKPOINT, UNALIGNED_CHECKPOINT, SAVEPOINT, SYNC_SAVEPOINT)'],
  ['a vertex’s subtask count that is not an integer', broken(details, (d) => (d.tasks[firstVertex].num_subtasks = 1.5)),
    `\`$.tasks["${firstVertex}"].num_subtasks\`: expected an integer, got 1.5`],
  ['a subtask status of the UI, not of the REST API', broken(subtasks, (d) => { d.subtasks[1].status = 'pending'; }),
    '`$.subtasks[1].status`: `pending` is not one of the values Flink writes here (completed, pending_or_failed)'],
  ['a completed subtask whose status says pending', broken(subtasks, (d) => (d.subtasks[0] = { className: 'completed', index: 0, status: 'pending_or_failed' })),
    '`$.subtasks[0].status`: status `pending_or_failed` does not match the entry\'s className `completed`'],
  ['a mode in another spelling', broken(config, (d) => (d.mode = 'exactly-once')),
    '`$.mode`: `exactly-once` is not one of the values Flink writes here (exactly_once, at_least_once)'],
  ['an interval that is missing', broken(config, (d) => delete d.interval), '`$.interval`: missing: expected an integer'],
  ['a JSON array', [], '`$`: not a Flink checkpoint statistics document (expected the response of /jobs/:jobid/checkpoints, …/checkpoints/config, …/checkpoints/details/:checkpointid, …/subtasks/:vertexid, or a History Server archive); its keys are array'],
  ['another endpoint’s response', { jobs: [], other: 1 }, '`$`: not a Flink checkpoint statistics document (expected the response of /jobs/:jobid/checkpoints, …/checkpoints/config, …/checkpoints/details/:checkpointid, …/subtasks/:vertexid, or a History Server archive); its keys are jobs, other'],
  ['an archived response that is not JSON', archive({ path: '/jobs/a1/checkpoints', json: '{"counts":' }),
    '`$.archive[0].json`: the archived response is not JSON: Unexpected end of JSON input'],
  ['an archive without checkpoint responses', archive({ path: '/jobs/overview', json: '{"jobs":[]}' }),
    '`$.archive`: the History Server archive has 1 responses but none of a checkpoint endpoint (was checkpointing on?)'],
  ['an archived response with a bad field', archive({ path: '/jobs/a1/checkpoints/config', json: JSON.stringify(broken(config, (d) => (d.timeout = null))) }),
    '`$.archive[0].json.timeout`: expected an integer, got null'],
];

describe('input the importer cannot read', () => {
  it.each(CASES)('names the JSON path and what was expected: %s', (_name, input, message) => {
    const result = importFlinkStatistics(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => formatFlinkImportProblem(p, 'en'))).toEqual([message]);
  });

  it('says where the text stops being JSON', () => {
    const result = importFlinkStatisticsText('{"counts": {"total": 3,}}');
    expect(result.ok || result.problems.map((p) => [p.path, p.code])).toEqual([['$', 'syntax-error']]);
  });

  it('renders every problem in English and in Chinese, every parameter filled in', () => {
    const problems = CASES.flatMap(([, input]) => {
      const result = importFlinkStatistics(input);
      return result.ok ? [] : result.problems;
    });
    const extra: FlinkImportProblem[] = [{ code: 'syntax-error', path: '$', params: { reason: 'Unexpected token' } }];
    const codes = new Set([...problems, ...extra].map((p) => p.code));
    expect(codes.size).toBe(10);
    for (const problem of [...problems, ...extra]) {
      const [en, zh] = IMPORT_LOCALES.map((locale) => flinkImportMessage(problem, locale));
      expect(en).not.toEqual(zh);
      expect(`${en}${zh}`).not.toMatch(/\{\w+\}/);
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});

/** Every path to a value inside `value`, as key lists. */
function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]))];
}

function replaced(document: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(document) as any;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  const last = path[path.length - 1]!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

const SCHEMA_OF = {
  checkpoints: flinkResponseValidator('checkpointing-statistics'),
  checkpointConfig: flinkResponseValidator('checkpoint-config'),
} as const;

describe('whatever the input', () => {
  it('never throws, and either reads a schema-valid document or names at least one problem with a path', () => {
    const documents = fc.oneof(checkpointingStatistics as fc.Arbitrary<unknown>, checkpointConfig as fc.Arbitrary<unknown>);
    const mutation = fc.tuple(documents, fc.nat(), fc.oneof(fc.jsonValue(), fc.constant(undefined)));
    fc.assert(
      fc.property(mutation, ([document, pick, value]) => {
        const paths = leafPaths(document);
        const result = importFlinkStatistics(replaced(document, paths[pick % paths.length]!, value));
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const p of result.problems) expect(p.path).toMatch(/^\$/);
          return;
        }
        for (const key of ['checkpoints', 'checkpointConfig'] as const) {
          if (result.statistics[key] !== undefined) expect(SCHEMA_OF[key](result.statistics[key])).toEqual([]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary JSON text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        const result = importFlinkStatisticsText(text);
        expect(result.ok ? result.statistics.endpoint : result.problems.length).toBeTruthy();
      }),
      { numRuns: 300 },
    );
  });
});

describe('the page’s rendering of the problems', () => {
  it('is the importer’s, in the page’s language', async () => {
    const { flinkImportProblemText } = await import('../../web/i18n/flink-import-text.ts');
    const problem: FlinkImportProblem = { code: 'not-a-checkpoint-status', path: '$.history[3].status', params: { value: 'DONE', allowed: 'IN_PROGRESS, COMPLETED, FAILED' } };
    expect(flinkImportProblemText(problem, 'zh-CN')).toBe('`$.history[3].status`: `DONE` 不是 Flink 的 checkpoint 状态（IN_PROGRESS, COMPLETED, FAILED）');
    expect(flinkImportProblemText(problem, 'en')).toBe(formatFlinkImportProblem(problem, 'en'));
  });
});
