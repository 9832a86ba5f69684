/**
 * The engine's user-facing messages as data: a code and its parameters, read top to bottom like a
 * catalogue. The engine builds these values; it renders English once
 * (`english-messages.ts`, the CLI and the Playground API text) and the page, or the CLI with
 * `--lang zh-CN`, renders the same value in Chinese (`zh-cn-messages.ts`). A code without a
 * rendering in either language is a type error. Parameters that are engine words (a noun such as
 * "a fault", a range, a value description) are nested messages, so they are translated too;
 * parameters that are the user's own words (ids, quoted values, option keys) stay as written.
 */

/** Fixed texts: nouns for "expected …", allowed-texts and value syntax. Keyed by their English. */
export type Phrase =
  | 'a cluster description'
  | 'a fault'
  | 'a filter description'
  | 'a job (its vertices and edges)'
  | 'a map of costs'
  | 'a scale description'
  | 'runtime'
  | 'a run description (until)'
  | 'a scenario'
  | 'a source description'
  | 'a vertex'
  | 'an edge'
  | 'an expectation'
  | 'a string'
  | 'a non-empty string'
  | 'a string, or a map of texts by language: en (required) and zh-CN'
  | 'a non-empty string, or a map of texts by language: en (required) and zh-CN'
  | 'a map of texts by language'
  | 'language'
  | 'a name'
  | 'a number'
  | 'an integer'
  | 'a duration'
  | 'a memory size'
  | 'value'
  | 'aggregate'
  | 'fault type'
  | 'filter function'
  | 'map function'
  | 'partitioning'
  | 'source kind'
  | 'vertex type'
  | 'sink kind'
  | 'expectation type'
  | 'job status'
  | 'checkpoint statistic'
  | 'checkpoint type'
  | 'statistic aggregate'
  | 'checkpoint failure reason'
  | 'restore source'
  | 'restore origin'
  | 'RocksDB metric'
  | 'local recovery fallback reason'
  | 'min, max'
  | 'one of the allowed values'
  | 'true or false'
  | 'any number'
  | 'the id of a vertex'
  | 'the name of a shared run of the subtask (from the host disk listing)'
  | 'a job graph without cycles (a DAG)'
  | 'at least one vertex of type source'
  | 'at least one vertex of type sink'
  | 'a scenario of ordinary size'
  | 'each key once per map'
  | 'lower-case letters, digits and "-", starting with a letter'
  | 'the option keys listed in public/scenarios/scenario.schema.json'
  | 'at least 1 here or in taskmanager.network.memory.floating-buffers-per-gate'
  | 'a session document exported by the playground (JSON)'
  | 'lines such as execution.checkpointing.interval: 10 s'
  | 'the text nests maps and lists too deeply to be read'
  | 'memory sizes cannot be negative'
  | 'it does not start with a number'
  | 'unboundedly many'
  | 'duration syntax'
  | 'memory size syntax'
  // session documents (ckpt-lab replay, the page's import)
  | 'a session document'
  | 'a recording'
  | "the job's attempt and status when the fault came"
  | 'the scenario as YAML or JSON text'
  | 'restart operation'
  | 'vertex'
  | 'a list of [channel, count] pairs: channel an integer ≥ 0; count > 0 records, or −1 barrier, −2 end-of-partition, −3 cancel-checkpoint, −4 end-of-data'
  | 'a list of [checkpointId, offset] pairs: checkpointId ≥ 1 (a barrier) or ≤ −1 (a cancellation marker), offset ≥ 0'
  | 'a list of [checkpointId, position] pairs: checkpointId ≥ 1, position ≥ 0'
  | 'a list of [offset, barriers] pairs: offset ≥ 0, barriers ≥ 0';

/** What a list field holds, for "a list of …" and "at least one …". */
export type ListItems =
  | 'edges'
  | 'vertices'
  | 'strings'
  | 'faults'
  | 'expectations'
  | 'checkpoint triggers'
  | 'applied faults'
  | 'restores'
  | 'restart requests'
  | 'subtask deliveries'
  | 'input gates (lists of [channel, count] pairs)'
  | 'barrier positions'
  | 'abort notifications'
  | 'watermark positions';

export type BoundWord = 'at least' | 'greater than' | 'at most' | 'less than';

export interface Bound {
  word: BoundWord;
  /** formatted as the field shows it ("10 ms", "128") */
  value: string;
}

/** A message without parameters. */
export type None = Record<never, never>;

/** A count that is rendered with the plural its language needs. */
export type Count = number;

