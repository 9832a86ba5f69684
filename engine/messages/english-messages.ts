/**
 * The one English rendering of the engine's messages: the CLI prints it, the Playground API
 * returns it, and `ScenarioError.message` holds it. The wording is the validator's as it always
 * was, so text that scripts and tests match on does not move.
 */
import type { EngineMessage, MessageCode, MessageParams, Phrase } from './message-codes.ts';

type Render = (message: EngineMessage | string) => string;
export type Catalogue = { readonly [C in MessageCode]: (params: MessageParams[C], render: Render) => string };

/** How a duration is written, for "allowed" texts: `a duration of at least 10 ms, ${DURATION_SYNTAX}`. */
export const DURATION_SYNTAX =
  'such as 500 ms, 10 s or 1 min (a whole number and a unit: ns, µs/us, ms, s, min/m, h, d; no unit = ms)';

/** How a memory size is written, for "allowed" texts. */
export const MEMORY_SIZE_SYNTAX =
  'such as 64mb or 32 kb (a whole number and a unit: b, kb, mb, gb, tb, in powers of 1024; no unit = bytes)';

const PHRASES_EN: Partial<Record<Phrase, string>> = {
  'duration syntax': DURATION_SYNTAX,
  'memory size syntax': MEMORY_SIZE_SYNTAX,
};

const quoted = (ids: readonly string[]) => ids.map((id) => `"${id}"`).join(', ');
const ofRange = (render: Render, range: EngineMessage | undefined) => (range === undefined ? '' : ` ${render(range)}`);

