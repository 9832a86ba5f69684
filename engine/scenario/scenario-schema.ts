/**
 * The JSON Schema (draft-07) of the scenario FILE format, for editors and external tools. It is
 * generated from the same vocabulary, defaults and option registry the validator uses, and shipped
 * as public/scenarios/scenario.schema.json (a test keeps the two identical).
 *
 * The schema checks structure and types. The validator checks more (references between fields,
 * the job graph's shape, slots, Flink's cross-option rules, ranges of text values), so anything the
 * schema rejects the validator rejects too, not the other way round.
 */

import { configDefinitions, configNodeRef, type JsonSchema, rangeKeywords } from './config-schema.ts';
import {
  anyOfWordsPattern,
  DURATION_PATTERN,
  MEMORY_SIZE_PATTERN,
  NON_BLANK_PATTERN,
} from './json-schema-patterns.ts';
import { SCENARIO_TEXT_LANGUAGES } from './localized-text.ts';
import { DEFAULT_COSTS, DEFAULT_RECORD_COST_US, DEFAULT_SEED, MAX_SEED } from './scenario-defaults.ts';
import { MAX_HOSTS, MAX_SCALE_HOSTS, MAX_RECORD_COST_US, MAX_SLOTS_PER_TASK_MANAGER, MAX_SLOWDOWN_FACTOR, MAX_SOURCE_KEYS, MAX_SOURCE_RATE_PER_S, MAX_TASK_MANAGERS_PER_HOST } from './workload-limits.ts';
import { CHECKPOINT_FAILURE_REASON_NAMES } from '../checkpoint/checkpoint-failure-reason.ts';
import { LOCAL_RECOVERY_FALLBACK_REASONS } from '../recovery/local-recovery.ts';
import {
  AGGREGATES,
  CHECKPOINT_STATISTICS,
  CHECKPOINT_TRIGGER_TYPES,
  EXPECTATION_TYPES,
  JOB_STATUSES,
  MAP_FUNCTIONS,
  PARTITIONINGS,
  RESTORE_SOURCES,
  RESTORED_FROM,
  ROCKSDB_METRICS,
  RUNTIMES,
  SINK_KINDS,
  STATISTIC_AGGREGATES,
  VERTEX_ID_PATTERN,
  VERTEX_TYPES,
  type VertexType,
} from './scenario-vocabulary.ts';

/**
 * A name or description: one text (any language, shown as it is), or one text per language with
 * English required (localized-text.ts).
 */
function localizedText(what: string, nonBlank: boolean): JsonSchema {
  const text: JsonSchema = { type: 'string', pattern: NON_BLANK_PATTERN };
  return {
    description: `${what}: a string, or one text per language (${SCENARIO_TEXT_LANGUAGES.join(', ')}), en required.`,
    oneOf: [
      nonBlank ? text : { type: 'string' },
      { type: 'object', properties: Object.fromEntries(SCENARIO_TEXT_LANGUAGES.map((l) => [l, text])), required: ['en'], additionalProperties: false },
    ],
  };
}

const ref = (name: string): JsonSchema => ({ $ref: `#/definitions/${name}` });

function object(properties: Record<string, JsonSchema>, required: string[] = [], description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    additionalProperties: false,
    ...(required.length === 0 ? {} : { required }),
    properties,
  };
}

function duration(description: string, minimum = 0): JsonSchema {
  return {
    description: `${description} Flink duration syntax ("500 ms", "10 s", "1 min") or a number of milliseconds.`,
    anyOf: [{ type: 'integer', minimum }, { type: 'string', pattern: DURATION_PATTERN }],
  };
}

const integer = (description: string, minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  description,
  ...rangeKeywords({ ...(minimum === undefined ? {} : { min: minimum }), ...(maximum === undefined ? {} : { max: maximum }) }),
});

const number = (description: string, range: { min?: number; minExclusive?: boolean; max?: number } = {}): JsonSchema => ({
  type: 'number',
  description,
  ...rangeKeywords(range),
});

const oneOfNames = (names: readonly string[], description: string): JsonSchema => ({
  type: 'string',
  enum: [...names],
  description,
});

