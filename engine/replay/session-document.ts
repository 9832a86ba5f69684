import { readFaultTarget, type FaultContext } from '../scenario/fault-reader.ts';
import { Issues, ObjectReader, type ListItem } from '../scenario/field-reader.ts';
import { MAX_SEED } from '../scenario/scenario-defaults.ts';
import { itemPath, scenarioError, type ScenarioError } from '../scenario/scenario-error.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage, ListItems, Phrase } from '../messages/message-codes.ts';
import { FAULT_FIELDS, FAULT_TYPES } from '../scenario/scenario-vocabulary.ts';
import { USED_JOB_STATUSES } from '../job/job-status.ts';
import { parseScenarioText } from '../scenario/scenario-text.ts';
import { validateScenario } from '../scenario/scenario-validator.ts';
import type { FaultSpec, Scenario } from '../scenario/scenario-types.ts';
import { eventKindOfCode, type DeliveryLog, type FaultRecord, type RestartRequestRecord, type SubtaskDelivery } from './delivery-log.ts';

export const SESSION_DOCUMENT_VERSION = 1;

/**
 * An exported live session (`LiveDriver.exportSession()`, `playground.exportSession()`): the
 * scenario as text, the seed it ran with, and the recording of what was nondeterministic. The sim
 * replays it (`new Simulation(scenario, { seed, replay: replayOf(recording) })`, `ckpt-lab replay FILE`).
 */
export interface SessionDocument {
  version: typeof SESSION_DOCUMENT_VERSION;
  scenario: string;
  seed: number;
  recording: DeliveryLog;
}

export type SessionDocumentReading = { ok: true; document: SessionDocument; scenario: Scenario } | { ok: false; errors: ScenarioError[] };

/** Fault types a recording holds: checkpoint triggers are recorded as `checkpoints` instead. */
const RECORDED_FAULT_TYPES = FAULT_TYPES.filter((t) => t !== 'trigger-checkpoint' && t !== 'trigger-savepoint');

export function sessionDocument(scenarioText: string, seed: number, recording: DeliveryLog): SessionDocument {
  return { version: SESSION_DOCUMENT_VERSION, scenario: scenarioText, seed, recording };
}

/** Reads a session document from JSON text; every problem names its field. */
export function decodeSessionDocument(text: string): SessionDocumentReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const allowed = message('phrase', { text: 'a session document exported by the playground (JSON)' });
    return { ok: false, errors: [scenarioError('', message('text.not-json', { reason }), { allowed })] };
  }
  return readSessionDocument(value);
}

/** Validates an imported session document, following how scenarios are validated: errors name the field and what is allowed. */
export function readSessionDocument(input: unknown): SessionDocumentReading {
  const issues = new Issues();
  const doc = ObjectReader.of(issues, '', input, 'a session document');
  if (!doc) return { ok: false, errors: issues.errors };
  doc.rejectUnknown(['version', 'scenario', 'seed', 'recording']);
  const version = doc.integer('version', { required: true, min: SESSION_DOCUMENT_VERSION, max: SESSION_DOCUMENT_VERSION });
  const text = doc.string('scenario', { required: true, allowed: message('phrase', { text: 'the scenario as YAML or JSON text' }) });
  const seed = readSeed(doc);
  const scenario = text === undefined ? undefined : readScenario(issues, text);
  const recording = readRecording(issues, doc, scenario);
  if (issues.errors.length > 0 || version === undefined || text === undefined || seed === undefined || !scenario || !recording) return { ok: false, errors: issues.errors };
  return { ok: true, document: { version: SESSION_DOCUMENT_VERSION, scenario: text, seed, recording }, scenario };
}

function readScenario(issues: Issues, text: string): Scenario | undefined {
  const parsed = parseScenarioText(text);
  const validated = parsed.ok ? validateScenario(parsed.value) : parsed;
  if (validated.ok) return validated.scenario;
  for (const e of validated.errors) issues.errors.push({ ...e, path: e.path === '' ? 'scenario' : `scenario: ${e.path}` });
  return undefined;
}