export interface MessageParams {
  phrase: { text: Phrase };
  /** a list of names or values, as written: `hash, rebalance` */
  names: { names: readonly string[] };

  // how a value the reader did not expect is named
  'value.null': None;
  'value.nothing': None;
  'value.list': None;
  'value.object': None;
  'value.string': { text: string };
  'value.number': { value: string };
  'value.literal': { text: string };

  // reading a field
  'field.expected-map': { what: EngineMessage; got: EngineMessage };
  'field.expected': { expected: EngineMessage; got: EngineMessage };
  'field.no-value': None;
  'field.missing': None;
  'field.not-valid-here': { value: string };
  'field.unknown-name': { what: EngineMessage; value: string };
  'field.out-of-range': { value: string };
  'field.list-empty': None;
  'field.unknown': { name: string };
  'field.of-other-vertex': { name: string; type: string; owners: readonly string[] };
  'field.of-other-source': { name: string; kind: string; owners: readonly string[] };

  // allowed-texts
  bounds: { bounds: readonly Bound[] };
  'allowed.duration': { range?: EngineMessage };
  'allowed.memory': { range?: EngineMessage };
  'allowed.integer': { range?: EngineMessage; sentinel?: { value: string; meaning: string } };
  'allowed.number': { range?: EngineMessage };
  'allowed.list-of': { items: ListItems };
  'allowed.at-least-one': { items: ListItems };
  'noun.one-of': { items: ListItems };
  'allowed.or-leave-out': { value: string };
  'allowed.at-least-slots': { slots: Count };
  'allowed.at-most-characters': { count: string };
  'allowed.at-most-levels': { levels: Count };
  'allowed.subtask-index': { last: number };
  'allowed.edge-towards-sink': { id: string };
  'allowed.unused-id': { path: string };
  'allowed.inputs': { count: Count };
  'allowed.other-partitionings': { names: readonly string[] };
  'allowed.at-most-parallelism': { max: number };
  'allowed.at-most-task-managers': { count: string };
  'allowed.at-most-subtasks': { count: string };
  'allowed.at-most-channels': { count: string };
  'allowed.at-most-records': { count: string };
  'allowed.set-only': { key: string };
  'allowed.false-or-set': { key: string; value: string };
  'allowed.numbered-name': { prefix: string };

  // the text of a scenario
  'text.too-long': { length: string };
  'text.duplicate-key': { line: number; column: number };
  'text.syntax-error': { language: 'JSON' | 'YAML'; line: number; column: number; reason: EngineMessage | string };
  'text.yaml-unreadable': { reason: EngineMessage | string };
  'text.too-many-values': { count: string };
  'text.too-deep': { levels: number };
  'text.not-json': { reason: string };

  // durations and memory sizes
  'duration.not-finite': { value: string };
  'duration.negative': { value: string };
  'duration.fraction-ms': { good: string; value: string };
  'duration.too-large-ms': { value: string };
  'duration.empty': None;
  'duration.unknown-unit': { unit: string; text: string };
  'duration.too-large': { text: string };
  'duration.no-number': { text: string };
  'duration.fraction': { text: string };
  'duration.fraction-write': { text: string; good: string };
  'memory.not-finite': { value: string };
  'memory.negative': { value: string };
  'memory.fraction-bytes': { value: string };
  'memory.too-large-bytes': { value: string };
  'memory.empty': None;
  'memory.not-a-size': { text: string; why: EngineMessage };
  'memory.fraction': { text: string };
  'memory.unknown-unit': { unit: string; text: string };
  'memory.too-large': { text: string };

  // Flink options
  'config.expected-map': None;
  'config.empty-map': None;
  'config.set-twice': None;
  'config.unknown-option': None;
  'config.conflict': { key: string; value: string; earlier: string; earlierValue: string };
  'config.deprecated': { key: string; replacements: readonly string[] };
  'config.note': { key: string; note: EngineMessage };
  'option.no-value': None;
  'option.not-allowed': { value: string };
  'option.empty-string': None;
  'option.out-of-range': { value: string; range: EngineMessage };
  'option.power-of-two': { value: string };
  'rule.unaligned-needs': { key: string; wanted: string; actual: string };
  'rule.heartbeat': { timeout: string; interval: string };
  'rule.rocksdb-ratios': { writeBuffer: number; highPriority: number };
  'rule.no-buffers': None;
  'rule.interval-off': { min: number };
  'rule.interval-unset': { key: string };
  'rule.needs-true': { key: string };
  'rule.incremental-needs-rocksdb': None;
  'rule.rocksdb-options-on-hashmap': None;
  'rule.compression-incremental': None;
  'rule.local-without-backup': None;

