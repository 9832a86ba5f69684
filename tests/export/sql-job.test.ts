import { describe, expect, it } from 'vitest';
import { exportToFlink } from '../../engine/export/flink-export.ts';
import type { Scenario, VertexSpec } from '../../engine/scenario/scenario-types.ts';
import { shippedScenarios } from './shipped-scenarios.ts';

const SHIPPED = shippedScenarios();
const byFile = (name: string): Scenario => SHIPPED.find((s) => s.file.endsWith(name))!.scenario;
const job = (scenario: Scenario) => exportToFlink(scenario, 'sql-job');

/** The statements of a script, comments and blank lines left out. */
function statements(script: string): string[] {
  const code = script.split('\n').filter((l) => !l.startsWith('--') && l.trim() !== '').join('\n');
  return code.split(/;\n/).map((s) => s.trim()).filter((s) => s !== '');
}

function withVertex(scenario: Scenario, id: string, change: (v: VertexSpec) => VertexSpec): Scenario {
  const vertices = scenario.job.vertices.map((v) => (v.id === id ? change(v) : v));
  return { ...scenario, job: { ...scenario.job, vertices } };
}

describe('the scenario job as a Flink SQL script', () => {
  it.each(SHIPPED.map((s) => [s.file, s.scenario] as const))('%s: checkpoint SETs come first, then one datagen table per source and one INSERT per sink', (_file, scenario) => {
    const script = job(scenario);
    const all = statements(script);
    const firstOther = all.findIndex((s) => !s.startsWith('SET '));
    expect(all.slice(firstOther).some((s) => s.startsWith('SET '))).toBe(false);
    if (scenario.config['execution.checkpointing.interval'] !== undefined) expect(script).toContain("SET 'execution.checkpointing.interval'");
    const sources = scenario.job.vertices.filter((v) => v.operator.type === 'source').length;
    const sinks = scenario.job.vertices.filter((v) => v.operator.type === 'sink').length;
    expect(script.match(/'connector' = 'datagen'/g)).toHaveLength(sources);
    expect(script.match(/^INSERT INTO /gm)).toHaveLength(sinks);
    expect(script.split('(').length).toBe(script.split(')').length);
  });

  it('gives datagen the whole rate and row count of all source subtasks, and the scenario\'s number of keys', () => {
    const script = job(byFile('two-stream-join.yaml')); // impressions: 1000/s, 30000 rows, 20 keys, parallelism 2
    expect(script).toContain("'rows-per-second' = '2000'");
    expect(script).toContain("'number-of-rows' = '60000'");
    expect(script).toContain("'fields.key_id.max' = '19'");
  });

  it('leaves out number-of-rows for an unbounded source', () => {
    expect(job(byFile('click-counts.yaml'))).not.toContain('number-of-rows');
  });

  it.each([
    ['word-count.yaml', ['COUNT(*) AS record_value', 'GROUP BY record_key', 'UNNEST(SPLIT(record_key']],
    ['click-counts.yaml', ["TUMBLE(TABLE `clicks`, DESCRIPTOR(event_time), INTERVAL '10' SECOND)", 'GROUP BY window_start, window_end, window_time, record_key']],
    ['heap-timers.yaml', ["INTERVAL '1' MINUTE"]],
    ['two-stream-join.yaml', ['JOIN (', 'L.record_value * R.record_value', 'L.window_start = R.window_start AND L.window_end = R.window_end']],
  ])('%s has the same operator in SQL', (file, fragments) => {
    const script = job(byFile(file));
    for (const fragment of fragments) expect(script).toContain(fragment);
  });

  it.each([
    ['a Zipf-skewed source', byFile('click-counts.yaml'), '-- no datagen equivalent: Zipf skew 1.1'],
    ['a two-phase-commit sink', byFile('exactly-once-under-failures.yaml'), 'print has no transactions'],
    ['a vertex with its own parallelism', byFile('click-counts.yaml'), '-- runs with parallelism 4 in the scenario'],
    [
      'an every-nth filter',
      withVertex(byFile('word-count.yaml'), 'words', (v) => ({ ...v, operator: { type: 'filter', filter: { fn: 'every-nth', n: 3 } } })),
      '-- no SQL equivalent: keep one record in every 3',
    ],
    ['the fault schedule and the cluster', byFile('word-count.yaml'), '-- Not exported'],
  ])('says in a comment what SQL cannot express: %s', (_what, scenario, comment) => {
    expect(job(scenario)).toContain(comment);
  });

  it("gives a sink table with its own parallelism 'sink.parallelism'", () => {
    expect(job(byFile('click-counts.yaml'))).toContain("WITH ('connector' = 'print', 'sink.parallelism' = '4');");
    expect(job(byFile('word-count.yaml'))).toContain("WITH ('connector' = 'print');");
  });

  it('sums the value for a sum aggregate', () => {
    const scenario = withVertex(byFile('word-count.yaml'), 'count', (v) => ({ ...v, operator: { type: 'keyed-aggregate', aggregate: 'sum' } }));
    expect(job(scenario)).toContain('SUM(record_value) AS record_value');
  });
});
