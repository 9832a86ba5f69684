import { describe, expect, it } from 'vitest';
import { appendRun, appendRuns, countOf, EVENT_CODES } from '../../engine/replay/delivery-log.ts';
import { DeliveryRecorder } from '../../engine/replay/delivery-recorder.ts';
import { decodeSessionDocument, readSessionDocument, sessionDocument } from '../../engine/replay/session-document.ts';
import { formatScenarioErrors } from '../../engine/scenario/scenario-error.ts';
import type { NetworkBuffer } from '../../engine/protocol.ts';

const data = (n: number, watermark?: number): NetworkBuffer => ({
  kind: 'data',
  records: Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 1, timestamp: i })),
  sizeBytes: n * 100,
  ...(watermark === undefined ? {} : { watermark }),
});
const barrier = (id: number): NetworkBuffer => ({ kind: 'event', event: { kind: 'barrier', checkpointId: id, timestamp: 0, checkpointKind: 'CHECKPOINT', alignment: 'ALIGNED' }, sizeBytes: 32, priority: false });

const SCENARIO = `
version: 1
name: Replayed keyed counts
seed: 3
job:
  vertices:
    - { id: source, type: source, source: { kind: sequence, keys: 8, rate_per_s: 100, count: 100 } }
    - { id: count, type: keyed-aggregate, aggregate: count }
    - { id: sink, type: sink, sink: plain }
  edges:
    - { from: source, to: count, partitioning: hash }
    - { from: count, to: sink, partitioning: forward }
config: { parallelism.default: 2 }
cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 }
`;

function validDocument(): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(
      sessionDocument(SCENARIO, 3, {
        endTime: 900,
        checkpoints: [{ time: 100, checkpointId: 1, isSavepoint: false }],
        faults: [{ time: 250, fault: { at_ms: 250, type: 'fail-task', vertex: 'count', subtask: 1 } }],
        restores: [{ attempt: 1, checkpointId: 1 }],
        restarts: [{ time: 600, operation: 'rescale', checkpointId: 1, vertex: 'count', parallelism: 1 }],
        subtasks: [{ attempt: 0, vertex: 'count', subtask: 0, gates: [[0, 12, 1, 3, 0, -1, 1, -1]], barriers: [], aborts: [], watermarks: [] }],
      }),
    ),
  ) as Record<string, unknown>;
}

function errorsOf(input: unknown): string {
  const reading = readSessionDocument(input);
  if (reading.ok) throw new Error('expected the document to be rejected');
  return formatScenarioErrors(reading.errors);
}

describe('the delivery recording format', () => {
  it('run-length encodes records of one channel across buffers, and writes each event on its own', () => {
    const runs: number[] = [];
    for (const [channel, buffer] of [[0, data(3)], [0, data(2)], [1, data(4)], [1, barrier(1)], [1, data(1)], [0, data(0, 5)]] as const) appendRun(runs, channel, countOf(buffer));
    expect(runs).toEqual([0, 5, 1, 4, 1, EVENT_CODES.barrier, 1, 1]);
  });

  it('merges a later batch into the earlier one at the seam', () => {
    const runs = [0, 5, 1, 2];
    appendRuns(runs, [1, 3, 1, -1, 0, 1]);
    expect(runs).toEqual([0, 5, 1, 5, 1, -1, 0, 1]);
  });

  it('drains what a subtask consumed since the last drain, gate by gate, with its source barriers and watermarks', () => {
    const recorder = new DeliveryRecorder(2);
    recorder.consumed(0, 1, data(2));
    recorder.consumed(1, 0, barrier(1));
    recorder.barrierInjected(1, 40);
    recorder.watermarkEmitted(55, 1);
    expect(recorder.isEmpty).toBe(false);
    expect(recorder.drain()).toEqual({ gates: [[1, 2], [0, -1]], barriers: [1, 40], aborts: [], watermarks: [55, 1] });
    expect(recorder.isEmpty).toBe(true);
    expect(recorder.drain()).toEqual({ gates: [[], []], barriers: [], aborts: [], watermarks: [] });
  });
});