export const ENGLISH_CATALOGUE: Catalogue = {
  phrase: ({ text }) => PHRASES_EN[text] ?? text,
  names: ({ names }) => names.join(', '),
  'value.null': () => 'null',
  'value.nothing': () => 'nothing',
  'value.list': () => 'a list',
  'value.object': () => 'an object',
  'value.string': ({ text }) => `the string ${text}`,
  'value.number': ({ value }) => `the number ${value}`,
  'value.literal': ({ text }) => text,

  'field.expected-map': ({ what, got }, r) => `expected ${r(what)} (a map of fields), got ${r(got)}`,
  'field.expected': ({ expected, got }, r) => `expected ${r(expected)}, got ${r(got)}`,
  'field.no-value': () => 'has no value',
  'field.missing': () => 'required field is missing',
  'field.not-valid-here': ({ value }) => `${value} is not valid here`,
  'field.unknown-name': ({ what, value }, r) => `unknown ${r(what)} ${value}`,
  'field.out-of-range': ({ value }) => `${value} is out of range`,
  'field.list-empty': () => 'the list is empty',
  'field.unknown': ({ name }) => `unknown field ${name}`,
  'field.of-other-vertex': ({ name, type, owners }) => `"${name}" is not a field of a ${type} vertex (it belongs to ${owners.join(', ')} vertices)`,
  'field.of-other-source': ({ name, kind, owners }) => `"${name}" is not a field of a ${kind} source (it belongs to ${owners.join(', ')})`,

  bounds: ({ bounds }) => bounds.map((b) => `${b.word} ${b.value}`).join(' and ') || 'any number',
  'allowed.duration': ({ range }, r) => (range ? `a duration of ${r(range)}, ${DURATION_SYNTAX}` : `a duration ${DURATION_SYNTAX}`),
  'allowed.memory': ({ range }, r) => (range ? `a memory size of ${r(range)}, ${MEMORY_SIZE_SYNTAX}` : `a memory size ${MEMORY_SIZE_SYNTAX}`),
  'allowed.integer': ({ range, sentinel }, r) => `an integer${ofRange(r, range)}${sentinel ? `, or ${sentinel.value} (${sentinel.meaning})` : ''}`,
  'allowed.number': ({ range }, r) => `a number${ofRange(r, range)}`,
  'allowed.list-of': ({ items }) => `a list of ${items}`,
  'allowed.at-least-one': ({ items }) => `at least one ${items}`,
  'noun.one-of': ({ items }) => `one of ${items}`,
  'allowed.or-leave-out': ({ value }) => `${value}, or leave one of the two out`,
  'allowed.at-least-slots': ({ slots }) => `at least ${slots} slots in total, or lower the parallelism`,
  'allowed.at-most-characters': ({ count }) => `at most ${count} characters (MAX_SCENARIO_TEXT_LENGTH)`,
  'allowed.at-most-levels': ({ levels }) => `at most ${levels} levels of maps and lists`,
  'allowed.subtask-index': ({ last }) => `a subtask index from 0 to ${last}`,
  'allowed.edge-towards-sink': ({ id }) => `an edge from "${id}" towards a sink`,
  'allowed.unused-id': ({ path }) => `an id not used by ${path}`,
  'allowed.inputs': ({ count }) => (count === 2 ? 'exactly 2 inputs (left, then right, in edge order)' : `exactly ${count} input`),
  'allowed.other-partitionings': ({ names }) => `${names.join(', ')}, or equal parallelism on both ends`,
  'allowed.at-most-parallelism': ({ max }) => `a parallelism of at most ${max}`,
  'allowed.at-most-task-managers': ({ count }) => `at most ${count} TaskManagers in all`,
  'allowed.at-most-subtasks': ({ count }) => `at most ${count} subtasks`,
  'allowed.at-most-channels': ({ count }) => `at most ${count} channels: lower the parallelism`,
  'allowed.at-most-records': ({ count }) => `at most ${count} records: lower count or rate_per_s, or set a shorter run.until`,
  'allowed.set-only': ({ key }) => `set only \`${key}\``,
  'allowed.false-or-set': ({ key, value }) => `false, or set ${key} to ${value}`,
  'allowed.numbered-name': ({ prefix }) => `${prefix}-<n>`,

  'text.too-long': ({ length }) => `the scenario text is ${length} characters long; nothing was read`,
  'text.duplicate-key': ({ line, column }) => `is set twice (JSON at line ${line}, column ${column}); a later value would silently replace the first`,
  'text.syntax-error': ({ language, line, column, reason }, r) => `${language} syntax error at line ${line}, column ${column}: ${r(reason)}`,
  'text.yaml-unreadable': ({ reason }, r) => `YAML could not be read: ${r(reason)}`,
  'text.too-many-values': ({ count }) => `the document holds more than ${count} values (maps, lists and scalars)`,
  'text.too-deep': ({ levels }) => `is nested more than ${levels} levels deep (or refers to itself)`,
  'text.not-json': ({ reason }) => `not JSON: ${reason}`,

  'duration.not-finite': ({ value }) => `${value} is not a finite duration`,
  'duration.negative': ({ value }) => `durations cannot be negative (got ${value})`,
  'duration.fraction-ms': ({ good, value }) => `a number is read as whole milliseconds; write "${good}" instead of ${value}`,
  'duration.too-large-ms': ({ value }) => `${value} ms is too large`,
  'duration.empty': () => 'empty duration',
  'duration.unknown-unit': ({ unit, text }) => `unknown time unit ${unit} in ${text}`,
  'duration.too-large': ({ text }) => `${text} is too large`,
  'duration.no-number': ({ text }) => `${text} does not start with a number`,
  'duration.fraction': ({ text }) => `${text} is not a whole number; Flink durations are whole numbers`,
  'duration.fraction-write': ({ text, good }) => `${text} is not a whole number; Flink durations are whole numbers, write "${good}"`,
  'memory.not-finite': ({ value }) => `${value} is not a finite memory size`,
  'memory.negative': ({ value }) => `memory sizes cannot be negative (got ${value})`,
  'memory.fraction-bytes': ({ value }) => `a number is read as whole bytes; got ${value}`,
  'memory.too-large-bytes': ({ value }) => `${value} bytes is too large`,
  'memory.empty': () => 'empty memory size',
  'memory.not-a-size': ({ text, why }, r) => `${text} is not a memory size: ${r(why)}`,
  'memory.fraction': ({ text }) => `${text} is not a whole number; use a smaller unit`,
  'memory.unknown-unit': ({ unit, text }) => `unknown memory unit ${unit} in ${text}`,
  'memory.too-large': ({ text }) => `${text} is too large`,

  'config.expected-map': () => 'expected a map of Flink options, like execution.checkpointing.interval: 10 s',
  'config.empty-map': () => 'has no value (an empty map)',
  'config.set-twice': () => 'is set twice (once nested, once as a dotted key)',
  'config.unknown-option': () => 'unknown Flink option (or one the playground does not model)',
  'config.conflict': ({ key, value, earlier, earlierValue }) => `sets \`${key}\` to ${value}, but \`${earlier}\` already sets it to ${earlierValue}`,
  'config.deprecated': ({ key, replacements }) => `\`${key}\` is deprecated; use ${replacements.map((t) => `\`${t}\``).join(' and ')}`,
  'config.note': ({ key, note }, r) => `\`${key}\`: ${r(note)}`,
  'option.no-value': () => 'no value given',
  'option.not-allowed': ({ value }) => `${value} is not one of the allowed values`,
  'option.empty-string': () => 'empty string',
  'option.out-of-range': ({ value, range }, r) => `${value} is out of range: must be ${r(range)}`,
  'option.power-of-two': ({ value }) => `${value} must be a power of 2 (Flink's memory segment rule)`,
  'rule.unaligned-needs': ({ key, wanted, actual }) => `unaligned checkpoints need ${key} ${wanted}, but it is ${actual}`,
  'rule.heartbeat': ({ timeout, interval }) => `heartbeat timeout ${timeout} is shorter than heartbeat.interval ${interval}`,
  'rule.rocksdb-ratios': ({ writeBuffer, highPriority }) => `write-buffer-ratio ${writeBuffer} plus high-prio-pool-ratio ${highPriority} is more than 1`,
  'rule.no-buffers': () => 'with no exclusive and no floating buffers an input channel can never receive a record',
  'rule.interval-off': ({ min }) => `an interval below ${min} ms turns periodic checkpoints off, as in Flink`,
  'rule.interval-unset': ({ key }) => `periodic checkpoints are off because ${key} is not set`,
  'rule.needs-true': ({ key }) => `has no effect unless ${key} is true`,
  'rule.incremental-needs-rocksdb': () => 'the hashmap state backend ignores it; only state.backend.type rocksdb takes incremental checkpoints',
  'rule.rocksdb-options-on-hashmap': () => 'RocksDB options have no effect with state.backend.type hashmap',
  'rule.compression-incremental': () => 'has no effect on incremental RocksDB checkpoints, whose files are already compressed',
  'rule.local-without-backup': () => 'execution.checkpointing.local-backup.enabled is false, so there is no local copy to recover from',

  'graph.no-source': () => 'the job has no source',
  'graph.no-sink': () => 'the job has no sink; Flink only runs operators that lead to a sink',
  'graph.source-input': ({ id }) => `"${id}" is a source, and a source cannot have inputs`,
  'graph.sink-output': ({ id }) => `"${id}" is a sink, and a sink cannot have outputs`,
  'graph.no-output': ({ id }) => `"${id}" has no output; Flink drops operators that do not lead to a sink`,
  'graph.no-input': ({ type, id }) => `the ${type} vertex "${id}" has no input`,
  'graph.inputs': ({ type, id, count, from }) => `the ${type} vertex "${id}" has ${count} inputs (from ${quoted(from)})`,
  'graph.cycle': ({ ids }) => `the edges form a cycle: ${ids.join(' → ')}`,
  'graph.unknown-vertex': ({ id }) => `no vertex has the id ${id}`,
  'graph.keyed-needs-hash': ({ id, type }) => `"${id}" is a ${type} vertex with keyed state, so its input must be hash-partitioned (Flink's keyBy)`,
  'graph.forward-rescale': ({ from, fromParallelism, to, toParallelism }) =>
    `forward partitioning does not allow a change of parallelism, but "${from}" has ${fromParallelism} and "${to}" has ${toParallelism}`,
  'graph.duplicate-id': ({ id }) => `duplicate vertex id "${id}"`,
  'graph.no-subtask': ({ id, parallelism, subtask }) => `"${id}" has parallelism ${parallelism}, so it has no subtask ${subtask}`,
  'graph.default-parallelism': ({ parallelism, max }) => `parallelism.default ${parallelism} is more than pipeline.max-parallelism ${max}`,
  'cluster.slots-disagree': ({ slots, key, configured }) => `${slots} disagrees with config ${key} ${configured}`,
  'cluster.too-few-slots': ({ needed, available, hosts, perHost, slots }) =>
    `the job needs ${needed} slots (its largest vertex parallelism, with Flink's default slot sharing) but the cluster has ${available}: ` +
    `${counted(hosts, 'host')} × ${counted(perHost, 'TaskManager')} per host × ${counted(slots, 'slot')} per TaskManager`,
  'cluster.no-such': ({ name }) => `the cluster has no ${name}`,
  'cluster.too-many-task-managers': ({ count, hosts, perHost }) => `${count} TaskManagers (${hosts} hosts × ${perHost} per host) are more than the playground runs`,
  'job.too-many-subtasks': ({ count }) => `the job has ${count} subtasks (the vertices' parallelism added up), more than the playground runs`,
  'job.too-many-channels': ({ count }) =>
    `the job has ${count} network channels (an all-to-all edge has upstream × downstream parallelism), more than the playground holds`,
  'run.too-many-records': ({ figure }, r) => `the sources would emit ${r(figure)} records in this run (each source subtask's count, or its rate_per_s over run.until)`,
  'run.until-required': ({ ids }) => `required because source ${quoted(ids)} is unbounded (it has no count)`,
  'run.fault-after-end': ({ index, type, at, end }) => `faults[${index}] (${type} at ${at}) comes after the run ends at ${end}, so it will not happen`,
  'source.value-range': ({ max, min }) => `value_max ${max} is less than value_min ${min}`,
  'source.line-not-string': () => 'expected a string (one line of text)',
  'expectation.needs-bound': ({ kind }) => `a ${kind} expectation needs a min, a max or both`,
  'expectation.above-slots': ({ parallelism, slots }) => `${parallelism} is more than the cluster's ${slots} slots, so the live run cannot have rescaled to it`,
  'scale.needs-scale-runtime': () => 'only a scenario with runtime: scale reads this section',
  'allowed.scale-or-leave-out': () => 'runtime: scale, or leave scale out',
  'scenario.unsupported-version': ({ version }, r) => `unsupported scenario version ${r(version)}`,
  'scenario.unreadable': () => 'the scenario could not be read',
  'scenario.not-loaded': () => 'No scenario is loaded: call load(scenario) first.',
  'config.paste-not-map': () => 'expected a map of Flink options',
  'refusal.trigger-not-running': ({ kind, status }) => `cannot trigger a ${kind} while the job is ${status}`,
  'refusal.fail-task-not-running': ({ status, vertex, subtask }) => `the job is ${status}; no task of ${vertex}#${subtask} runs to fail`,
  'refusal.terminal-nothing-to-fail': ({ status }) => `the job is ${status}; nothing to fail`,
  'refusal.terminal-nothing-to-stall': ({ status }) => `the job is ${status}; nothing to stall`,
  'refusal.stalled-already': ({ taskManager }) => `TaskManager ${taskManager} is stalled already`,
  'refusal.host-lost-already': ({ host, left }) => `${host} is lost already (hosts left: ${left.join(', ')})`,
  'refusal.last-host': ({ host }) => `${host} is the last host left: its TaskManagers would have nowhere to come back`,
  'refusal.already-terminal': ({ status }) => `the job is already ${status}`,
  'refusal.stop-not-running': ({ status }) => `cannot stop the job while it is ${status}`,
  'refusal.stopping-already': () => 'the job is being stopped with a savepoint already',
  'refusal.no-local-copy': ({ host, vertex, subtask }) => `${host} holds no local copy of ${vertex}#${subtask}`,
  'refusal.no-shared-run': ({ host, run, vertex, subtask }) => `${host} holds no shared run ${run} of ${vertex}#${subtask}`,
  'refusal.no-key-group-copy': ({ host, vertex, subtask, keyGroup }) =>
    `${host} holds no local copy of ${vertex}#${subtask} with a key-group handle of key group ${keyGroup} (key_group applies to full keyed snapshots)`,
  'refusal.no-subtask': ({ vertex, subtask }) => `no subtask ${vertex}#${subtask}`,
  'refusal.no-task-manager': ({ taskManager, running }) => `no TaskManager "${taskManager}" (running: ${running.join(', ')})`,
  'refusal.no-host': ({ host, hosts }) => `no host "${host}" (hosts: ${hosts.join(', ')})`,
  'refusal.unknown-vertex': ({ vertex }) => `unknown vertex "${vertex}"`,
  'refusal.unknown-vertex-of': ({ vertex, vertices }) => `unknown vertex "${vertex}" (vertices: ${vertices.join(', ')})`,
  'refusal.factor': ({ factor }) => `factor must be more than 0, got ${factor}`,
  'refusal.parallelism-range': ({ max, vertex, parallelism }) => `parallelism must be an integer from 1 to ${max} (the max parallelism of "${vertex}"), got ${parallelism}`,
  'refusal.parallelism-slots': ({ parallelism, slots }) => `parallelism ${parallelism} needs ${parallelism} slots; the cluster has ${slots}`,
  'refusal.rescale-not-running': ({ status }) => `cannot rescale while the job is ${status}`,
  'refusal.nothing-to-rescale-from': () => 'no completed checkpoint or savepoint to rescale from yet',
  'refusal.rescale-source': ({ vertex, splits }) => `cannot rescale source "${vertex}": its ${splits} splits are fixed (like Kafka partitions)`,
  'refusal.rescale-in-flight': ({ vertex, checkpoint, holder }, r) =>
    `cannot rescale "${vertex}" from checkpoint ${checkpoint}: ${r(holder)} holds unaligned in-flight data on its channels; restore from an aligned checkpoint or savepoint`,
  'refusal.holder-self': ({ vertex }) => `"${vertex}"`,
  'refusal.holder-upstream': ({ vertex }) => `its upstream "${vertex}"`,
  'refusal.holder-downstream': ({ vertex }) => `its downstream "${vertex}"`,
  'refusal.rescale-forward': ({ vertex, from, to }) => `cannot rescale "${vertex}": its edge ${from} → ${to} is forward, which needs equal parallelism on both ends`,
  'refusal.no-savepoint-yet': () => 'no savepoint has completed yet',
  'refusal.no-such-savepoint': ({ id, savepoints }) => `no savepoint ${id} (savepoints: ${savepoints.join(', ') || 'none'})`,
  'refusal.restart-not-running': ({ status }) => `cannot restart while the job is ${status}`,
  'session.odd-list': () => 'expected an even-length list of integers',
  'session.bad-pair': ({ pair }) => `the pair ${pair} is not valid`,
};

/** "1 host", "2 hosts": English plurals by `Intl.PluralRules`, so a count of one reads as one. */
const ENGLISH_PLURALS = new Intl.PluralRules('en');

function counted(count: number, noun: string): string {
  return `${count} ${ENGLISH_PLURALS.select(count) === 'one' ? noun : `${noun}s`}`;
}
