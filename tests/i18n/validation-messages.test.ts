/**
 * The page shows the validator's problems in the learner's language. The engine says them as
 * message codes with parameters; these tests feed the validator a corpus of broken scenarios
 * (every field of the sample files replaced by every kind of wrong value, every Flink option given
 * wrong values, deprecated keys, broken job graphs, bad text) and require a Chinese rendering for
 * every message, allowed-text and note that comes out, and that the English rendering is the text
 * the error carries.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { DEPRECATED_KEYS, FLINK_OPTIONS } from '../../engine/config/flink-options.ts';
import { message } from '../../engine/messages/engine-message.ts';
import { CATALOGUES, renderMessage } from '../../engine/messages/message-catalogues.ts';
import type { EngineMessage, MessageCode } from '../../engine/messages/message-codes.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { localizeScenarioError, localizeValidationNote } from '../../web/i18n/validation-messages.ts';
import { allPaths, joinFile, minimalFile, WRONG_VALUES, wordCountFile, type FileValue, type ScenarioFile } from '../scenario/scenario-samples.ts';

interface Harvest {
  messages: EngineMessage[];
  allowed: EngineMessage[];
  notes: EngineMessage[];
}

function harvest(inputs: Iterable<unknown>): Harvest {
  const found: Harvest = { messages: [], allowed: [], notes: [] };
  for (const input of inputs) {
    const result = validateScenario(input);
    if (result.ok) {
      found.notes.push(...result.noteMessages);
      continue;
    }
    for (const error of result.errors) {
      found.messages.push(error);
      if (error.allowedMessage !== undefined) found.allowed.push(error.allowedMessage);
    }
  }
  return found;
}

function harvestPaths(inputs: Iterable<unknown>): string[] {
  return [...inputs].flatMap((input) => {
    const result = validateScenario(input);
    return result.ok ? [] : result.errors.map((e) => e.path);
  });
}

function setAt(file: ScenarioFile, path: (string | number)[], value: FileValue): ScenarioFile {
  const copy = structuredClone(file) as FileValue;
  let node = copy as Record<string | number, FileValue>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, FileValue>;
  node[path.at(-1)!] = value;
  return copy as ScenarioFile;
}

function* fieldMutations(): Generator<ScenarioFile> {
  for (const file of [minimalFile(), wordCountFile(), joinFile()]) {
    for (const path of allPaths(file)) {
      if (path.length === 0) continue;
      for (const value of WRONG_VALUES) yield setAt(file, path, value);
    }
  }
}

const WRONG_OPTION_VALUES: FileValue[] = [-1, 0, 1.5, 3, 1e15, 'x', '10 parsecs', '-5 s', '7 qb', '1.5 s', '.5 mb', 'abc', '-3 mb', '', true, [], {}, '2147483648'];

function* optionMutations(): Generator<ScenarioFile> {
  for (const option of FLINK_OPTIONS) {
    for (const value of WRONG_OPTION_VALUES) yield { ...wordCountFile(), config: { [option.key]: value } };
  }
  yield { ...wordCountFile(), config: { 'execution.checkpointing.intervall': '10 s' } };
  yield { ...wordCountFile(), config: { execution: { checkpointing: { interval: '1 s' } }, 'execution.checkpointing.interval': '2 s' } };
  yield { ...wordCountFile(), config: { 'execution.checkpointing.num-retained': 2, 'state.checkpoints.num-retained': 3 } };
  yield { ...wordCountFile(), config: { 'execution.checkpointing.unaligned.enabled': true, 'execution.checkpointing.mode': 'AT_LEAST_ONCE' } };
  yield { ...wordCountFile(), config: { 'execution.checkpointing.unaligned.enabled': true, 'execution.checkpointing.max-concurrent-checkpoints': 2 } };
  yield { ...wordCountFile(), config: { 'heartbeat.interval': '10 s', 'heartbeat.timeout': '5 s' } };
  yield { ...wordCountFile(), config: { 'state.backend.rocksdb.memory.write-buffer-ratio': 0.8, 'state.backend.rocksdb.memory.high-prio-pool-ratio': 0.5 } };
  yield { ...wordCountFile(), config: 'interval 10 s' };
}

/** Valid files that draw notes: every deprecated key, options without effect, faults after the end. */
function* notedFiles(): Generator<ScenarioFile> {
  const sample: Record<string, FileValue> = {};
  for (const key of DEPRECATED_KEYS) {
    const option = FLINK_OPTIONS.find((o) => o.deprecatedKeys?.includes(key));
    const value = option?.type === 'boolean' ? true : option?.type === 'enum' ? option.values![0]! : option?.type === 'duration' ? '1 s' : option?.type === 'string' ? 'indexeddb://x' : 1;
    sample[key] = value as FileValue;
    yield { ...wordCountFile(), config: { [key]: value as FileValue } };
  }
  for (const option of FLINK_OPTIONS.filter((o) => o.key.startsWith('state.backend.rocksdb.'))) {
    const value = option.type === 'boolean' ? true : option.type === 'enum' ? option.values![0]! : option.type === 'memory' ? '64mb' : option.type === 'double' ? 0.5 : 2;
    yield { ...wordCountFile(), config: { 'state.backend.type': 'hashmap', [option.key]: value as FileValue } };
  }
  yield { ...wordCountFile(), config: { 'execution.checkpointing.incremental': true } };
  yield { ...wordCountFile(), config: { 'execution.checkpointing.aligned-checkpoint-timeout': '1 s' } };
  yield { ...wordCountFile(), config: {} };
  yield { ...wordCountFile(), config: { 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true, 'execution.checkpointing.snapshot-compression': true } };
  yield { ...wordCountFile(), config: { 'execution.checkpointing.local-backup.enabled': false, 'execution.state-recovery.from-local': true } };
  yield { ...wordCountFile(), run: { until: '1 s' }, faults: [{ at: '2 s', type: 'lose-host', host: 'host-0' }] };
}