export function scenarioFileSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Checkpoint Playground scenario',
    description:
      'A scenario for the Checkpoint Playground: a small Flink-style streaming job, its Flink configuration, the simulated cluster and costs, a fault schedule, a run length and expectations.',
    ...object(
      {
        $schema: { type: 'string', description: 'The schema this file follows (ignored by the playground).' },
        version: { const: 1, description: 'Version of the scenario format; always 1.' },
        name: localizedText('Name of the scenario', true),
        description: localizedText('What the scenario shows. Default: empty', false),
        seed: integer(`Seed of every random choice in the simulation. Default: ${DEFAULT_SEED}.`, 0, MAX_SEED),
        runtime: oneOfNames(RUNTIMES, 'records (default): the simulator moves every record; scale: each subtask is modelled by flows (rates, sizes, bandwidths), for production-sized jobs.'),
        scale: ref('scale'),
        job: ref('job'),
        config: { $ref: configNodeRef('') },
        cluster: ref('cluster'),
        costs: ref('costs'),
        faults: { type: 'array', description: 'Faults injected during the run. Default: none.', items: ref('fault') },
        run: object(
          { until: duration('How much virtual time to run.', 1) },
          [],
          'How long to run. `until` may be left out only when every source has a count; the run then lasts until the job finishes.',
        ),
        expectations: {
          type: 'array',
          description: 'What must hold after the run (the CLI exits 1 otherwise). Default: none.',
          items: ref('expectation'),
        },
      },
      ['version', 'name', 'job'],
    ),
    definitions: { ...jobDefinitions(), ...runtimeDefinitions(), ...configDefinitions() },
  };
}

function jobDefinitions(): Record<string, JsonSchema> {
  return {
    job: object(
      {
        name: { type: 'string', description: 'Name of the job. Default: the scenario name.' },
        vertices: { type: 'array', minItems: 1, items: ref('vertex'), description: 'The operators of the job.' },
        edges: { type: 'array', items: ref('edge'), description: 'Connections between vertices. Default: none.' },
      },
      ['vertices'],
      'The streaming job: vertices (operators) and the edges between them.',
    ),
    vertex: { oneOf: VERTEX_TYPES.map((type) => ref(`vertex:${type}`)) },
    ...Object.fromEntries(VERTEX_TYPES.map((type) => [`vertex:${type}`, vertexSchema(type)])),
    source: { oneOf: [sequenceSource(), randomSource(), linesSource()] },
    filter: { oneOf: filterSchemas() },
    edge: object(
      {
        from: { type: 'string', description: 'Id of the upstream vertex.' },
        to: { type: 'string', description: 'Id of the downstream vertex.' },
        partitioning: oneOfNames(
          PARTITIONINGS,
          'How records are spread over the downstream subtasks. Default: hash into keyed operators, forward between equal parallelisms, rebalance otherwise.',
        ),
      },
      ['from', 'to'],
    ),
  };
}

function vertexSchema(type: VertexType): JsonSchema {
  const { properties, required } = operatorFields(type);
  return object(
    {
      id: { type: 'string', pattern: VERTEX_ID_PATTERN.source, description: 'Unique id: lower-case letters, digits and "-".' },
      name: { type: 'string', description: 'Display name. Default: the id.' },
      parallelism: integer('Number of parallel subtasks. Default: config parallelism.default.', 1, 32_768),
      record_cost_us: number(`Virtual processing time per record, in µs. Default: ${DEFAULT_RECORD_COST_US[type]}.`, { min: 0, max: MAX_RECORD_COST_US }),
      type: { const: type },
      ...properties,
    },
    ['id', 'type', ...required],
  );
}

function operatorFields(type: VertexType): { properties: Record<string, JsonSchema>; required: string[] } {
  const aggregate = oneOfNames(AGGREGATES, 'count: records per key; sum: sum of their values.');
  const size = duration('Size of the tumbling event-time window.', 1);
  switch (type) {
    case 'source':
      return { properties: { source: ref('source') }, required: ['source'] };
    case 'map':
      return { properties: { fn: oneOfNames(MAP_FUNCTIONS, 'The map function.') }, required: ['fn'] };
    case 'filter':
      return { properties: { filter: ref('filter') }, required: ['filter'] };
    case 'keyed-aggregate':
      return { properties: { aggregate }, required: ['aggregate'] };
    case 'window':
      return { properties: { size, aggregate }, required: ['size', 'aggregate'] };
    case 'window-join':
      return { properties: { size }, required: ['size'] };
    case 'sink':
      return {
        properties: { sink: oneOfNames(SINK_KINDS, 'plain writes at once; two-phase-commit commits on checkpoint completion. Default: plain.') },
        required: [],
      };
  }
}

