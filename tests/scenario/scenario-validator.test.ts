import { describe, expect, it } from 'vitest';
import {
  formatScenarioErrors,
  type ScenarioError,
  validateScenario,
} from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { type FileValue, joinFile, minimalFile, type ScenarioFile, wordCountFile } from './scenario-samples.ts';
import { message } from '../../engine/messages/engine-message.ts';
import { scenarioError } from '../../engine/scenario/scenario-error.ts';

function valid(file: unknown): { scenario: Scenario; notes: string[] } {
  const result = validateScenario(file);
  if (!result.ok) throw new Error(`expected a valid scenario, got:\n${formatScenarioErrors(result.errors)}`);
  return result;
}

function errorsOf(file: unknown): ScenarioError[] {
  const result = validateScenario(file);
  if (result.ok) throw new Error('expected the scenario to be rejected');
  return result.errors;
}

/** A copy of `file` with the value at `path` (dot/bracket free: an array of keys) replaced or removed. */
function edit(file: ScenarioFile, path: (string | number)[], value: FileValue | undefined): ScenarioFile {
  const copy = structuredClone(file);
  const parent = path.slice(0, -1).reduce<FileValue>((node, key) => (node as Record<string, FileValue>)[key]!, copy) as Record<
    string | number,
    FileValue
  >;
  const last = path[path.length - 1]!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

describe('validateScenario fills the defaults', () => {
  it('of a minimal scenario', () => {
    const { scenario } = valid(minimalFile());
    expect(scenario).toEqual({
      version: 1,
      name: 'minimal',
      description: '',
      seed: 1,
      job: {
        name: 'minimal',
        vertices: [
          {
            id: 'src',
            name: 'src',
            parallelism: 1,
            record_cost_us: 1,
            operator: { type: 'source', source: { kind: 'sequence', keys: 4, rate_per_s: 100, count: 10 } },
          },
          { id: 'out', name: 'out', parallelism: 1, record_cost_us: 1, operator: { type: 'sink', sink: 'plain' } },
        ],
        edges: [{ from: 'src', to: 'out', partitioning: 'forward' }],
      },
      config: {},
      cluster: { hosts: 1, task_managers_per_host: 1, slots_per_task_manager: 1 },
      costs: {
        network_latency_ms: 0.2,
        record_size_bytes: 100,
        remote_latency_ms: 50,
        remote_bandwidth_mb_per_s: 100,
        local_latency_ms: 0.5,
        local_bandwidth_mb_per_s: 1000,
      },
      faults: [],
      run: { until_ms: Number.POSITIVE_INFINITY },
      expectations: [],
    });
  });

  it('of each operator type', () => {
    const { scenario } = valid(wordCountFile());
    const costs = Object.fromEntries(scenario.job.vertices.map((v) => [v.id, v.record_cost_us]));
    expect(costs).toEqual({ lines: 1, words: 1, count: 2, out: 1 });
    const join = valid(joinFile()).scenario.job.vertices.find((v) => v.id === 'join');
    expect(join).toMatchObject({ record_cost_us: 3, operator: { type: 'window-join', size_ms: 5000 } });
  });

  it('of a random source', () => {
    const { scenario } = valid(joinFile());
    expect(scenario.job.vertices[1]?.operator).toEqual({
      type: 'source',
      source: { kind: 'random', keys: 5, rate_per_s: 10, count: 20, skew: 1.2, value_min: 1, value_max: 1 },
    });
  });

  it('takes vertex parallelism from parallelism.default', () => {
    const { scenario } = valid(wordCountFile());
    expect(scenario.job.vertices.map((v) => v.parallelism)).toEqual([2, 2, 4, 4]);
  });

  it('settles partitioning as Flink does: hash into keyed operators, forward between equal parallelisms, rebalance otherwise', () => {
    const file = wordCountFile();
    const { scenario } = valid(edit(file, ['job', 'vertices', 1, 'parallelism'], 3));
    expect(scenario.job.edges.map((e) => e.partitioning)).toEqual(['rebalance', 'hash', 'forward']);
    expect(valid(joinFile()).scenario.job.edges.map((e) => e.partitioning)).toEqual(['hash', 'hash', 'forward']);
  });

  it('takes the slots per TaskManager from taskmanager.numberOfTaskSlots', () => {
    const file = edit(minimalFile(), ['config'], { 'taskmanager.numberOfTaskSlots': 4 });
    expect(valid(file).scenario.cluster).toEqual({ hosts: 1, task_managers_per_host: 1, slots_per_task_manager: 4 });
  });

  it('converts durations written in Flink syntax to milliseconds', () => {
    const { scenario } = valid(wordCountFile());
    expect(scenario.run.until_ms).toBe(60_000);
    expect(scenario.faults.map((f) => f.at_ms)).toEqual([5000, 8000, 12_000]);
    expect(scenario.config).toMatchObject({ 'execution.checkpointing.interval': 10_000, 'execution.checkpointing.min-pause': 500 });
  });

  it('accepts a number of milliseconds wherever a duration goes', () => {
    const file = edit(edit(wordCountFile(), ['run', 'until'], 30_000), ['faults', 0, 'at'], 1500);
    const { scenario } = valid(file);
    expect(scenario.run.until_ms).toBe(30_000);
    expect(scenario.faults[0]?.at_ms).toBe(1500);
  });

  it('reads faults and expectations as typed', () => {
    const { scenario } = valid(wordCountFile());
    expect(scenario.faults).toEqual([
      { at_ms: 5000, type: 'kill-task-manager', task_manager: 'tm-3' },
      { at_ms: 8000, type: 'fail-task', vertex: 'count', subtask: 3 },
      { at_ms: 12_000, type: 'lose-host', host: 'host-1' },
    ]);
    expect(scenario.expectations).toEqual([{ type: 'exactly-once' }, { type: 'min-completed-checkpoints', value: 2 }]);
  });

  it('upper-cases a job status, as Flink matches enum names in any case', () => {
    const file = edit(minimalFile(), ['expectations'], [{ type: 'job-status', status: 'finished' }]);
    expect(valid(file).scenario.expectations).toEqual([{ type: 'job-status', status: 'FINISHED' }]);
  });

  it('ignores a $schema reference', () => {
    expect(valid({ ...minimalFile(), $schema: './scenario.schema.json' }).scenario.name).toBe('minimal');
  });

  it('notes a fault scheduled after the run ends', () => {
    const file = edit(wordCountFile(), ['faults', 0, 'at'], '2 min');
    expect(valid(file).notes.join('\n')).toContain('faults[0] (kill-task-manager at 2 min) comes after the run ends at 1 min');
  });
});

interface BadCase {
  what: string;
  file: unknown;
  path: string;
  message: string | RegExp;
  allowed?: string | RegExp;
  suggestion?: string;
}

const base = wordCountFile();
const minimal = minimalFile();

const BAD_CASES: BadCase[] = [
  { what: 'input that is not an object', file: [1, 2], path: '', message: 'expected a scenario' },
  { what: 'a missing version', file: edit(minimal, ['version'], undefined), path: 'version', message: 'required field is missing', allowed: '1' },
  { what: 'an unsupported version', file: edit(minimal, ['version'], 2), path: 'version', message: 'unsupported scenario version 2', allowed: '1' },
  { what: 'a missing name', file: edit(minimal, ['name'], undefined), path: 'name', message: 'required field is missing' },
  { what: 'a blank name', file: edit(minimal, ['name'], '  '), path: 'name', message: 'not valid here', allowed: 'a non-empty string' },
  { what: 'a name of the wrong type', file: edit(minimal, ['name'], 42), path: 'name', message: 'expected a string, got the number 42' },
  { what: 'a field written without a value', file: edit(minimal, ['description'], null), path: 'description', message: 'has no value' },
  { what: 'a seed out of range', file: edit(minimal, ['seed'], -1), path: 'seed', message: '-1 is out of range', allowed: 'at most 4294967295' },
  { what: 'a fractional seed', file: edit(minimal, ['seed'], 1.5), path: 'seed', message: 'expected an integer' },
  { what: 'an unknown top-level field', file: { ...minimal, faultz: [] }, path: 'faultz', message: 'unknown field "faultz"', suggestion: 'faults' },
  { what: 'a missing job', file: edit(minimal, ['job'], undefined), path: 'job', message: 'required field is missing' },
  { what: 'a job that is a list', file: edit(minimal, ['job'], []), path: 'job', message: 'expected a job (its vertices and edges)' },
  { what: 'an empty vertex list', file: edit(minimal, ['job', 'vertices'], []), path: 'job.vertices', message: 'the list is empty' },
  {
    what: 'a misspelt vertex field',
    file: edit(base, ['job', 'vertices', 2, 'paralelism'], 2),
    path: 'job.vertices[2].paralelism',
    message: 'unknown field "paralelism"',
    suggestion: 'parallelism',
  },
  {
    what: 'a field of another operator type',
    file: edit(base, ['job', 'vertices', 3, 'fn'], 'identity'),
    path: 'job.vertices[3].fn',
    message: '"fn" is not a field of a sink vertex (it belongs to map vertices)',
  },
  {
    what: 'an unknown vertex type',
    file: edit(base, ['job', 'vertices', 2, 'type'], 'keyed-agregate'),
    path: 'job.vertices[2].type',
    message: 'unknown vertex type "keyed-agregate"',
    allowed: /source, map, filter, keyed-aggregate, window, window-join, sink/,
    suggestion: 'keyed-aggregate',
  },
  {
    what: 'a vertex id with capitals',
    file: edit(base, ['job', 'vertices', 0, 'id'], 'Lines'),
    path: 'job.vertices[0].id',
    message: '"Lines" is not valid here',
    allowed: /lower-case letters/,
  },
  {
    what: 'a duplicate vertex id',
    file: edit(base, ['job', 'vertices', 1, 'id'], 'lines'),
    path: 'job.vertices[1].id',
    message: 'duplicate vertex id "lines"',
  },
  {
    what: 'a negative parallelism',
    file: edit(base, ['job', 'vertices', 1, 'parallelism'], -2),
    path: 'job.vertices[1].parallelism',
    message: '-2 is out of range',
    allowed: 'an integer at least 1 and at most 32768',
  },
  {
    what: 'a parallelism as a string',
    file: edit(base, ['job', 'vertices', 1, 'parallelism'], 'four'),
    path: 'job.vertices[1].parallelism',
    message: 'expected an integer, got the string "four"',
  },
  {
    what: 'a parallelism above pipeline.max-parallelism',
    file: edit(edit(base, ['config', 'pipeline.max-parallelism'], 2), ['cluster', 'slots_per_task_manager'], 1),
    path: 'job.vertices[2].parallelism',
    message: '4 is out of range',
    allowed: 'at most 2',
  },
  {
    what: 'a source rate of the wrong type',
    file: edit(base, ['job', 'vertices', 0, 'source', 'rate_per_s'], 'fast'),
    path: 'job.vertices[0].source.rate_per_s',
    message: 'expected a number, got the string "fast"',
    allowed: 'a number greater than 0',
  },
  {
    what: 'a zero source rate',
    file: edit(base, ['job', 'vertices', 0, 'source', 'rate_per_s'], 0),
    path: 'job.vertices[0].source.rate_per_s',
    message: '0 is out of range',
  },
  {
    what: 'a missing source',
    file: edit(base, ['job', 'vertices', 0, 'source'], undefined),
    path: 'job.vertices[0].source',
    message: 'required field is missing',
  },
  {
    what: 'an unknown source kind',
    file: edit(base, ['job', 'vertices', 0, 'source', 'kind'], 'kafka'),
    path: 'job.vertices[0].source.kind',
    message: 'unknown source kind "kafka"',
    allowed: 'sequence, random, lines',
  },
  {
    what: 'a field of another source kind',
    file: edit(base, ['job', 'vertices', 0, 'source', 'skew'], 1),
    path: 'job.vertices[0].source.skew',
    message: '"skew" is not a field of a lines source (it belongs to random)',
  },
  {
    what: 'an empty list of lines',
    file: edit(base, ['job', 'vertices', 0, 'source', 'lines'], []),
    path: 'job.vertices[0].source.lines',
    message: 'the list is empty',
  },
  {
    what: 'a line that is not a string',
    file: edit(base, ['job', 'vertices', 0, 'source', 'lines', 1], 7),
    path: 'job.vertices[0].source.lines[1]',
    message: 'expected a string',
  },
  {
    what: 'value_max below value_min',
    file: edit(joinFile(), ['job', 'vertices', 1, 'source', 'value_min'], 5),
    path: 'job.vertices[1].source.value_max',
    message: 'value_max 1 is less than value_min 5',
  },
  {
    what: 'an unknown map function',
    file: edit(base, ['job', 'vertices', 1, 'fn'], 'split-word'),
    path: 'job.vertices[1].fn',
    message: 'unknown map function "split-word"',
    suggestion: 'split-words',
  },
  {
    what: 'a filter without its value',
    file: edit(base, ['job', 'vertices', 1], { id: 'words', type: 'filter', filter: { fn: 'value-at-least' } }),
    path: 'job.vertices[1].filter.value',
    message: 'required field is missing',
  },
  {
    what: 'a window without a size',
    file: edit(base, ['job', 'vertices', 2], { id: 'count', type: 'window', aggregate: 'count', parallelism: 4 }),
    path: 'job.vertices[2].size',
    message: 'required field is missing',
  },
  {
    what: 'a window size that is not a duration',
    file: edit(base, ['job', 'vertices', 2], { id: 'count', type: 'window', size: '10 parsecs', aggregate: 'sum', parallelism: 4 }),
    path: 'job.vertices[2].size',
    message: 'unknown time unit "parsecs"',
    allowed: /such as 500 ms, 10 s/,
  },
  {
    what: 'a zero window size',
    file: edit(joinFile(), ['job', 'vertices', 2, 'size'], '0 s'),
    path: 'job.vertices[2].size',
    message: '0 ms is out of range',
    allowed: /greater than 0 ms/,
  },
  {
    what: 'an unknown sink kind',
    file: edit(base, ['job', 'vertices', 3, 'sink'], '2pc'),
    path: 'job.vertices[3].sink',
    message: 'unknown sink kind "2pc"',
    allowed: 'plain, two-phase-commit',
  },
  {
    what: 'an unknown edge endpoint',
    file: edit(base, ['job', 'edges', 2, 'to'], 'outt'),
    path: 'job.edges[2].to',
    message: 'no vertex has the id "outt"',
    allowed: 'lines, words, count, out',
    suggestion: 'out',
  },
  {
    what: 'an unknown partitioning',
    file: edit(base, ['job', 'edges', 0, 'partitioning'], 'shuffle'),
    path: 'job.edges[0].partitioning',
    message: 'unknown partitioning "shuffle"',
    allowed: 'forward, hash, rebalance, broadcast',
  },
  {
    what: 'forward between different parallelisms',
    file: edit(edit(base, ['job', 'vertices', 3, 'parallelism'], 2), ['cluster', 'slots_per_task_manager'], 1),
    path: 'job.edges[2].partitioning',
    message: 'forward partitioning does not allow a change of parallelism, but "count" has 4 and "out" has 2',
    allowed: /hash, rebalance, broadcast, or equal parallelism/,
  },
  {
    what: 'a non-hash input into a keyed operator',
    file: edit(base, ['job', 'edges', 1, 'partitioning'], 'rebalance'),
    path: 'job.edges[1].partitioning',
    message: 'input must be hash-partitioned',
    allowed: 'hash',
  },
  {
    what: 'a cycle',
    file: edit(base, ['job', 'edges'], [
      { from: 'lines', to: 'words' },
      { from: 'words', to: 'count' },
      { from: 'count', to: 'words', partitioning: 'rebalance' },
      { from: 'count', to: 'out' },
    ]),
    path: 'job.edges[1]',
    message: 'the edges form a cycle: words → count → words',
  },
  {
    what: 'a job without a source',
    file: edit(base, ['job', 'vertices', 0], { id: 'lines', type: 'map', fn: 'identity' }),
    path: 'job.vertices',
    message: 'the job has no source',
  },
  {
    what: 'a job without a sink',
    file: edit(base, ['job', 'vertices', 3], { id: 'out', type: 'map', fn: 'identity', parallelism: 4 }),
    path: 'job.vertices',
    message: 'the job has no sink',
  },
  {
    what: 'an edge into a source',
    file: edit(base, ['job', 'edges', 3], { from: 'words', to: 'lines' }),
    path: 'job.edges[3].to',
    message: '"lines" is a source, and a source cannot have inputs',
  },
  {
    what: 'an edge out of a sink',
    file: edit(base, ['job', 'edges', 3], { from: 'out', to: 'count' }),
    path: 'job.edges[3].from',
    message: '"out" is a sink, and a sink cannot have outputs',
  },
  {
    what: 'an operator with no input',
    file: edit(base, ['job', 'edges'], [{ from: 'words', to: 'count' }, { from: 'count', to: 'out' }]),
    path: 'job.vertices[1]',
    message: 'the map vertex "words" has no input',
    allowed: 'exactly 1 input',
  },
  {
    what: 'an operator with no output',
    file: edit(base, ['job', 'edges'], [{ from: 'lines', to: 'words' }, { from: 'lines', to: 'count' }, { from: 'count', to: 'out' }]),
    path: 'job.vertices[1]',
    message: '"words" has no output',
  },
  {
    what: 'a window-join with one input',
    file: edit(joinFile(), ['job', 'edges', 1, 'to'], 'out'),
    path: 'job.vertices[2]',
    message: 'the window-join vertex "join" has 1 inputs',
    allowed: /exactly 2 inputs/,
  },
  {
    what: 'a map with two inputs',
    file: edit(base, ['job', 'edges', 3], { from: 'lines', to: 'words', partitioning: 'rebalance' }),
    path: 'job.vertices[1]',
    message: 'has 2 inputs (from "lines", "lines")',
  },
  {
    what: 'too few slots',
    file: edit(base, ['cluster', 'hosts'], 1),
    path: 'cluster',
    message: 'the job needs 4 slots (its largest vertex parallelism, with Flink\'s default slot sharing) but the cluster has 2',
    allowed: /at least 4 slots/,
  },
  {
    what: 'slots that disagree with taskmanager.numberOfTaskSlots',
    file: edit(base, ['config', 'taskmanager.numberOfTaskSlots'], 2),
    path: 'cluster.slots_per_task_manager',
    message: '1 disagrees with config taskmanager.numberOfTaskSlots 2',
  },
  {
    what: 'an unknown cluster field',
    file: edit(base, ['cluster', 'host'], 2),
    path: 'cluster.host',
    message: 'unknown field "host"',
    suggestion: 'hosts',
  },
  {
    what: 'a zero host count',
    file: edit(base, ['cluster', 'hosts'], 0),
    path: 'cluster.hosts',
    message: '0 is out of range',
  },
  {
    what: 'a negative cost',
    file: edit(base, ['costs'], { remote_latency_ms: -5 }),
    path: 'costs.remote_latency_ms',
    message: '-5 is out of range',
  },
  {
    what: 'a misspelt cost',
    file: edit(base, ['costs'], { remote_bandwith_mb_per_s: 5 }),
    path: 'costs.remote_bandwith_mb_per_s',
    message: 'unknown field',
    suggestion: 'remote_bandwidth_mb_per_s',
  },
  {
    what: 'a fault on a missing subtask',
    file: edit(base, ['faults', 1, 'subtask'], 4),
    path: 'faults[1].subtask',
    message: '"count" has parallelism 4, so it has no subtask 4',
    allowed: 'a subtask index from 0 to 3',
  },
  {
    what: 'a fault on a missing vertex',
    file: edit(base, ['faults', 1, 'vertex'], 'cuont'),
    path: 'faults[1].vertex',
    message: 'no vertex has the id "cuont"',
    suggestion: 'count',
  },
  {
    what: 'a fault on a missing TaskManager',
    file: edit(base, ['faults', 0, 'task_manager'], 'tm-4'),
    path: 'faults[0].task_manager',
    message: 'the cluster has no tm-4',
    allowed: 'tm-0 … tm-3',
  },
  {
    what: 'a TaskManager not named tm-<n>',
    file: edit(base, ['faults', 0, 'task_manager'], 'taskmanager-1'),
    path: 'faults[0].task_manager',
    message: 'not valid here',
    allowed: 'tm-0 … tm-3',
  },
  {
    what: 'a fault on a missing host',
    file: edit(base, ['faults', 2, 'host'], 'host-2'),
    path: 'faults[2].host',
    message: 'the cluster has no host-2',
    allowed: 'host-0 … host-1',
  },
  {
    what: 'an unknown fault type',
    file: edit(base, ['faults', 0, 'type'], 'kill-taskmanager'),
    path: 'faults[0].type',
    message: 'unknown fault type "kill-taskmanager"',
    suggestion: 'kill-task-manager',
  },
  {
    what: 'a fault without a time',
    file: edit(base, ['faults', 0, 'at'], undefined),
    path: 'faults[0].at',
    message: 'required field is missing',
  },
  {
    what: 'a fault time written with _ms',
    file: edit(edit(base, ['faults', 0, 'at'], undefined), ['faults', 0, 'at_ms'], 5000),
    path: 'faults[0].at_ms',
    message: 'unknown field "at_ms"',
    suggestion: 'at',
  },
  {
    what: 'a negative fault time',
    file: edit(base, ['faults', 0, 'at'], '-5 s'),
    path: 'faults[0].at',
    message: 'cannot be negative',
  },
  {
    what: 'a slow-operator fault without a factor',
    file: edit(base, ['faults', 0], { at: '1 s', type: 'slow-operator', vertex: 'count' }),
    path: 'faults[0].factor',
    message: 'required field is missing',
  },
  {
    what: 'a missing run length with an unbounded source',
    file: edit(base, ['run'], undefined),
    path: 'run.until',
    message: 'required because source "lines" is unbounded (it has no count)',
  },
  {
    what: 'a bad run length',
    file: edit(base, ['run', 'until'], '1 fortnight'),
    path: 'run.until',
    message: 'unknown time unit "fortnight"',
  },
  {
    what: 'a zero run length',
    file: edit(base, ['run', 'until'], 0),
    path: 'run.until',
    message: '0 ms is out of range',
  },
  {
    what: 'until_ms instead of until',
    file: edit(base, ['run'], { until_ms: 60000 }),
    path: 'run.until_ms',
    message: 'unknown field "until_ms"',
    suggestion: 'until',
  },
  {
    what: 'an unknown expectation type',
    file: edit(base, ['expectations', 0, 'type'], 'exactly_once'),
    path: 'expectations[0].type',
    message: 'unknown expectation type "exactly_once"',
    suggestion: 'exactly-once',
  },
  {
    what: 'an unknown job status',
    file: edit(base, ['expectations', 0], { type: 'job-status', status: 'DONE' }),
    path: 'expectations[0].status',
    message: 'unknown job status "DONE"',
    allowed: /RUNNING, .*FINISHED/,
  },
  {
    what: 'a negative expectation bound',
    file: edit(base, ['expectations', 1, 'value'], -1),
    path: 'expectations[1].value',
    message: '-1 is out of range',
  },
  {
    what: 'a misspelt config key',
    file: edit(base, ['config', 'execution.checkpointing.intervall'], '10 s'),
    path: 'config."execution.checkpointing.intervall"',
    message: 'unknown Flink option',
    suggestion: 'execution.checkpointing.interval',
  },
  {
    what: 'a bad duration in config',
    file: edit(base, ['config', 'execution.checkpointing.interval'], '10 sekunden'),
    path: 'config."execution.checkpointing.interval"',
    message: 'unknown time unit "sekunden"',
  },
  {
    what: 'a config value of the wrong type',
    file: edit(base, ['config', 'execution.checkpointing.incremental'], 'yes'),
    path: 'config."execution.checkpointing.incremental"',
    message: 'expected true or false, got the string "yes"',
    allowed: 'true or false',
  },
  {
    what: 'a config section that is a list',
    file: edit(base, ['config'], ['execution.checkpointing.interval: 10 s']),
    path: 'config',
    message: 'expected a map of Flink options',
  },
  {
    what: 'unaligned checkpoints with AT_LEAST_ONCE',
    file: edit(edit(base, ['config', 'execution.checkpointing.unaligned.enabled'], true), ['config', 'execution.checkpointing.mode'], 'AT_LEAST_ONCE'),
    path: 'config."execution.checkpointing.unaligned.enabled"',
    message: 'need execution.checkpointing.mode EXACTLY_ONCE',
  },
];

describe('validateScenario rejects invalid input, naming the field', () => {
  it.each(BAD_CASES.map((c) => [c.what, c] as const))(
    '%s',
    (_what, bad) => {
      const errors = errorsOf(bad.file);
      const error = errors.find((e) => e.path === bad.path);
      expect(error, `no error at ${bad.path}; got:\n${formatScenarioErrors(errors)}`).toBeDefined();
      if (typeof bad.message === 'string') expect(error!.message).toContain(bad.message);
      else expect(error!.message).toMatch(bad.message);
      if (bad.allowed !== undefined) {
        if (typeof bad.allowed === 'string') expect(error!.allowed).toContain(bad.allowed);
        else expect(error!.allowed).toMatch(bad.allowed);
      }
      if (bad.suggestion !== undefined) expect(error!.suggestion).toBe(bad.suggestion);
    },
  );

  it('reports every problem at once, not only the first', () => {
    const file = edit(edit(base, ['name'], 5), ['job', 'vertices', 1, 'fn'], 'nope');
    expect(errorsOf(file).map((e) => e.path)).toEqual(['name', 'job.vertices[1].fn']);
  });

  it('does not pile up follow-on errors for an edge whose end is unknown', () => {
    const errors = errorsOf(edit(base, ['job', 'edges', 2, 'to'], 'outt'));
    expect(errors.map((e) => e.path)).toEqual(['job.edges[2].to']);
  });

  it('never reads inherited properties as fields', () => {
    const file = edit(base, ['job', 'vertices', 1, 'type'], 'constructor');
    expect(errorsOf(file)[0]).toMatchObject({ path: 'job.vertices[1].type', message: 'unknown vertex type "constructor"' });
    expect(errorsOf(JSON.parse('{"__proto__": {"version": 1}}'))[0]?.path).toBe('__proto__');
  });
});

describe('formatScenarioErrors', () => {
  it('prints one line per error with what is allowed and the nearest valid name', () => {
    const errors = errorsOf(edit(edit(base, ['config', 'execution.checkpointing.intervall'], '10 s'), ['job', 'vertices', 1, 'parallelism'], 0));
    expect(formatScenarioErrors(errors).split('\n')).toEqual([
      'config."execution.checkpointing.intervall": unknown Flink option (or one the playground does not model) (allowed: the option keys listed in public/scenarios/scenario.schema.json) — did you mean "execution.checkpointing.interval"?',
      'job.vertices[1].parallelism: 0 is out of range (allowed: an integer at least 1 and at most 32768)',
    ]);
  });

  it('prints a document-level error without a path', () => {
    const error = scenarioError('', message('text.syntax-error', { language: 'YAML', line: 2, column: 1, reason: 'bad' }));
    expect(formatScenarioErrors([error])).toBe('YAML syntax error at line 2, column 1: bad');
  });
});