/** Broken job graphs and clusters. */
function* graphMutations(): Generator<unknown> {
  const base = wordCountFile();
  const job = base.job as { vertices: Record<string, FileValue>[]; edges: Record<string, FileValue>[] };
  yield { ...base, job: { ...job, edges: [...job.edges, { from: 'out', to: 'lines' }] } };
  yield { ...base, job: { ...job, edges: [...job.edges, { from: 'count', to: 'words' }] } };
  yield { ...base, job: { vertices: job.vertices.filter((v) => v.type !== 'sink'), edges: job.edges.filter((e) => e.to !== 'out') } };
  yield { ...base, job: { vertices: job.vertices.filter((v) => v.type !== 'source'), edges: job.edges.filter((e) => e.from !== 'lines') } };
  yield { ...base, job: { ...job, edges: job.edges.map((e) => (e.to === 'count' ? { ...e, partitioning: 'forward' } : e)) } };
  yield { ...base, job: { ...job, edges: job.edges.map((e) => (e.to === 'count' ? { ...e, partitioning: 'rebalance' } : e)) } };
  yield { ...base, job: { ...job, vertices: [...job.vertices, { ...job.vertices[0]! }] } };
  yield { ...base, job: { ...job, vertices: job.vertices.map((v) => (v.id === 'words' ? { ...v, rate_per_s: 5 } : v)) } };
  yield { ...base, job: { ...job, vertices: job.vertices.map((v) => (v.type === 'source' ? { ...v, source: { kind: 'sequence', keys: 3, rate_per_s: 10 } } : v)) }, run: {} };
  yield { ...base, job: { ...job, vertices: job.vertices.map((v) => (v.type === 'source' ? { ...v, source: { kind: 'random', keys: 3, rate_per_s: 10, count: 5, value_min: 9, value_max: 2, lines: ['a'] } } : v)) } };
  yield { ...base, cluster: { hosts: 1, task_managers_per_host: 1, slots_per_task_manager: 1 } };
  yield { ...base, cluster: { hosts: 1, task_managers_per_host: 1, slots_per_task_manager: 4 }, config: { 'taskmanager.numberOfTaskSlots': 2 } };
  yield { ...base, faults: [{ at: '1 s', type: 'fail-task', vertex: 'count', subtask: 9 }, { at: '1 s', type: 'kill-task-manager', task_manager: 'tm-99' }, { at: '1 s', type: 'lose-host', host: 'host-9' }, { at: '1 s', type: 'fail-task', vertex: 'nope', subtask: 0 }] };
  yield { ...base, expectations: [{ type: 'job-status', status: 'DONE' }] };
  yield { ...base, version: 2 };
}