  // the job graph and the cluster
  'graph.no-source': None;
  'graph.no-sink': None;
  'graph.source-input': { id: string };
  'graph.sink-output': { id: string };
  'graph.no-output': { id: string };
  'graph.no-input': { type: string; id: string };
  'graph.inputs': { type: string; id: string; count: Count; from: readonly string[] };
  'graph.cycle': { ids: readonly string[] };
  'graph.unknown-vertex': { id: string };
  'graph.keyed-needs-hash': { id: string; type: string };
  'graph.forward-rescale': { from: string; fromParallelism: number; to: string; toParallelism: number };
  'graph.duplicate-id': { id: string };
  'graph.no-subtask': { id: string; parallelism: number; subtask: number };
  'graph.default-parallelism': { parallelism: number; max: number };
  'cluster.slots-disagree': { slots: number; key: string; configured: number };
  'cluster.too-few-slots': { needed: Count; available: Count; hosts: Count; perHost: Count; slots: Count };
  'cluster.no-such': { name: string };
  'cluster.too-many-task-managers': { count: string; hosts: number; perHost: number };
  'job.too-many-subtasks': { count: string };
  'job.too-many-channels': { count: string };
  'run.too-many-records': { figure: EngineMessage | string };
  'run.until-required': { ids: readonly string[] };
  'run.fault-after-end': { index: number; type: string; at: string; end: string };
  'source.value-range': { max: number; min: number };
  'source.line-not-string': None;
  'expectation.needs-bound': { kind: 'statistic' | 'catch-up-time' | 'rocksdb-metric' };
  'expectation.above-slots': { parallelism: number; slots: number };
  'scale.needs-scale-runtime': None;
  'allowed.scale-or-leave-out': None;
  'scenario.unsupported-version': { version: EngineMessage | string };
  'scenario.unreadable': None;
  'scenario.not-loaded': None;
  'config.paste-not-map': None;
  'session.odd-list': None;

  // refusals of an operation on the running job (Break things, the Playground API, a scheduled fault)
  'refusal.trigger-not-running': { kind: string; status: string };
  'refusal.fail-task-not-running': { status: string; vertex: string; subtask: number };
  'refusal.terminal-nothing-to-fail': { status: string };
  'refusal.terminal-nothing-to-stall': { status: string };
  'refusal.stalled-already': { taskManager: string };
  'refusal.host-lost-already': { host: string; left: readonly string[] };
  'refusal.last-host': { host: string };
  'refusal.already-terminal': { status: string };
  'refusal.stop-not-running': { status: string };
  'refusal.stopping-already': None;
  'refusal.no-local-copy': { host: string; vertex: string; subtask: number };
  'refusal.no-shared-run': { host: string; run: string; vertex: string; subtask: number };
  'refusal.no-key-group-copy': { host: string; vertex: string; subtask: number; keyGroup: number };
  'refusal.no-subtask': { vertex: string; subtask: number };
  'refusal.no-task-manager': { taskManager: string; running: readonly string[] };
  'refusal.no-host': { host: string; hosts: readonly string[] };
  'refusal.unknown-vertex': { vertex: string };
  'refusal.unknown-vertex-of': { vertex: string; vertices: readonly string[] };
  'refusal.factor': { factor: number };
  'refusal.parallelism-range': { max: number; vertex: string; parallelism: number };
  'refusal.parallelism-slots': { parallelism: number; slots: number };
  'refusal.rescale-not-running': { status: string };
  'refusal.nothing-to-rescale-from': None;
  'refusal.rescale-source': { vertex: string; splits: number };
  'refusal.rescale-in-flight': { vertex: string; checkpoint: number; holder: EngineMessage };
  'refusal.holder-self': { vertex: string };
  'refusal.holder-upstream': { vertex: string };
  'refusal.holder-downstream': { vertex: string };
  'refusal.rescale-forward': { vertex: string; from: string; to: string };
  'refusal.no-savepoint-yet': None;
  'refusal.no-such-savepoint': { id: number; savepoints: readonly number[] };
  'refusal.restart-not-running': { status: string };
  'session.bad-pair': { pair: string };
}

export type MessageCode = keyof MessageParams;

/** One message: its code and that code's parameters. */
export type EngineMessage = { [C in MessageCode]: { code: C; params: MessageParams[C] } }[MessageCode];

/** The languages the engine's messages are written in. */
export type MessageLocale = 'en' | 'zh-CN';