const sourceCommon = () => ({
  rate_per_s: number('Records per second, per source subtask.', { min: 0, minExclusive: true, max: MAX_SOURCE_RATE_PER_S }),
  count: integer('Records per source subtask; leave out for an unbounded source.', 0, Number.MAX_SAFE_INTEGER),
});

function sequenceSource(): JsonSchema {
  return object(
    { kind: { const: 'sequence' }, keys: integer('Number of distinct keys.', 1, MAX_SOURCE_KEYS), ...sourceCommon() },
    ['kind', 'keys', 'rate_per_s'],
    'Record i has key key-(i mod keys) and value 1.',
  );
}

function randomSource(): JsonSchema {
  return object(
    {
      kind: { const: 'random' },
      keys: integer('Number of distinct keys.', 1, MAX_SOURCE_KEYS),
      ...sourceCommon(),
      skew: number('Zipf exponent of the key distribution; 0 is uniform. Default: 0.', { min: 0 }),
      value_min: integer('Smallest value. Default: 1.'),
      value_max: integer('Largest value. Default: 1.'),
    },
    ['kind', 'keys', 'rate_per_s'],
    'Seeded random keys with Zipf skew and integer values.',
  );
}

function linesSource(): JsonSchema {
  return object(
    {
      kind: { const: 'lines' },
      lines: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Lines of text, cycled.' },
      ...sourceCommon(),
    },
    ['kind', 'lines', 'rate_per_s'],
    'The given lines, cycled; each record is a line with value 1.',
  );
}

function filterSchemas(): JsonSchema[] {
  return [
    object({ fn: { const: 'value-at-least' }, value: number('Keep records whose value is at least this.') }, ['fn', 'value']),
    object({ fn: { const: 'key-prefix' }, prefix: { type: 'string', description: 'Keep records whose key starts with this.' } }, ['fn', 'prefix']),
    object({ fn: { const: 'every-nth' }, n: integer('Keep every n-th record.', 1) }, ['fn', 'n']),
  ];
}

function runtimeDefinitions(): Record<string, JsonSchema> {
  return {
    cluster: object(
      {
        hosts: integer(`Simulated machines. Default: 1. At most ${MAX_HOSTS} with runtime records.`, 1, MAX_SCALE_HOSTS),
        task_managers_per_host: integer('TaskManagers (workers) per host. Default: 1.', 1, MAX_TASK_MANAGERS_PER_HOST),
        slots_per_task_manager: integer('Task slots per TaskManager. Default: config taskmanager.numberOfTaskSlots, else 1.', 1, MAX_SLOTS_PER_TASK_MANAGER),
      },
      [],
      'The simulated cluster. It needs at least as many slots as the largest vertex parallelism.',
    ),
    costs: costsSchema(),
    scale: scaleSchema(),
    fault: { oneOf: faultSchemas() },
    expectation: { oneOf: expectationSchemas() },
  };
}

function costsSchema(): JsonSchema {
  const d = DEFAULT_COSTS;
  return object(
    {
      network_latency_ms: number(`One-way delay of a network buffer or credit between TaskManagers. Default: ${d.network_latency_ms}.`, { min: 0 }),
      record_size_bytes: integer(`Serialized size of one record. Default: ${d.record_size_bytes}.`, 1),
      remote_latency_ms: number(`Latency of one request to remote checkpoint storage. Default: ${d.remote_latency_ms}.`, { min: 0 }),
      remote_bandwidth_mb_per_s: number(`Bandwidth of remote checkpoint storage. Default: ${d.remote_bandwidth_mb_per_s}.`, { min: 0, minExclusive: true }),
      local_latency_ms: number(`Latency of one request to a host's local disk. Default: ${d.local_latency_ms}.`, { min: 0 }),
      local_bandwidth_mb_per_s: number(`Bandwidth of a host's local disk. Default: ${d.local_bandwidth_mb_per_s}.`, { min: 0, minExclusive: true }),
    },
    [],
    'Costs of the simulated machine.',
  );
}