const WRONG_SIZES: FileValue[] = ['1 parsec', '-3 mb', '1.5 mb', '', 'abc', true, [], {}, -1, 1.5];

/** Broken `runtime` and `scale` sections, and jobs and clusters beyond each runtime's limits. */
function* scaleMutations(): Generator<ScenarioFile> {
  const base = minimalFile();
  yield { ...base, runtime: 'scal' };
  yield { ...base, runtime: 5 };
  yield { ...base, scale: { state_size: '1 gb' } };
  yield { ...base, runtime: 'scale', scale: 'big' };
  yield { ...base, runtime: 'scale', scale: { state_sise: '1 gb' } };
  for (const key of ['state_size', 'state_growth_per_s', 'state_churn_per_s', 'compaction_per_s']) {
    for (const value of WRONG_SIZES) yield { ...base, runtime: 'scale', scale: { [key]: value } };
  }
  for (const value of [0, -5, 'fast']) yield { ...base, runtime: 'scale', scale: { host_bandwidth_mb_per_s: value, remote_store_bandwidth_mb_per_s: value } };
  yield { ...base, cluster: { hosts: 64, task_managers_per_host: 32, slots_per_task_manager: 1 } };
  yield { ...base, runtime: 'scale', cluster: { hosts: 10_000, task_managers_per_host: 32, slots_per_task_manager: 1 } };
  yield { ...base, runtime: 'scale', cluster: { hosts: 20_000, task_managers_per_host: 1, slots_per_task_manager: 1 } };
}

/** The partial local copy's fields: `key_group` on a local-copy fault, the `mixed-restore` expectation. */
function* partialCopyMutations(): Generator<unknown> {
  const parsed = parseScenarioText(readFileSync(new URL('../../public/scenarios/partial-local-copy.yaml', import.meta.url), 'utf8'), 'yaml');
  if (!parsed.ok) return;
  const file = parsed.value as ScenarioFile & { faults: Record<string, FileValue>[]; expectations: Record<string, FileValue>[] };
  for (const value of [-1, 'first', 1.5, null, []]) yield { ...file, faults: [{ ...file.faults[0]!, key_group: value }, ...file.faults.slice(1)] };
  for (const expectation of [
    { type: 'mixed-restore', vertex: 'count', subtask: 7 },
    { type: 'mixed-restore', vertex: 'nope', subtask: 0 },
    { type: 'mixed-restore', subtask: 0 },
    { type: 'mixed-restore', vertex: 'count', subtask: 0, restore: 0 },
    { type: 'mixed-restore', vertex: 'count', subtask: 0, restore: 'first' },
    { type: 'mixed-restore', vertex: 'count', subtask: 0, restor: 1 },
  ]) {
    yield { ...file, expectations: [...file.expectations, expectation] };
  }
}

function* badTexts(): Generator<string> {
  yield '{ "version": 1, ';
  yield 'version: 1\nname: [unclosed';
  yield 'a: &x [*x, *x]\nb: *y';
}

