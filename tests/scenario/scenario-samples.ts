/**
 * Scenario files (in the FILE format, as a user writes them) for the scenario tests: a few fixed
 * ones, a fast-check generator of valid ones, and mutations that break them.
 */

import fc from 'fast-check';

export type FileValue = null | boolean | number | string | FileValue[] | { [key: string]: FileValue };
export type ScenarioFile = { [key: string]: FileValue };

/** The smallest valid file: a bounded source into a sink. */
export function minimalFile(): ScenarioFile {
  return {
    version: 1,
    name: 'minimal',
    job: {
      vertices: [
        { id: 'src', type: 'source', source: { kind: 'sequence', keys: 4, rate_per_s: 100, count: 10 } },
        { id: 'out', type: 'sink' },
      ],
      edges: [{ from: 'src', to: 'out' }],
    },
  };
}

/** source → split-words → keyed count → sink, with config, cluster, faults and expectations. */
export function wordCountFile(): ScenarioFile {
  return {
    version: 1,
    name: 'word count',
    seed: 42,
    job: {
      vertices: [
        { id: 'lines', type: 'source', source: { kind: 'lines', lines: ['a b', 'b c'], rate_per_s: 100 } },
        { id: 'words', type: 'map', fn: 'split-words' },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count', parallelism: 4 },
        { id: 'out', type: 'sink', sink: 'two-phase-commit', parallelism: 4 },
      ],
      edges: [
        { from: 'lines', to: 'words' },
        { from: 'words', to: 'count' },
        { from: 'count', to: 'out', partitioning: 'forward' },
      ],
    },
    config: {
      'parallelism.default': 2,
      'execution.checkpointing.interval': '10 s',
      'execution.checkpointing.min-pause': '500 ms',
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.incremental': true,
    },
    cluster: { hosts: 2, task_managers_per_host: 2, slots_per_task_manager: 1 },
    faults: [
      { at: '5 s', type: 'kill-task-manager', task_manager: 'tm-3' },
      { at: '8 s', type: 'fail-task', vertex: 'count', subtask: 3 },
      { at: '12 s', type: 'lose-host', host: 'host-1' },
    ],
    run: { until: '60 s' },
    expectations: [{ type: 'exactly-once' }, { type: 'min-completed-checkpoints', value: 2 }],
  };
}

/** Two bounded sources joined in windows. */
export function joinFile(): ScenarioFile {
  return {
    version: 1,
    name: 'join',
    job: {
      vertices: [
        { id: 'left', type: 'source', source: { kind: 'sequence', keys: 5, rate_per_s: 50, count: 100 } },
        { id: 'right', type: 'source', source: { kind: 'random', keys: 5, rate_per_s: 10, count: 20, skew: 1.2 } },
        { id: 'join', type: 'window-join', size: '5 s' },
        { id: 'out', type: 'sink' },
      ],
      edges: [
        { from: 'left', to: 'join' },
        { from: 'right', to: 'join' },
        { from: 'join', to: 'out' },
      ],
    },
  };
}

const parallelism = fc.integer({ min: 1, max: 4 });
const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => /\S/.test(s));

const sourceArbitrary = (bounded: boolean): fc.Arbitrary<FileValue> => {
  const rate = fc.integer({ min: 1, max: 5000 });
  const kinds: fc.Arbitrary<Record<string, FileValue>> = fc.oneof(
    fc.record({ kind: fc.constant('sequence'), keys: fc.integer({ min: 1, max: 50 }), rate_per_s: rate }),
    fc
      .record({
        kind: fc.constant('random'),
        keys: fc.integer({ min: 1, max: 50 }),
        rate_per_s: rate,
        skew: fc.double({ min: 0, max: 3, noNaN: true }).map((x) => x + 0), // + 0 turns -0 into 0, as JSON does
        value_min: fc.integer({ min: -5, max: 5 }),
      })
      .map((s) => ({ ...s, value_max: s.value_min + 3 })),
    fc.record({ kind: fc.constant('lines'), lines: fc.array(fc.string(), { minLength: 1, maxLength: 3 }), rate_per_s: rate }),
  );
  if (!bounded) return kinds;
  return fc.tuple(kinds, fc.integer({ min: 0, max: 1000 })).map(([source, count]) => ({ ...source, count }));
};

