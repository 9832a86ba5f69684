/**
 * The scenario's job as a Flink SQL script for the SQL client (`sql-client.sh -f job.sql`):
 * the checkpoint `SET`s first, a `datagen` table per source shaped like it, one view per operator
 * (the keyed aggregation as GROUP BY, a tumbling window as the TUMBLE TVF, the window join as two
 * window aggregations joined on key and window), and a `print` table per sink. What SQL cannot
 * say is written as a `--` comment where it would have been, never dropped silently.
 */

import { readConfig } from '../config/flink-options.ts';
import type { Aggregate, EdgeSpec, Scenario, SourceSpec, VertexSpec } from '../scenario/scenario-types.ts';
import { scenarioLabel } from './scenario-label.ts';
import { setStatement, sqlSetStatements, sqlString } from './sql-set.ts';

/** A table or view the script has defined: its name and columns; `timed` when event_time is a time attribute. */
interface Relation {
  name: string;
  columns: string[];
  timed: boolean;
}

interface Step {
  statements: string[];
  relation?: Relation;
  insert?: string;
}

const KEYED = ['record_key', 'record_value'];

export function exportSqlJob(scenario: Scenario): string {
  const relations = new Map<string, Relation>();
  const steps = topologicalOrder(scenario).map((vertex) => {
    const step = vertexStep(scenario, vertex, inputsOf(scenario, vertex, relations));
    if (step.relation) relations.set(vertex.id, step.relation);
    return step;
  });
  return [
    ...header(scenario),
    '',
    ...steps.flatMap((s) => [...s.statements, '']),
    ...inserts(steps.flatMap((s) => (s.insert ? [s.insert] : []))),
    '',
  ].join('\n');
}

function header(scenario: Scenario): string[] {
  return [
    `-- Flink 2.x SQL client script (sql-client.sh -f job.sql): the job of the scenario ${scenarioLabel(scenario)},`,
    '-- exported from Checkpoint Playground, with its checkpointing and state options first.',
    '-- Not exported (the playground\'s own): the fault schedule, the cluster shape, storage and record costs,',
    '-- the run length and the expectations.',
    setStatement('execution.runtime-mode', 'streaming'),
    ...(scenario.job.name ? [setStatement('pipeline.name', scenario.job.name)] : []),
    ...sqlSetStatements(scenario),
  ];
}

function inserts(statements: string[]): string[] {
  if (statements.length <= 1) return statements;
  return ['EXECUTE STATEMENT SET', 'BEGIN', ...statements, 'END;'];
}

function topologicalOrder(scenario: Scenario): VertexSpec[] {
  const done = new Set<string>();
  const order: VertexSpec[] = [];
  while (order.length < scenario.job.vertices.length) {
    const ready = scenario.job.vertices.filter(
      (v) => !done.has(v.id) && scenario.job.edges.every((e) => e.to !== v.id || done.has(e.from)),
    );
    if (ready.length === 0) break; // a cycle; the validator rejects it, so this only guards the loop
    for (const v of ready) {
      done.add(v.id);
      order.push(v);
    }
  }
  return order;
}

function inputsOf(scenario: Scenario, vertex: VertexSpec, relations: ReadonlyMap<string, Relation>): Array<{ edge: EdgeSpec; relation: Relation }> {
  return scenario.job.edges
    .filter((e) => e.to === vertex.id)
    .flatMap((edge) => {
      const relation = relations.get(edge.from);
      return relation ? [{ edge, relation }] : [];
    });
}

