import { describe, expect, it } from 'vitest';
import { readConfig } from '../../engine/config/flink-options.ts';
import { checkpointConfigDocument, CheckpointStatsTracker } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import { keyOrderMismatches } from '../flink-reference/document-key-order.ts';
import {
  flinkResponseSchema,
  flinkResponseValidator,
  type FlinkResponseSchemaName,
  type JsonSchema,
} from '../flink-reference/flink-schema.ts';
import { trackerDocuments, type FlinkDocument } from './flink-documents.ts';
import { acknowledgeAll, completeCheckpoint, newTracker, SOURCE, subtaskStats, TWO_VERTICES, WINDOW } from './tracker-driver.ts';

const SCHEMAS: FlinkResponseSchemaName[] = ['checkpointing-statistics', 'checkpoint-statistics', 'task-checkpoint-statistics', 'checkpoint-config'];
const validators = Object.fromEntries(SCHEMAS.map((name) => [name, flinkResponseValidator(name)])) as Record<
  FlinkResponseSchemaName,
  (document: unknown) => string[]
>;

/** Thirteen checkpoints of a job that restored, checkpointed unaligned, took a savepoint and had failures. */
function busyTracker(): CheckpointStatsTracker {
  const tracker = newTracker(10);
  tracker.reportRestoredCheckpoint(3, 500, false, 'file:///checkpoints/old-job/chk-3');
  for (let id = 1; id <= 8; id++) {
    completeCheckpoint(tracker, id, id * 10_000, { unalignedCheckpoint: id % 3 === 0, persistedDataBytes: id % 3 === 0 ? 4_096 : 0 });
    if (id > 1) tracker.reportDiscarded(id - 1);
  }
  tracker.reportPendingCheckpoint(9, 90_000, 'SAVEPOINT', 'NATIVE');
  acknowledgeAll(tracker, 9, 90_050);
  tracker.reportCompletedCheckpoint(9, 'file:///savepoints/savepoint-9');
  tracker.reportPendingCheckpoint(10, 100_000, 'CHECKPOINT');
  tracker.reportSubtaskStats(10, SOURCE, subtaskStats({ subtaskIndex: 1, ackTimestamp: 100_020 }));
  tracker.reportFailedCheckpoint(10, 700_000, 'Checkpoint expired before completing.');
  tracker.reportFailedCheckpointsWithoutInProgress();
  tracker.reportPendingCheckpoint(11, 710_000, 'CHECKPOINT');
  tracker.reportSubtaskStats(11, WINDOW, subtaskStats({ subtaskIndex: 2, aborted: true }));
  tracker.reportFailedCheckpoint(11, 711_000, 'Task has failed.');
  tracker.reportPendingCheckpoint(12, 720_000, 'UNALIGNED_CHECKPOINT');
  tracker.reportSubtaskStats(12, WINDOW, subtaskStats({ subtaskIndex: 0, ackTimestamp: 720_030, unalignedCheckpoint: true }));
  tracker.reportPendingCheckpoint(13, 730_000, 'CHECKPOINT');
  return tracker;
}

function configDocuments(): FlinkDocument[] {
  const configs = [
    readConfig({}),
    readConfig({ 'execution.checkpointing.interval': '10 s', 'execution.checkpointing.mode': 'AT_LEAST_ONCE', 'state.backend.type': 'rocksdb' }),
  ];
  return configs.map((config, i) => ({ schema: 'checkpoint-config', label: `config ${i}`, document: checkpointConfigDocument(config) }));
}

function allDocuments(): FlinkDocument[] {
  const vertexIds = TWO_VERTICES.map((v) => v.vertexId);
  return [...trackerDocuments(newTracker(), vertexIds), ...trackerDocuments(busyTracker(), vertexIds), ...configDocuments()];
}

function renameKey(object: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key === from ? to : key, value]));
}

const copy = <T>(value: T): T => structuredClone(value);