const middleArbitrary: fc.Arbitrary<Record<string, FileValue>> = fc.oneof(
  fc.record({ type: fc.constant('map'), fn: fc.constantFrom('identity', 'lowercase', 'uppercase', 'double', 'split-words') }),
  fc.record({ type: fc.constant('filter'), filter: fc.oneof(
    fc.record({ fn: fc.constant('value-at-least'), value: fc.integer({ min: -3, max: 3 }) }),
    fc.record({ fn: fc.constant('key-prefix'), prefix: fc.string({ maxLength: 4 }) }),
    fc.record({ fn: fc.constant('every-nth'), n: fc.integer({ min: 1, max: 5 }) }),
  ) }),
);

const keyedArbitrary: fc.Arbitrary<Record<string, FileValue>> = fc.oneof(
  fc.record({ type: fc.constant('keyed-aggregate'), aggregate: fc.constantFrom('count', 'sum') }),
  fc.record({ type: fc.constant('window'), size: fc.constantFrom('1 s', '500 ms', 2000, '1 min'), aggregate: fc.constantFrom('count', 'sum') }),
);

const configArbitrary: fc.Arbitrary<Record<string, FileValue>> = fc.record(
  {
    'execution.checkpointing.interval': fc.constantFrom('10 s', '1 min', 5000, '250ms'),
    'execution.checkpointing.mode': fc.constantFrom('EXACTLY_ONCE', 'AT_LEAST_ONCE', 'exactly_once'),
    'execution.checkpointing.timeout': fc.constantFrom('10 min', '30 s', 60000),
    'state.checkpoints.num-retained': fc.integer({ min: 1, max: 5 }),
    'state.backend.type': fc.constantFrom('hashmap', 'rocksdb'),
    'execution.checkpointing.incremental': fc.boolean(),
    'taskmanager.memory.segment-size': fc.constantFrom('32kb', '4 kb', 65536),
    'restart-strategy.type': fc.constantFrom('fixed-delay', 'none', 'exponential-delay'),
  },
  { requiredKeys: [] },
);

interface Shape {
  source: FileValue;
  sourceP: number;
  middle: Record<string, FileValue> | null;
  middleP: number;
  keyed: Record<string, FileValue>;
  keyedP: number;
}

function pipelineVertices(s: Shape): FileValue[] {
  const vertices: FileValue[] = [{ id: 'src', type: 'source', parallelism: s.sourceP, source: s.source }];
  if (s.middle) vertices.push({ id: 'mid', parallelism: s.middleP, ...s.middle });
  vertices.push({ id: 'agg', parallelism: s.keyedP, ...s.keyed });
  vertices.push({ id: 'out', parallelism: s.keyedP, type: 'sink' });
  return vertices;
}

function pipelineEdges(s: Shape): FileValue[] {
  const first = s.middle ? 'mid' : 'src';
  const edges: FileValue[] = [];
  if (s.middle) edges.push({ from: 'src', to: 'mid', ...(s.sourceP === s.middleP ? {} : { partitioning: 'rebalance' }) });
  edges.push({ from: first, to: 'agg', partitioning: 'hash' });
  edges.push({ from: 'agg', to: 'out' });
  return edges;
}

/** Valid scenario files: a pipeline with optional config, cluster sized for it, and faults on what exists. */
export const validScenarioFile: fc.Arbitrary<ScenarioFile> = fc
  .record({
    bounded: fc.boolean(),
    sourceP: parallelism,
    middle: fc.option(middleArbitrary, { nil: null }),
    middleP: parallelism,
    keyed: keyedArbitrary,
    keyedP: parallelism,
    config: fc.option(configArbitrary, { nil: null }),
    hosts: fc.integer({ min: 1, max: 2 }),
    tms: fc.integer({ min: 1, max: 2 }),
    seed: fc.option(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { nil: null }),
    name: text,
    faultPicks: fc.array(fc.nat(), { maxLength: 3 }),
    until: fc.constantFrom('30 s', '2 min', 90000),
  })
  .chain((r) => sourceArbitrary(r.bounded).map((source) => ({ ...r, source })))
  .map((r) => {
    const shape: Shape = { source: r.source, sourceP: r.sourceP, middle: r.middle, middleP: r.middleP, keyed: r.keyed, keyedP: r.keyedP };
    const maxP = Math.max(r.sourceP, r.middle ? r.middleP : 1, r.keyedP);
    const cluster = { hosts: r.hosts, task_managers_per_host: r.tms, slots_per_task_manager: Math.ceil(maxP / (r.hosts * r.tms)) };
    const file: ScenarioFile = {
      version: 1,
      name: r.name,
      job: { vertices: pipelineVertices(shape), edges: pipelineEdges(shape) },
      cluster,
      faults: r.faultPicks.map((pick, i) => faultFor(pick, `${i + 1} s`, r.keyedP, r.hosts * r.tms, r.hosts)),
    };
    if (r.config) file.config = r.config;
    if (r.seed !== null) file.seed = r.seed;
    if (!r.bounded || r.faultPicks.length > 0) file.run = { until: r.until };
    return file;
  });

