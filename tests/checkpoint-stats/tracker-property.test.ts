import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CheckpointStatsTracker, type SubtaskCheckpointStats } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import type { VertexParallelism } from '../../engine/checkpoint/stats/checkpoint-stats-types.ts';
import { keyOrderMismatches } from '../flink-reference/document-key-order.ts';
import { flinkResponseSchema, flinkResponseValidator, type FlinkResponseSchemaName } from '../flink-reference/flink-schema.ts';
import { trackerDocuments } from './flink-documents.ts';

const VERTEX_IDS = ['source', 'window', 'sink'] as const;

type Operation =
  | { op: 'trigger'; type: 'CHECKPOINT' | 'UNALIGNED_CHECKPOINT' | 'SAVEPOINT'; format: 'CANONICAL' | 'NATIVE' | undefined }
  | { op: 'ack'; pick: number; vertex: number; stats: Omit<SubtaskCheckpointStats, 'ackTimestamp'> }
  | { op: 'complete' | 'fail' | 'discard'; pick: number }
  | { op: 'failWithoutInProgress' }
  | { op: 'restore'; pick: number; isSavepoint: boolean; withPath: boolean }
  | { op: 'rescale'; parallelisms: number[] };

const subtaskStatsArbitrary = fc.record({
  subtaskIndex: fc.integer({ min: 0, max: 4 }),
  stateSize: fc.nat({ max: 10_000_000 }),
  checkpointedSize: fc.nat({ max: 10_000_000 }),
  syncDurationMs: fc.nat({ max: 5_000 }),
  asyncDurationMs: fc.nat({ max: 60_000 }),
  alignmentDurationMs: fc.nat({ max: 60_000 }),
  startDelayMs: fc.nat({ max: 60_000 }),
  processedDataBytes: fc.integer({ min: -1, max: 1_000_000 }),
  persistedDataBytes: fc.integer({ min: -1, max: 1_000_000 }),
  unalignedCheckpoint: fc.boolean(),
  // about one report in ten is an aborted subtask
  aborted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('trigger' as const), type: fc.constantFrom('CHECKPOINT', 'UNALIGNED_CHECKPOINT', 'SAVEPOINT'), format: fc.constantFrom('CANONICAL', 'NATIVE', undefined) }) },
  { weight: 8, arbitrary: fc.record({ op: fc.constant('ack' as const), pick: fc.nat(), vertex: fc.nat({ max: 3 }), stats: subtaskStatsArbitrary }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('complete' as const, 'fail' as const, 'discard' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'failWithoutInProgress' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restore' as const), pick: fc.nat(), isSavepoint: fc.boolean(), withPath: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rescale' as const), parallelisms: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }) }) },
);

interface Scenario {
  historySize: number;
  parallelisms: number[];
  operations: [Operation, number][];
}

const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  historySize: fc.nat({ max: 6 }),
  parallelisms: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
  // the simulator's virtual clock advances in fractions of a millisecond
  operations: fc.array(fc.tuple(operationArbitrary, fc.double({ min: 0, max: 2_000, noNaN: true })), { maxLength: 60 }),
});

function verticesFor(parallelisms: number[]): VertexParallelism[] {
  return parallelisms.map((parallelism, i) => ({ vertexId: VERTEX_IDS[i] as string, parallelism }));
}

/** Runs the operations; ids grow as Flink's do, and picks may hit unknown ids on purpose. */
function run(scenario: Scenario): CheckpointStatsTracker {
  const tracker = new CheckpointStatsTracker({ historySize: scenario.historySize, vertices: verticesFor(scenario.parallelisms) });
  let clock = 0;
  let nextId = 1;
  const pickId = (pick: number) => (pick % (nextId + 1)) + 1;
  for (const [operation, advance] of scenario.operations) {
    clock += advance;
    apply(tracker, operation, clock, pickId, () => nextId++);
  }
  return tracker;
}

function apply(tracker: CheckpointStatsTracker, o: Operation, now: number, pickId: (pick: number) => number, newId: () => number): void {
  switch (o.op) {
    case 'trigger':
      return tracker.reportPendingCheckpoint(newId(), now, o.type, o.format);
    case 'ack':
      return tracker.reportSubtaskStats(pickId(o.pick), VERTEX_IDS[o.vertex] ?? 'unknown', { ...o.stats, ackTimestamp: now });
    case 'complete':
      return tracker.reportCompletedCheckpoint(pickId(o.pick), `file:///checkpoints/chk-${pickId(o.pick)}`);
    case 'fail':
      return tracker.reportFailedCheckpoint(pickId(o.pick), now, 'Checkpoint expired before completing.');
    case 'discard':
      return tracker.reportDiscarded(pickId(o.pick));
    case 'failWithoutInProgress':
      return tracker.reportFailedCheckpointsWithoutInProgress();
    case 'restore':
      return tracker.reportRestoredCheckpoint(pickId(o.pick), now, o.isSavepoint, o.withPath ? 'file:///checkpoints/chk-1' : null);
    case 'rescale':
      return tracker.updateVertices(verticesFor(o.parallelisms));
  }
}

const validators = new Map<FlinkResponseSchemaName, (document: unknown) => string[]>();
const validatorFor = (name: FlinkResponseSchemaName) => {
  if (!validators.has(name)) validators.set(name, flinkResponseValidator(name));
  return validators.get(name) as (document: unknown) => string[];
};

describe('random sequences of tracker calls', () => {
  it('always produce documents that match Flink’s schemas, keys in Flink’s order', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        for (const { schema, label, document } of trackerDocuments(run(scenario), VERTEX_IDS)) {
          expect(validatorFor(schema)(document), label).toEqual([]);
          expect(keyOrderMismatches(flinkResponseSchema(schema), document), label).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keep the counts consistent with the history', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const { counts, history } = run(scenario).checkpointingStatistics();
        const triggered = scenario.operations.filter(([o]) => o.op === 'trigger').length;
        const failedEarly = scenario.operations.filter(([o]) => o.op === 'failWithoutInProgress').length;
        expect(counts.total).toBe(triggered + failedEarly);
        expect(counts.in_progress + counts.completed + counts.failed).toBe(counts.total);
        expect(history.length).toBe(Math.min(triggered, scenario.historySize));
        expect(history.map((e) => e.id)).toEqual([...history.map((e) => e.id)].sort((a, b) => b - a));
        expect(history.filter((e) => e.className === 'in_progress').length).toBeLessThanOrEqual(counts.in_progress);
      }),
      { numRuns: 150 },
    );
  });
});