function scaleSchema(): JsonSchema {
  const size = (description: string): JsonSchema => ({
    description: `${description} A memory size in Flink syntax ("1 tb", "64 mb") or bytes. Default: 0.`,
    anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: MEMORY_SIZE_PATTERN }],
  });
  const bandwidth = (description: string) => number(`${description} Default: no limit.`, { min: 0, minExclusive: true });
  return object(
    {
      state_size: size('Keyed state of the whole job when it starts, split evenly over the keyed subtasks.'),
      state_growth_per_s: size('New keyed state per second of job time, the whole job.'),
      state_churn_per_s: size('Keyed state rewritten per second (updated keys): what an incremental checkpoint uploads again.'),
      compaction_per_s: size('Bytes RocksDB compaction rewrites per second: new SST files an incremental checkpoint uploads too.'),
      host_bandwidth_mb_per_s: bandwidth("Each host's network bandwidth, shared by its subtasks' uploads and restore reads."),
      remote_store_bandwidth_mb_per_s: bandwidth("The remote store's total bandwidth, shared by every subtask."),
    },
    [],
    'The flows of a runtime: scale scenario (only with runtime: scale).',
  );
}

function faultSchemas(): JsonSchema[] {
  const at = duration('When the fault happens, from the start of the run.');
  const vertex = { type: 'string', description: 'Id of a vertex.' };
  const fault = (type: string, properties: Record<string, JsonSchema>, description: string, optional: readonly string[] = []) =>
    object({ at, type: { const: type }, ...properties }, ['at', 'type', ...Object.keys(properties).filter((k) => !optional.includes(k))], description);
  const run = { type: 'string', description: "Only this shared SST run of the subtask's incremental copies (a name from the host disk's listing): every copy that references it is damaged with it." };
  const keyGroup = integer("Only the key-group handle of the subtask's copies that holds this key group (a full keyed snapshot's local copy is written as a few key-group ranges): the copy stays, partial, and a restore reads only that handle remotely.", 0);
  return [
    fault('fail-task', { vertex, subtask: integer('Subtask index, below the vertex parallelism.', 0) }, 'One subtask throws; the job fails over.'),
    fault('kill-task-manager', { task_manager: { type: 'string', pattern: '^tm-(0|[1-9][0-9]*)$', description: 'tm-0 … tm-(hosts × task_managers_per_host − 1).' } }, 'A TaskManager process dies; its host\'s local disk survives.'),
    fault('lose-host', { host: { type: 'string', pattern: '^host-(0|[1-9][0-9]*)$', description: 'host-0 … host-(hosts − 1).' } }, 'A host is lost with its TaskManagers and local disk.'),
    fault('slow-operator', { vertex, factor: number('Processing time is multiplied by this.', { min: 0, minExclusive: true, max: MAX_SLOWDOWN_FACTOR }) }, 'Every subtask of a vertex slows down.'),
    fault('slow-remote-storage', { factor: number('Upload and download times are multiplied by this (1 = normal).', { min: 0, minExclusive: true, max: MAX_SLOWDOWN_FACTOR }) }, 'Remote checkpoint storage slows down.'),
    fault('fail-remote-storage', {}, 'Remote checkpoint storage fails every write and read until healed: uploads decline with CHECKPOINT_ASYNC_EXCEPTION.'),
    fault('heal-remote-storage', {}, 'Remote checkpoint storage works again.'),
    fault('stall-task-manager', { task_manager: { type: 'string', pattern: '^tm-(0|[1-9][0-9]*)$', description: 'tm-0 … tm-(hosts × task_managers_per_host − 1).' } }, 'A TaskManager stops answering but does not die: the JobManager notices after heartbeat.timeout.'),
    fault(
      'trigger-checkpoint',
      { checkpoint_type: { enum: [...CHECKPOINT_TRIGGER_TYPES], description: 'Flink\'s checkpointType: FULL uploads all state of an incremental backend for this checkpoint; CONFIGURED (default) as configured.' } },
      'A manual checkpoint is triggered (POST /jobs/:id/checkpoints).',
      ['checkpoint_type'],
    ),
    fault('trigger-savepoint', {}, 'A savepoint is triggered.'),
    fault(
      'stop-with-savepoint',
      { drain: { type: 'boolean', description: 'Send MAX_WATERMARK first, so every event-time window fires before the savepoint (flink stop --drain). Default: false.' } },
      'Flink\'s stop-with-savepoint: a synchronous savepoint, the sink commits what it covers, and the job ends FINISHED; if the savepoint fails, the job keeps running.',
      ['drain'],
    ),
    fault('corrupt-local-copy', { host: { type: 'string', pattern: '^host-(0|[1-9][0-9]*)$', description: 'The host whose local disk holds the copy.' }, vertex, subtask: integer('Index of the subtask.', 0), run, key_group: keyGroup }, "A subtask's task-local copies on that host are corrupted: the next restore finds a bad checksum and falls back to the remote copy.", ['run', 'key_group']),
    fault('delete-local-copy', { host: { type: 'string', pattern: '^host-(0|[1-9][0-9]*)$', description: 'The host whose local disk holds the copy.' }, vertex, subtask: integer('Index of the subtask.', 0), run, key_group: keyGroup }, "A subtask's task-local copies on that host are deleted: the next restore reads the remote copy.", ['run', 'key_group']),
  ];
}