function readRecording(issues: Issues, doc: ObjectReader, scenario: Scenario | undefined): DeliveryLog | undefined {
  const vertices = scenario?.job.vertices.map((v) => v.id);
  const recording = doc.object('recording', 'a recording', { required: true });
  if (!recording) return undefined;
  recording.rejectUnknown(['endTime', 'checkpoints', 'faults', 'restores', 'restarts', 'subtasks']);
  const endTime = recording.number('endTime', { required: true, min: 0 });
  const checkpoints = readItems(issues, recording, 'checkpoints', 'checkpoint triggers', (r) => ({
    time: r.number('time', { required: true, min: 0 }),
    checkpointId: r.integer('checkpointId', { required: true, min: 1 }),
    isSavepoint: r.boolean('isSavepoint', { required: true }),
    ...(r.has('synchronous') && r.boolean('synchronous') ? { synchronous: true as const } : {}),
    ...(r.has('checkpointType') ? { checkpointType: r.oneOf('checkpointType', ['FULL'] as const, { what: 'checkpoint type' }) } : {}),
    ...(r.has('completedAt') ? { completedAt: r.number('completedAt', { min: 0 }) } : {}),
    ...(r.has('failedAt') ? { failedAt: r.number('failedAt', { min: 0 }) } : {}),
    ...(r.has('failureReason') ? { failureReason: r.string('failureReason') } : {}),
  }), ['time', 'checkpointId', 'isSavepoint', 'synchronous', 'checkpointType', 'completedAt', 'failedAt', 'failureReason']);
  const faults = readItems(issues, recording, 'faults', 'applied faults', (r) => readFaultRecord(r, faultContext(issues, scenario)), ['time', 'fault', 'job']);
  const restores = readItems(issues, recording, 'restores', 'restores', (r) => ({
    attempt: r.integer('attempt', { required: true, min: 1 }),
    checkpointId: r.integer('checkpointId', { required: true, min: 1 }),
    ...(r.has('time') ? { time: r.number('time', { min: 0 }) } : {}),
  }), ['attempt', 'checkpointId', 'time']);
  // Recordings exported before restart requests were recorded have none.
  const restarts = recording.has('restarts') ? readItems(issues, recording, 'restarts', 'restart requests', (r) => readRestartRequest(r, scenario), ['time', 'operation', 'checkpointId', 'vertex', 'parallelism']) : [];
  const subtasks = readItems(issues, recording, 'subtasks', 'subtask deliveries', (r) => readSubtask(r, vertices), ['attempt', 'vertex', 'subtask', 'gates', 'barriers', 'aborts', 'watermarks']);
  if (endTime === undefined || !checkpoints || !faults || !restores || !restarts || !subtasks) return undefined;
  return { endTime, checkpoints, faults, restores, restarts, subtasks } as DeliveryLog;
}

function readRestartRequest(r: ObjectReader, scenario: Scenario | undefined): RestartRequestRecord {
  const operation = r.oneOf('operation', ['rescale', 'restart-from-savepoint'], { required: true, what: 'restart operation' });
  const request = { time: r.number('time', { required: true, min: 0 }), operation, checkpointId: r.integer('checkpointId', { required: true, min: 1 }) };
  if (operation !== 'rescale') return request as RestartRequestRecord;
  const vertices = scenario?.job.vertices.map((v) => v.id);
  const vertex = r.oneOf('vertex', vertices ?? [], { required: true, what: 'vertex' });
  const parallelism = r.integer('parallelism', { required: true, min: 1 });
  // The live run could not have rescaled beyond the slots of its cluster (the replay would wait for them forever).
  const slots = scenario && scenario.cluster.hosts * scenario.cluster.task_managers_per_host * scenario.cluster.slots_per_task_manager;
  if (slots !== undefined && parallelism !== undefined && parallelism > slots) {
    r.issues.error(r.pathOf('parallelism'), message('expectation.above-slots', { parallelism, slots }), { allowed: integerBetween(1, slots) });
  }
  return { ...request, vertex, parallelism } as RestartRequestRecord;
}

/** The seeds a scenario may name: the live run drew its seed from the same range. */
function readSeed(doc: ObjectReader): number | undefined {
  const seed = doc.integer('seed', { required: true });
  if (seed === undefined || (seed >= 0 && seed <= MAX_SEED)) return seed;
  doc.issues.error('seed', message('field.out-of-range', { value: String(seed) }), { allowed: integerBetween(0, MAX_SEED) });
  return undefined;
}

/** The scenario's vertices and cluster, which a recorded fault's target must be part of. */
function faultContext(issues: Issues, scenario: Scenario | undefined): FaultContext {
  const vertices = (scenario?.job.vertices ?? []).map((v) => ({ path: '', id: v.id, type: v.operator.type, parallelism: v.parallelism, spec: v }));
  return { issues, vertices, cluster: scenario?.cluster };
}

/** Reads every item of a list of objects; undefined when any is wrong (each wrong field is reported). */
function integerBetween(min: number, max: number): EngineMessage {
  const bounds = message('bounds', { bounds: [{ word: 'at least', value: String(min) }, { word: 'at most', value: String(max) }] });
  return message('allowed.integer', { range: bounds });
}

function readItems<T>(issues: Issues, parent: ObjectReader, key: string, what: ListItems, read: (r: ObjectReader) => T, fields: string[]): T[] | undefined {
  const items = parent.list(key, what, { required: true });
  if (!items) return undefined;
  const errorsBefore = issues.errors.length;
  const values = items.map((item: ListItem) => {
    const reader = ObjectReader.of(issues, item.path, item.value, message('noun.one-of', { items: what }));
    if (!reader) return undefined;
    reader.rejectUnknown(fields);
    return read(reader);
  });
  return issues.errors.length === errorsBefore ? (values as T[]) : undefined;
}