describe('documents against Flink’s REST schemas', () => {
  it('produces every endpoint’s document for a busy job', () => {
    const bySchema = new Set(allDocuments().map((d) => d.schema));
    expect([...bySchema].sort()).toEqual([...SCHEMAS].sort());
    expect(allDocuments().length).toBeGreaterThan(30);
  });

  it.each(allDocuments().map((d) => [d.label, d] as const))('validates %s', (_label, { schema, document }) => {
    expect(validators[schema](document)).toEqual([]);
  });

  it.each(allDocuments().map((d) => [d.label, d] as const))('writes the keys of %s in Flink’s order', (_label, { schema, document }) => {
    expect(keyOrderMismatches(flinkResponseSchema(schema), document)).toEqual([]);
  });

  it('survives a JSON round trip unchanged, as plain JSON values', () => {
    for (const { document } of allDocuments()) expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});

describe('schema strictness', () => {
  const statistics = () => copy(busyTracker().checkpointingStatistics());

  it('fails a history entry whose end_to_end_duration is misnamed', () => {
    const document = statistics();
    const [first, ...rest] = document.history;
    const broken = { ...document, history: [renameKey(first as never, 'end_to_end_duration', 'end_to_end_duration_ms'), ...rest] };
    expect(validators['checkpointing-statistics'](document)).toEqual([]);
    expect(validators['checkpointing-statistics'](broken).join('\n')).toMatch(/additionalProperties|required/);
  });

  it('fails a misnamed count, summary figure, latest field or restore field', () => {
    const breakages: ((d: Record<string, any>) => void)[] = [
      (d) => (d.counts = renameKey(d.counts, 'in_progress', 'inProgress')),
      (d) => (d.summary.state_size = renameKey(d.summary.state_size, 'p999', 'p99_9')),
      (d) => (d.latest.completed = renameKey(d.latest.completed, 'external_path', 'externalPath')),
      (d) => (d.latest.restored = renameKey(d.latest.restored, 'restore_timestamp', 'restoreTimestamp')),
      (d) => (d.summary = renameKey(d.summary, 'alignment_buffered', 'alignment_buffer')),
    ];
    for (const breakage of breakages) {
      const document = statistics() as Record<string, any>;
      breakage(document);
      expect(validators['checkpointing-statistics'](document)).not.toEqual([]);
    }
  });

  it('fails a completed entry that lacks discarded or a failed one that carries external_path', () => {
    const document = statistics() as Record<string, any>;
    const completed = document.history.find((e: { className: string }) => e.className === 'completed');
    delete completed.discarded;
    expect(validators['checkpointing-statistics'](document)).not.toEqual([]);
    const other = statistics() as Record<string, any>;
    other.history.find((e: { className: string }) => e.className === 'failed').external_path = null;
    expect(validators['checkpointing-statistics'](other)).not.toEqual([]);
  });

  it('fails an unknown className and the pre-1.15 @class discriminator', () => {
    const unknown = statistics() as Record<string, any>;
    unknown.history[0].className = 'pending';
    expect(validators['checkpointing-statistics'](unknown)).not.toEqual([]);
    const legacy = statistics() as Record<string, any>;
    legacy.history[0] = renameKey(legacy.history[0], 'className', '@class');
    expect(validators['checkpointing-statistics'](legacy)).not.toEqual([]);
  });

  it('fails a misnamed per-vertex task field in the details', () => {
    const details = copy(busyTracker().checkpointDetails(8)) as Record<string, any>;
    expect(validators['checkpoint-statistics'](details)).toEqual([]);
    details.tasks[SOURCE] = renameKey(details.tasks[SOURCE], 'num_acknowledged_subtasks', 'num_acked_subtasks');
    expect(validators['checkpoint-statistics'](details)).not.toEqual([]);
  });

  it('fails a misnamed subtask field, nested alignment field or subtask status', () => {
    const fresh = () => copy(busyTracker().taskCheckpointStatistics(12, WINDOW)) as Record<string, any>;
    const ack = fresh();
    ack.subtasks[0] = renameKey(ack.subtasks[0], 'ack_timestamp', 'acknowledged_at');
    const nested = fresh();
    nested.subtasks[0].alignment = renameKey(nested.subtasks[0].alignment, 'persisted', 'persisted_bytes');
    const status = fresh();
    status.subtasks[1].status = 'pending';
    const summary = fresh();
    summary.summary.checkpoint_duration = renameKey(summary.summary.checkpoint_duration, 'async', 'asynchronous');
    expect(validators['task-checkpoint-statistics'](fresh())).toEqual([]);
    for (const broken of [ack, nested, status, summary]) expect(validators['task-checkpoint-statistics'](broken)).not.toEqual([]);
  });

  it('fails a misnamed config field and an upper-case mode', () => {
    const config = checkpointConfigDocument(readConfig({})) as unknown as Record<string, unknown>;
    expect(validators['checkpoint-config'](renameKey(config, 'min_pause', 'minPause'))).not.toEqual([]);
    expect(validators['checkpoint-config']({ ...config, mode: 'EXACTLY_ONCE' })).not.toEqual([]);
  });

  it('accepts "NaN" but no other string where Flink writes a double', () => {
    const document = statistics() as Record<string, any>;
    document.summary.state_size.p50 = 'NaN';
    expect(validators['checkpointing-statistics'](document)).toEqual([]);
    document.summary.state_size.p50 = '150.5';
    expect(validators['checkpointing-statistics'](document)).not.toEqual([]);
  });

  it('notices keys written out of Flink’s order', () => {
    const document = statistics() as Record<string, any>;
    const { id, className, ...rest } = document.history[0];
    document.history[0] = { id, className, ...rest };
    expect(keyOrderMismatches(flinkResponseSchema('checkpointing-statistics'), document)).toHaveLength(1);
  });

  it.each(SCHEMAS)('closes every object that lists properties in %s', (name) => {
    const open: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((child, i) => visit(child, `${path}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as JsonSchema;
      if (schema['properties'] !== undefined) {
        const names = Object.keys(schema['properties'] as object);
        if (schema['additionalProperties'] !== false || (schema['required'] as string[]).length !== names.length) open.push(path);
      }
      for (const [key, child] of Object.entries(schema)) visit(child, `${path}/${key}`);
    };
    visit(flinkResponseSchema(name), '');
    expect(open).toEqual([]);
  });
});