function faultFor(pick: number, at: string, keyedP: number, taskManagers: number, hosts: number): FileValue {
  const choices: FileValue[] = [
    { at, type: 'fail-task', vertex: 'agg', subtask: pick % keyedP },
    { at, type: 'kill-task-manager', task_manager: `tm-${pick % taskManagers}` },
    { at, type: 'lose-host', host: `host-${pick % hosts}` },
    { at, type: 'slow-operator', vertex: 'out', factor: 2.5 },
    { at, type: 'trigger-checkpoint' },
    { at, type: 'trigger-savepoint' },
  ];
  return choices[pick % choices.length]!;
}

/** Where a value sits in a file: the keys and indexes leading to it. */
export type FieldPath = (string | number)[];

export function allPaths(value: FileValue, prefix: FieldPath = []): FieldPath[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...prefix, i], ...allPaths(item, [...prefix, i])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...allPaths(v, [...prefix, k])]);
  }
  return [];
}

export type Mutation =
  | { kind: 'delete'; pick: number }
  | { kind: 'retype'; pick: number; replacement: FileValue }
  | { kind: 'typo'; pick: number; position: number; edit: 'insert' | 'drop' | 'swap' };

export const WRONG_VALUES: FileValue[] = [null, 42, -1, 1.5, 'x', '10 parsecs', true, [], {}, [1, 2], { a: 1 }, '', 0];

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('retype' as const), pick: fc.nat(), replacement: fc.constantFrom(...WRONG_VALUES) }),
  fc.record({
    kind: fc.constant('typo' as const),
    pick: fc.nat(),
    position: fc.nat(),
    edit: fc.constantFrom('insert' as const, 'drop' as const, 'swap' as const),
  }),
);

/** Applies the mutation to a copy; returns the copy and, for a typo, the new key. */
export function mutate(file: ScenarioFile, mutation: Mutation): { file: ScenarioFile; renamedTo?: string } {
  const copy = structuredClone(file);
  const paths = allPaths(copy);
  const path = paths[mutation.pick % paths.length]!;
  const parent = path.slice(0, -1).reduce<FileValue>((node, key) => (node as Record<string, FileValue>)[key]!, copy);
  const last = path[path.length - 1]!;
  if (mutation.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Record<string, FileValue>)[last];
    return { file: copy };
  }
  if (mutation.kind === 'retype' || typeof last === 'number') {
    const replacement = mutation.kind === 'retype' ? mutation.replacement : 'x';
    (parent as Record<string | number, FileValue>)[last] = replacement;
    return { file: copy };
  }
  return renameKey(copy, parent as Record<string, FileValue>, last, typo(last, mutation.position, mutation.edit));
}

function renameKey(copy: ScenarioFile, parent: Record<string, FileValue>, from: string, to: string) {
  if (to === from || to in parent) return { file: copy };
  const entries = Object.entries(parent);
  for (const key of Object.keys(parent)) delete parent[key];
  for (const [k, v] of entries) parent[k === from ? to : k] = v;
  return { file: copy, renamedTo: to };
}

function typo(key: string, position: number, edit: 'insert' | 'drop' | 'swap'): string {
  const i = position % (key.length + 1);
  if (edit === 'insert') return `${key.slice(0, i)}q${key.slice(i)}`;
  if (edit === 'drop' && key.length > 1) return key.slice(0, Math.min(i, key.length - 1)) + key.slice(Math.min(i, key.length - 1) + 1);
  if (key.length < 2) return `${key}_`;
  const j = Math.min(i, key.length - 2);
  return key.slice(0, j) + key[j + 1] + key[j] + key.slice(j + 2);
}