/** A recorded fault is held to the scenario's rules: what it names must exist in the scenario's job and cluster. */
function readFaultRecord(r: ObjectReader, context: FaultContext): FaultRecord | undefined {
  const time = r.number('time', { required: true, min: 0 });
  const fault = r.object('fault', 'a fault', { required: true });
  if (!fault) return undefined;
  const type = fault.oneOf('type', RECORDED_FAULT_TYPES, { required: true, what: 'fault type' });
  fault.number('at_ms', { required: true, min: 0 });
  if (type === undefined) return undefined;
  fault.rejectUnknown(FAULT_FIELDS[type].map((f) => (f === 'at' ? 'at_ms' : f)));
  const target = readFaultTarget(context, fault, type);
  // Recordings exported before the job's attempt and status were recorded have none: the replay applies their faults at once.
  const job = r.has('job') ? readFaultJob(r) : undefined;
  if (time === undefined || target === undefined || (r.has('job') && !job)) return undefined;
  return { time, fault: { type, ...target, at_ms: time } as FaultSpec, ...(job ? { job } : {}) };
}

function readFaultJob(r: ObjectReader): FaultRecord['job'] {
  const job = r.object('job', "the job's attempt and status when the fault came", { required: true });
  if (!job) return undefined;
  job.rejectUnknown(['attempt', 'status']);
  const attempt = job.integer('attempt', { required: true, min: 0 });
  const status = job.oneOf('status', USED_JOB_STATUSES, { required: true, what: 'job status' });
  return attempt === undefined || status === undefined ? undefined : { attempt, status };
}

function readSubtask(r: ObjectReader, vertices: string[] | undefined): SubtaskDelivery | undefined {
  const attempt = r.integer('attempt', { required: true, min: 0 });
  const vertex = r.oneOf('vertex', vertices ?? [], { required: true, what: 'vertex' });
  const subtask = r.integer('subtask', { required: true, min: 0 });
  const gates = r.list('gates', 'input gates (lists of [channel, count] pairs)', { required: true });
  const runs = gates?.map((g) => readPairs(r.issues, g, 'a list of [channel, count] pairs: channel an integer ≥ 0; count > 0 records, or −1 barrier, −2 end-of-partition, −3 cancel-checkpoint, −4 end-of-data', isRun));
  const barriers = r.list('barriers', 'barrier positions', { required: true });
  const positions = barriers && readPairs(r.issues, { path: r.pathOf('barriers'), value: barriers.map((b) => b.value) }, 'a list of [checkpointId, offset] pairs: checkpointId ≥ 1 (a barrier) or ≤ −1 (a cancellation marker), offset ≥ 0', isBarrier);
  const aborts = r.list('aborts', 'abort notifications', { required: true });
  const abortPositions = aborts && readPairs(r.issues, { path: r.pathOf('aborts'), value: aborts.map((b) => b.value) }, 'a list of [checkpointId, position] pairs: checkpointId ≥ 1, position ≥ 0', (id, at) => id >= 1 && at >= 0);
  // Recordings exported before source watermarks were recorded have none.
  const watermarks = r.has('watermarks') ? r.list('watermarks', 'watermark positions', { required: true }) : [];
  const watermarkPositions = watermarks && readPairs(r.issues, { path: r.pathOf('watermarks'), value: watermarks.map((w) => w.value) }, 'a list of [offset, barriers] pairs: offset ≥ 0, barriers ≥ 0', (at, n) => at >= 0 && n >= 0);
  if (attempt === undefined || vertex === undefined || subtask === undefined || !runs || runs.some((x) => !x) || !positions || !abortPositions || !watermarkPositions) return undefined;
  return { attempt, vertex, subtask, gates: runs as number[][], barriers: positions, aborts: abortPositions, watermarks: watermarkPositions };
}

function isRun(channel: number, count: number): boolean {
  return channel >= 0 && (count > 0 || eventKindOfCode(count) !== undefined);
}

function isBarrier(checkpointId: number, offset: number): boolean {
  return checkpointId !== 0 && offset >= 0;
}

/** A flat list of integer pairs; the first bad pair is reported with its index. */
function readPairs(issues: Issues, item: ListItem, allowedText: Phrase, valid: (a: number, b: number) => boolean): number[] | undefined {
  const v = item.value;
  const allowed = message('phrase', { text: allowedText });
  if (!Array.isArray(v) || v.length % 2 !== 0) {
    issues.error(item.path, message('session.odd-list'), { allowed });
    return undefined;
  }
  for (let i = 0; i < v.length; i += 2) {
    const a = v[i] as unknown;
    const b = v[i + 1] as unknown;
    if (!Number.isInteger(a) || !Number.isInteger(b) || !valid(a as number, b as number)) {
      issues.error(itemPath(item.path, i), message('session.bad-pair', { pair: `[${JSON.stringify(a)}, ${JSON.stringify(b)}]` }), { allowed });
      return undefined;
    }
  }
  return v as number[];
}