function vertexStep(scenario: Scenario, vertex: VertexSpec, inputs: Array<{ edge: EdgeSpec; relation: Relation }>): Step {
  const op = vertex.operator;
  // a sink table takes its own parallelism ('sink.parallelism'); other operators cannot
  const ownParallelism = op.type === 'sink' ? [] : parallelismNote(scenario, vertex);
  const notes = [`-- ${vertex.name} (${vertex.id})`, ...ownParallelism, ...inputs.flatMap((i) => partitioningNote(i.edge))];
  const input = inputs[0]?.relation;
  if (op.type === 'source') return withNotes(notes, sourceStep(vertex, op.source));
  if (!input) return { statements: [...notes, '-- skipped: it has no input'] };
  switch (op.type) {
    case 'map':
      return withNotes(notes, mapStep(vertex, op.fn, input));
    case 'filter':
      return withNotes(notes, filterStep(vertex, op.filter, input));
    case 'keyed-aggregate':
      return withNotes(notes, view(vertex, { columns: KEYED, timed: false }, keyedAggregate(op.aggregate, input)));
    case 'window':
      return withNotes(notes, windowStep(vertex, op.size_ms, op.aggregate, input));
    case 'window-join':
      return withNotes(notes, windowJoinStep(vertex, op.size_ms, inputs.map((i) => i.relation)));
    case 'sink':
      return withNotes(notes, sinkStep(vertex, op.sink, input, readConfig(scenario.config).defaultParallelism));
  }
}

function withNotes(notes: string[], step: Step): Step {
  return { ...step, statements: [...notes, ...step.statements] };
}

function parallelismNote(scenario: Scenario, vertex: VertexSpec): string[] {
  const defaultParallelism = readConfig(scenario.config).defaultParallelism;
  if (vertex.parallelism === defaultParallelism) return [];
  return [`-- runs with parallelism ${vertex.parallelism} in the scenario; a SQL job gives every operator parallelism.default (${defaultParallelism})`];
}

function partitioningNote(edge: EdgeSpec): string[] {
  if (edge.partitioning !== 'broadcast' && edge.partitioning !== 'rebalance') return [];
  return [`-- the edge ${edge.from} -> ${edge.to} is ${edge.partitioning} in the scenario; SQL has no hint for it, the planner picks the exchange`];
}