describe('session documents', () => {
  it('reads back what was exported', () => {
    const text = JSON.stringify(validDocument());
    const reading = decodeSessionDocument(text);
    expect(reading.ok).toBe(true);
    if (reading.ok) {
      expect(reading.document).toEqual(validDocument());
      expect(reading.scenario.name).toBe('Replayed keyed counts');
    }
  });

  it('names the field and what is allowed for each bad value', () => {
    const doc = validDocument();
    doc.version = 2;
    expect(errorsOf(doc)).toContain('version: 2 is out of range (allowed: an integer at least 1 and at most 1)');
    expect(errorsOf({ ...validDocument(), scenario: undefined })).toContain('scenario: has no value');
    expect(errorsOf({ ...validDocument(), seed: 1.5 })).toContain('seed: expected an integer, got the number 1.5 (allowed: an integer)');
    expect(errorsOf({ ...validDocument(), extra: 1 })).toContain('extra: unknown field "extra"');
  });

  it('reports a bad run with its gate and pair index', () => {
    const doc = validDocument();
    (doc.recording as { subtasks: Array<{ gates: number[][] }> }).subtasks[0]!.gates[0] = [0, 12, 1, -7];
    expect(errorsOf(doc)).toContain('recording.subtasks[0].gates[0][2]: the pair [1, -7] is not valid (allowed: a list of [channel, count] pairs');
  });

  it('rejects a vertex the scenario lacks, with the nearest name', () => {
    const doc = validDocument();
    (doc.recording as { subtasks: Array<{ vertex: string }> }).subtasks[0]!.vertex = 'cont';
    expect(errorsOf(doc)).toContain('recording.subtasks[0].vertex: unknown vertex "cont" (allowed: source, count, sink) — did you mean "count"?');
  });

  it('keeps checkpoint triggers out of the recorded faults', () => {
    const doc = validDocument();
    (doc.recording as { faults: Array<{ fault: object }> }).faults[0]!.fault = { at_ms: 250, type: 'trigger-checkpoint' };
    expect(errorsOf(doc)).toMatch(/recording\.faults\[0\]\.fault\.type: unknown fault type "trigger-checkpoint" \(allowed: fail-task, kill-task-manager/);
  });

  it("reads each fault's job attempt and status, and names a bad one", () => {
    const doc = validDocument();
    const faults = (doc.recording as { faults: Array<{ job?: unknown }> }).faults;
    faults[0]!.job = { attempt: 1, status: 'RUNNING' };
    const reading = readSessionDocument(doc);
    expect(reading.ok && reading.document.recording.faults[0]!.job).toEqual({ attempt: 1, status: 'RUNNING' });
    faults[0]!.job = { attempt: 1, status: 'SPRINTING' };
    expect(errorsOf(doc)).toMatch(/recording\.faults\[0\]\.job\.status: unknown job status "SPRINTING" \(allowed: CREATED, RUNNING/);
    faults[0]!.job = { attempt: -1, status: 'RUNNING', extra: 1 };
    expect(errorsOf(doc)).toMatch(/recording\.faults\[0\]\.job\.attempt/);
    expect(errorsOf(doc)).toMatch(/extra/);
  });

  it('reads a recording exported before restart requests were recorded as one with none', () => {
    const doc = validDocument();
    delete (doc.recording as { restarts?: unknown }).restarts;
    const reading = readSessionDocument(doc);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.document.recording.restarts).toEqual([]);
  });

  it('reads a subtask recorded before source watermarks were recorded as one with none', () => {
    const doc = validDocument();
    delete (doc.recording as { subtasks: Array<{ watermarks?: unknown }> }).subtasks[0]!.watermarks;
    const reading = readSessionDocument(doc);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.document.recording.subtasks[0]!.watermarks).toEqual([]);
  });

  it('reports a bad watermark position with its pair index', () => {
    const doc = validDocument();
    (doc.recording as { subtasks: Array<{ watermarks: number[] }> }).subtasks[0]!.watermarks = [40, 0, -3, 1];
    expect(errorsOf(doc)).toContain('recording.subtasks[0].watermarks[2]: the pair [-3, 1] is not valid (allowed: a list of [offset, barriers] pairs');
  });

  it('names the field of a bad restart request and what is allowed', () => {
    const doc = validDocument();
    const restarts = (doc.recording as { restarts: Array<Record<string, unknown>> }).restarts;
    restarts[0]!.operation = 'resize';
    expect(errorsOf(doc)).toMatch(/recording\.restarts\[0\]\.operation: unknown restart operation "resize" \(allowed: rescale, restart-from-savepoint\)/);
    restarts[0] = { time: 600, operation: 'rescale', checkpointId: 1, vertex: 'cont', parallelism: 1 };
    expect(errorsOf(doc)).toContain('recording.restarts[0].vertex: unknown vertex "cont" (allowed: source, count, sink)');
    restarts[0] = { time: 600, operation: 'rescale', checkpointId: 1, vertex: 'count' };
    expect(errorsOf(doc)).toContain('recording.restarts[0].parallelism: required field is missing (allowed: an integer at least 1)');
  });

  it('reports a scenario that does not validate under the scenario field', () => {
    expect(errorsOf({ ...validDocument(), scenario: SCENARIO.replace('rate_per_s: 100', 'rate_per_s: -1') })).toMatch(/^scenario: job\.vertices\[0\]\.source\.rate_per_s: /m);
  });

  it('says when the text is not JSON', () => {
    const reading = decodeSessionDocument('{"version": 1,');
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.errors[0]!.message).toMatch(/^not JSON: /);
  });

  it('rejects something that is not a document at all', () => {
    expect(errorsOf([1, 2])).toContain('expected a session document (a map of fields), got');
  });
});