/** Codes whose rendering is the user's own words or Flink's names in every language. */
const LANGUAGE_NEUTRAL: ReadonlySet<MessageCode> = new Set(['names', 'value.null', 'value.literal', 'allowed.numbered-name']);

const HAN = /[\u4e00-\u9fff]/;

function allMessages(found: Harvest): EngineMessage[] {
  return [...found.messages, ...found.allowed, ...found.notes];
}

function untranslated(messages: EngineMessage[]): string[] {
  return messages.filter((m) => !LANGUAGE_NEUTRAL.has(m.code)).map((m) => renderMessage(m, 'zh-CN')).filter((text) => !HAN.test(text));
}

describe('validator messages in Chinese', () => {
  const found = harvest([...fieldMutations(), ...optionMutations(), ...notedFiles(), ...graphMutations(), ...scaleMutations(), ...partialCopyMutations()]);
  for (const text of badTexts()) {
    const parsed = parseScenarioText(text);
    if (!parsed.ok) found.messages.push(...parsed.errors);
  }
  const distinct = (messages: EngineMessage[]) => new Set(messages.map((m) => renderMessage(m, 'en'))).size;

  it('the corpus reaches a broad set of messages, allowed-texts and notes', () => {
    expect(distinct(found.messages)).toBeGreaterThan(150);
    expect(distinct(found.allowed)).toBeGreaterThan(60);
    expect(distinct(found.notes)).toBeGreaterThan(15);
    expect(new Set(allMessages(found).map((m) => m.code)).size).toBeGreaterThan(60);
  });

  it('every message, allowed-text and note the corpus produces has a zh-CN rendering', () => {
    expect(untranslated(allMessages(found))).toEqual([]);
  });

  it('reaches the scale runtime\'s and the partial local copy\'s messages', () => {
    const codes = new Set(allMessages(found).map((m) => m.code));
    for (const code of ['scale.needs-scale-runtime', 'allowed.scale-or-leave-out', 'cluster.too-many-task-managers', 'memory.unknown-unit', 'memory.negative'] as const) {
      expect(codes.has(code), code).toBe(true);
    }
    const paths = new Set(harvestPaths([...scaleMutations(), ...partialCopyMutations()]));
    for (const path of ['runtime', 'scale', 'scale.state_size', 'scale.host_bandwidth_mb_per_s', 'faults[0].key_group', 'expectations[6].subtask', 'expectations[6].restore']) {
      expect(paths.has(path), path).toBe(true);
    }
  });

  it('renders nothing as "undefined" or "[object Object]" in either language', () => {
    for (const m of allMessages(found)) {
      for (const locale of ['en', 'zh-CN'] as const) expect(renderMessage(m, locale)).not.toMatch(/undefined|\[object Object\]/);
    }
  });

  it('renders the quoted parts verbatim inside the Chinese sentence', () => {
    const fault = message('field.expected-map', { what: message('phrase', { text: 'a fault' }), got: message('value.number', { value: '5' }) });
    expect(renderMessage(fault, 'en')).toBe('expected a fault (a map of fields), got the number 5');
    expect(renderMessage(fault, 'zh-CN')).toBe('应为故障（字段映射），实际是数字 5');
    expect(renderMessage(message('graph.unknown-vertex', { id: '"cnt"' }), 'zh-CN')).toBe('没有 id 为 "cnt" 的顶点');
    expect(renderMessage(message('graph.cycle', { ids: ['count', 'out', 'count'] }), 'zh-CN')).toBe('这些边形成了环：count → out → count');
    const range = message('bounds', { bounds: [{ word: 'at least', value: '1' }, { word: 'at most', value: '128' }] });
    expect(renderMessage(message('allowed.integer', { range }), 'en')).toBe('an integer at least 1 and at most 128');
    expect(renderMessage(message('allowed.integer', { range }), 'zh-CN')).toBe('整数，至少 1 且至多 128');
  });

  it('keeps lists of names as they are, and the English rendering is the text each error carries', () => {
    expect(renderMessage(message('names', { names: ['hash', 'rebalance', 'broadcast'] }), 'zh-CN')).toBe('hash, rebalance, broadcast');
    for (const text of badTexts()) {
      const parsed = parseScenarioText(text);
      for (const error of parsed.ok ? [] : parsed.errors) expect(renderMessage(error, 'en')).toBe(error.message);
    }
    for (const input of [...graphMutations(), ...scaleMutations(), ...partialCopyMutations()]) {
      const result = validateScenario(input);
      for (const error of result.ok ? [] : result.errors) {
        expect(renderMessage(error, 'en')).toBe(error.message);
        expect(error.allowedMessage && renderMessage(error.allowedMessage, 'en')).toBe(error.allowed);
      }
    }
  });

  it('translates an error without touching its path or suggestion', () => {
    const result = validateScenario({ ...wordCountFile(), config: { 'execution.checkpointing.intervall': '10 s' } });
    const error = result.ok ? undefined : result.errors[0];
    const zh = localizeScenarioError(error!, 'zh-CN');
    expect(zh.path).toBe('config."execution.checkpointing.intervall"');
    expect(zh.suggestion).toBe('execution.checkpointing.interval');
    expect(zh.message).toBe('未知的 Flink 配置项（或 playground 未模拟的配置项）');
    expect(zh.allowed).toBe('public/scenarios/scenario.schema.json 中列出的配置键');
    expect(localizeScenarioError(error!, 'en')).toEqual(error);
  });

  it('every example scenario validates, and its notes have zh-CN renderings', () => {
    const dir = new URL('../../public/scenarios/', import.meta.url);
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json' && !f.includes('schema'))) {
      const parsed = parseScenarioText(readFileSync(new URL(name, dir), 'utf8'));
      expect(parsed.ok, name).toBe(true);
      const result = validateScenario(parsed.ok ? parsed.value : null);
      expect(result.ok, name).toBe(true);
      if (result.ok) for (const note of result.noteMessages) expect(localizeValidationNote(note, 'zh-CN'), name).toMatch(HAN);
    }
  });
});