function ident(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

function view(vertex: VertexSpec, shape: Omit<Relation, 'name'>, query: string[], notes: string[] = []): Step {
  const relation = { name: ident(vertex.id), ...shape };
  return { statements: [...notes, `CREATE TEMPORARY VIEW ${relation.name} AS`, ...query.slice(0, -1), `${query.at(-1)!};`], relation };
}

// ---- sources ----

/** datagen's rate and row count are per table; the scenario's are per source subtask. */
function sourceStep(vertex: VertexSpec, source: SourceSpec): Step {
  const p = vertex.parallelism;
  const options = [
    ['connector', 'datagen'],
    ['rows-per-second', String(source.rate_per_s * p)],
    ...(source.count === undefined ? [] : [['number-of-rows', String(source.count * p)]]),
    ['fields.key_id.kind', 'random'],
    ['fields.key_id.min', '0'],
    ['fields.key_id.max', String(keyCount(source) - 1)],
    ...valueOptions(source),
  ];
  const name = ident(vertex.id);
  const statements = [
    ...sourceNotes(source, p),
    `CREATE TEMPORARY TABLE ${name} (`,
    '  key_id INT,',
    `  record_key AS ${keyExpression(source)},`,
    `  ${valueColumn(source)},`,
    '  event_time AS LOCALTIMESTAMP,',
    '  WATERMARK FOR event_time AS event_time',
    ') WITH (',
    options.map(([k, v]) => `  ${sqlString(k!)} = ${sqlString(v!)}`).join(',\n'),
    ');',
  ];
  return { statements, relation: { name, columns: [...KEYED, 'event_time'], timed: true } };
}

function keyCount(source: SourceSpec): number {
  return source.kind === 'lines' ? source.lines.length : source.keys;
}

function keyExpression(source: SourceSpec): string {
  if (source.kind !== 'lines') return "CONCAT('key-', CAST(key_id AS STRING))";
  return `ARRAY[${source.lines.map(sqlString).join(', ')}][key_id + 1]`;
}

function valueColumn(source: SourceSpec): string {
  return hasValueRange(source) ? 'record_value BIGINT' : 'record_value AS CAST(1 AS BIGINT)';
}

function hasValueRange(source: SourceSpec): source is Extract<SourceSpec, { kind: 'random' }> {
  return source.kind === 'random' && (source.value_min !== 1 || source.value_max !== 1);
}

function valueOptions(source: SourceSpec): string[][] {
  if (!hasValueRange(source)) return [];
  return [
    ['fields.record_value.min', String(source.value_min)],
    ['fields.record_value.max', String(source.value_max)],
  ];
}

function sourceNotes(source: SourceSpec, parallelism: number): string[] {
  const notes = [
    `-- ${source.rate_per_s} records/s${source.count === undefined ? '' : ` and ${source.count} records`} per source subtask in the scenario, times ${parallelism} subtasks here`,
    '-- event time: the scenario derives it from the record number and the rate; here it is the time a row is made',
  ];
  if (source.kind === 'sequence') notes.push('-- the scenario\'s keys take turns (key-(i mod keys)); datagen draws them at random');
  if (source.kind === 'lines') notes.push('-- the scenario cycles its lines in order; datagen picks one at random per row');
  if (source.kind === 'random' && source.skew > 0) notes.push(`-- no datagen equivalent: Zipf skew ${source.skew}; datagen keys are uniform`);
  return notes;
}

// ---- one-input operators ----

function mapStep(vertex: VertexSpec, fn: string, input: Relation): Step {
  const shape = { columns: input.columns, timed: input.timed };
  const project = (column: string, expression: string) =>
    [`SELECT ${input.columns.map((c) => (c === column ? `${expression} AS ${c}` : c)).join(', ')}`, `FROM ${input.name}`];
  switch (fn) {
    case 'lowercase':
      return view(vertex, shape, project('record_key', 'LOWER(record_key)'));
    case 'uppercase':
      return view(vertex, shape, project('record_key', 'UPPER(record_key)'));
    case 'double':
      return view(vertex, shape, project('record_value', 'record_value * 2'));
    case 'split-words':
      return view(vertex, shape, splitWords(input), ['-- SPLIT is a built-in function since Flink 1.20 (FLINK-32706)']);
    default:
      return view(vertex, shape, [`SELECT ${input.columns.join(', ')}`, `FROM ${input.name}`]);
  }
}

/** flatMap: one row per word, as the scenario's split-words emits (word, 1). */
function splitWords(input: Relation): string[] {
  const columns = input.columns.map((c) => (c === 'record_key' ? 'word AS record_key' : c));
  return [`SELECT ${columns.join(', ')}`, `FROM ${input.name}`, "CROSS JOIN UNNEST(SPLIT(record_key, ' ')) AS words (word)", "WHERE word <> ''"];
}

function filterStep(vertex: VertexSpec, filter: Extract<VertexSpec['operator'], { type: 'filter' }>['filter'], input: Relation): Step {
  const shape = { columns: input.columns, timed: input.timed };
  const select = [`SELECT ${input.columns.join(', ')}`, `FROM ${input.name}`];
  switch (filter.fn) {
    case 'value-at-least':
      return view(vertex, shape, [...select, `WHERE record_value >= ${filter.value}`]);
    case 'key-prefix':
      return view(vertex, shape, [...select, `WHERE SUBSTR(record_key, 1, ${filter.prefix.length}) = ${sqlString(filter.prefix)}`]);
    case 'every-nth':
      return view(vertex, shape, select, [`-- no SQL equivalent: keep one record in every ${filter.n} (a stream has no row number to filter on); all records pass here`]);
  }
}

function aggregateCall(aggregate: Aggregate): string {
  return aggregate === 'count' ? 'COUNT(*)' : 'SUM(record_value)';
}

function keyedAggregate(aggregate: Aggregate, input: Relation): string[] {
  return [`SELECT record_key, ${aggregateCall(aggregate)} AS record_value`, `FROM ${input.name}`, 'GROUP BY record_key'];
}

// ---- windows ----

const WINDOWED = ['window_start', 'window_end', ...KEYED, 'event_time'];

function windowStep(vertex: VertexSpec, sizeMs: number, aggregate: Aggregate, input: Relation): Step {
  if (!input.timed) return untimedWindow(vertex, input);
  return view(vertex, { columns: WINDOWED, timed: true }, windowAggregate(input, sizeMs, aggregate));
}

/** The window's end minus 1 ms is the scenario's output time; window_time is the same in Flink SQL. */
function windowAggregate(input: Relation, sizeMs: number, aggregate: Aggregate): string[] {
  return [
    `SELECT window_start, window_end, record_key, ${aggregateCall(aggregate)} AS record_value, window_time AS event_time`,
    `FROM TABLE(TUMBLE(TABLE ${input.name}, DESCRIPTOR(event_time), ${intervalLiteral(sizeMs)}))`,
    'GROUP BY window_start, window_end, window_time, record_key',
  ];
}

function untimedWindow(vertex: VertexSpec, input: Relation): Step {
  const note = '-- no SQL equivalent: an event-time window over an updating aggregate (it has no time attribute); records pass unchanged';
  return view(vertex, { columns: input.columns, timed: false }, [`SELECT ${input.columns.join(', ')}`, `FROM ${input.name}`], [note]);
}

/** Each side counted per key and window, then joined on both: leftCount × rightCount, as the scenario's join emits. */
function windowJoinStep(vertex: VertexSpec, sizeMs: number, inputs: Relation[]): Step {
  const [left, right] = inputs;
  if (!left || !right || !left.timed || !right.timed) return untimedWindow(vertex, left ?? right!);
  const side = (r: Relation) => windowAggregate(r, sizeMs, 'count').map((line) => `  ${line}`);
  const query = [
    'SELECT L.window_start, L.window_end, L.record_key, L.record_value * R.record_value AS record_value',
    'FROM (',
    ...side(left),
    ') L',
    'JOIN (',
    ...side(right),
    ') R',
    'ON L.record_key = R.record_key AND L.window_start = R.window_start AND L.window_end = R.window_end',
  ];
  return view(vertex, { columns: ['window_start', 'window_end', ...KEYED], timed: false }, query);
}

function intervalLiteral(ms: number): string {
  if (ms % 3_600_000 === 0) return `INTERVAL '${ms / 3_600_000}' HOUR`;
  if (ms % 60_000 === 0) return `INTERVAL '${ms / 60_000}' MINUTE`;
  if (ms % 1000 === 0) return `INTERVAL '${ms / 1000}' SECOND`;
  return `INTERVAL '${(ms / 1000).toFixed(3)}' SECOND`;
}

// ---- sinks ----

const COLUMN_TYPES: Readonly<Record<string, string>> = {
  window_start: 'TIMESTAMP(3)',
  window_end: 'TIMESTAMP(3)',
  record_key: 'STRING',
  record_value: 'BIGINT',
};

function sinkStep(vertex: VertexSpec, sink: 'plain' | 'two-phase-commit', input: Relation, defaultParallelism: number): Step {
  const columns = input.columns.filter((c) => c !== 'event_time');
  const name = ident(vertex.id);
  const note =
    sink === 'two-phase-commit'
      ? ["-- the scenario's sink commits in two phases on checkpoint completion; print has no transactions (a transactional sink would, e.g. Kafka with 'sink.delivery-guarantee' = 'exactly-once')"]
      : [];
  const statements = [
    ...note,
    `CREATE TEMPORARY TABLE ${name} (`,
    columns.map((c) => `  ${c} ${COLUMN_TYPES[c]}`).join(',\n'),
    vertex.parallelism === defaultParallelism
      ? ") WITH ('connector' = 'print');"
      : `) WITH ('connector' = 'print', 'sink.parallelism' = '${vertex.parallelism}');`,
  ];
  return { statements, insert: `INSERT INTO ${name} SELECT ${columns.join(', ')} FROM ${input.name};` };
}