function expectationSchemas(): JsonSchema[] {
  const value = integer('The bound.', 0);
  const expectation = (type: (typeof EXPECTATION_TYPES)[number], properties: Record<string, JsonSchema>, description: string, optional: readonly string[] = []) =>
    object({ type: { const: type }, ...properties }, ['type', ...Object.keys(properties).filter((k) => !optional.includes(k))], description);
  const duration = (description: string): JsonSchema => ({
    description: `${description} A duration in Flink syntax ("500 ms", "20 s") or milliseconds.`,
    anyOf: [{ type: 'number', minimum: 0 }, { type: 'string', pattern: DURATION_PATTERN }],
  });
  const bound = (which: string): JsonSchema => ({
    description: `The ${which} of the range: a duration in Flink syntax ("500 ms", "2 s") or milliseconds; bytes for persisted-data and checkpointed-size, a number for checkpointed-fraction, a count for concurrent-checkpoints.`,
    anyOf: [{ type: 'number', minimum: 0 }, { type: 'string', pattern: DURATION_PATTERN }],
  });
  return [
    expectation('job-status', { status: { type: 'string', pattern: anyOfWordsPattern(JOB_STATUSES, { trimmed: false }), examples: [...JOB_STATUSES] } }, 'The job ends the run in this Flink JobStatus.'),
    expectation('exactly-once', {}, 'The sink output equals the failure-free run: no duplicates, nothing missing.'),
    expectation('min-sink-records', { value }, 'At least this many records reached the sink.'),
    expectation('min-completed-checkpoints', { value }, 'At least this many checkpoints completed.'),
    expectation('max-failed-checkpoints', { value }, 'At most this many checkpoints failed.'),
    expectation('min-duplicates', { value }, 'At least this many duplicates against the failure-free run (at-least-once, shown on purpose).'),
    expectation('min-restores', { value }, 'At least this many restores from a checkpoint or savepoint happened.'),
    expectation(
      'min-failed-checkpoints',
      { value, reason: oneOfNames(CHECKPOINT_FAILURE_REASON_NAMES, 'Only failures with this Flink CheckpointFailureReason count.') },
      'At least this many checkpoints failed (with the reason, if given).',
      ['reason'],
    ),
    expectation(
      'min-restored-subtasks',
      {
        value,
        source: oneOfNames(RESTORE_SOURCES, 'Where the subtask read its state: the host\'s task-local copy or remote checkpoint storage.'),
        reason: oneOfNames(LOCAL_RECOVERY_FALLBACK_REASONS, 'Only remote restores that fell back for this reason.'),
      },
      'At least this many subtask restores (over all restores) read their state from source.',
      ['reason'],
    ),
    expectation(
      'restore-source',
      {
        vertex: { type: 'string', description: 'Id of the vertex.' },
        subtask: integer('Index of the subtask (from 0).', 0),
        source: oneOfNames(RESTORE_SOURCES, 'Where the subtask read its state: the host\'s task-local copy or remote checkpoint storage.'),
        reason: oneOfNames(LOCAL_RECOVERY_FALLBACK_REASONS, 'Why a remote restore did not use its local copy.'),
        restore: integer('Which restore of the run (1 is the first); without it, every restore that restored the subtask.', 1),
      },
      'The subtask read its state from source (and, with reason, fell back to remote for it) in the given restore or in every one; it does not hold when the subtask was never restored.',
      ['reason', 'restore'],
    ),
    expectation(
      'mixed-restore',
      {
        vertex: { type: 'string', description: 'Id of the vertex.' },
        subtask: integer('Index of the subtask (from 0).', 0),
        restore: integer('Which restore of the run (1 is the first); without it, any restore of the subtask.', 1),
      },
      "The subtask restored some state handles from its host's task-local copy and the others from remote checkpoint storage (its local copy was partial or partly damaged), in the given restore or in some restore.",
      ['restore'],
    ),
    expectation(
      'statistic',
      {
        statistic: oneOfNames(CHECKPOINT_STATISTICS, 'The figure: checkpoint-pause (a completion to the next trigger), end-to-end-duration, alignment-duration, start-delay and sync-duration (longest subtask), persisted-data and checkpointed-size (bytes), checkpointed-fraction (checkpointed over full size), concurrent-checkpoints.'),
        aggregate: oneOfNames(STATISTIC_AGGREGATES, 'How its values are summarised.'),
        min: bound('lower end'),
        max: bound('upper end'),
      },
      "A figure of the run's checkpoints lies within [min, max] (give one or both); it does not hold while nothing was measured.",
      ['min', 'max'],
    ),
    expectation(
      'catch-up-time',
      { min: duration('The shortest catch-up allowed.'), max: duration('The longest catch-up allowed.') },
      "After a failover, the job time from RUNNING again until the sources' pendingRecords is back at its level before the failure (or about 0), for the slowest restore, lies within [min, max] (give one or both). A restore not caught up yet counts with the time so far: enough for min, never for max. It does not hold before a restore.",
      ['min', 'max'],
    ),
    expectation(
      'min-retained-checkpoints',
      { value },
      'Once the job ended, at least this many completed checkpoints stayed in checkpoint storage (execution.checkpointing.externalized-checkpoint-retention); savepoints are not counted. It does not hold while the job runs.',
    ),
    expectation(
      'max-retained-checkpoints',
      { value },
      'Once the job ended, at most this many completed checkpoints stayed in checkpoint storage (execution.checkpointing.externalized-checkpoint-retention); savepoints are not counted. It does not hold while the job runs.',
    ),
    expectation(
      'restored-parallelism',
      {
        vertex: { type: 'string', description: 'Id of the vertex.' },
        parallelism: integer('The parallelism the vertex came back with.', 1),
        from: oneOfNames(RESTORED_FROM, 'Only restores that read a savepoint, or a checkpoint.'),
      },
      'A restore brought the vertex back with this many subtasks (its keyed state redistributed by key group when that differs from before), from a savepoint or a checkpoint when from says which.',
      ['from'],
    ),
    expectation(
      'rocksdb-metric',
      {
        metric: oneOfNames(ROCKSDB_METRICS, 'The RocksDB counter, by the name the inspector shows: flushes, compactions and write stalls (lsm.…), or a RocksDB ticker (rocksdb.…).'),
        vertex: { type: 'string', description: 'Only the subtasks of this vertex; without it, every rocksdb subtask.' },
        min: integer('The lower end of the range: a count, or bytes for the ….bytes counters.', 0),
        max: integer('The upper end of the range: a count, or bytes for the ….bytes counters.', 0),
      },
      "A RocksDB counter summed over the rocksdb subtasks (of vertex, or all) lies within [min, max] (give one or both), counted since each subtask's backend opened (a restore starts it at 0). It does not hold when no subtask keeps its state in rocksdb.",
      ['vertex', 'min', 'max'],
    ),
  ];
}