describe('counts in messages', () => {
  it('says "1 host" and "2 hosts" by the plural rules of English, and counts in Chinese without plurals', () => {
    const tooFew = (hosts: number) => message('cluster.too-few-slots', { needed: 4, available: hosts, hosts, perHost: 1, slots: 1 });
    expect(renderMessage(tooFew(1), 'en')).toContain(': 1 host × 1 TaskManager per host × 1 slot per TaskManager');
    expect(renderMessage(tooFew(2), 'en')).toContain(': 2 hosts × 1 TaskManager per host × 1 slot per TaskManager');
    expect(renderMessage(tooFew(2), 'zh-CN')).toContain('2 台主机 × 每台 1 个 TaskManager × 每个 TaskManager 1 个 slot');
  });

  it('counts a too-small cluster of the validator as the cluster is', () => {
    const result = validateScenario({ ...wordCountFile(), cluster: { hosts: 1, task_managers_per_host: 1, slots_per_task_manager: 1 } });
    const error = result.ok ? undefined : result.errors.find((e) => e.code === 'cluster.too-few-slots');
    expect(error?.message).toMatch(/but the cluster has 1: 1 host × 1 TaskManager per host × 1 slot per TaskManager$/);
  });
});

describe('the message catalogues', () => {
  it('every code has an English and a zh-CN rendering, and no language has a code the other lacks', () => {
    const english = Object.keys(CATALOGUES.en).sort();
    expect(Object.keys(CATALOGUES['zh-CN']).sort()).toEqual(english);
    for (const code of english) {
      expect(typeof CATALOGUES.en[code as MessageCode], code).toBe('function');
      expect(typeof CATALOGUES['zh-CN'][code as MessageCode], code).toBe('function');
    }
  });
});
