import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFlinkStatisticsText } from '../../engine/interop/flink-statistics-import.ts';
import { keyOrderMismatches } from '../flink-reference/document-key-order.ts';
import { flinkResponseSchema, flinkResponseValidator } from '../flink-reference/flink-schema.ts';

/** Copied from ../shared/flink-samples (see tests/flink-samples/README.md for their sources). */
const sample = (name: string) => readFileSync(new URL(`../flink-samples/${name}`, import.meta.url), 'utf8');
const FLINK_115 = '01-checkpoints-flink-kubernetes-operator-flink115-history10.json';
const FLINK_191 = '08-checkpoints-soojae-study-flink191-38completed.json';
const validate = flinkResponseValidator('checkpointing-statistics');

function imported(name: string) {
  const result = importFlinkStatisticsText(sample(name));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.statistics;
}

describe('the two real Flink responses', () => {
  it.each([FLINK_115, FLINK_191])('%s normalizes to a document that matches Flink’s current schema, keys in order', (name) => {
    const { checkpoints } = imported(name);
    expect(validate(checkpoints)).toEqual([]);
    expect(keyOrderMismatches(flinkResponseSchema('checkpointing-statistics'), checkpoints)).toEqual([]);
  });

  it('reads the 1.15 response as written: className, checkpointed_size, percentiles, a restore from a savepoint', () => {
    const raw = JSON.parse(sample(FLINK_115));
    const statistics = imported(FLINK_115);
    expect(statistics.endpoint).toBe('/jobs/:jobid/checkpoints');
    expect(statistics.flinkVersions).toEqual(['1.15', '1.16']);
    const { checkpoints } = statistics;
    expect(checkpoints?.counts).toEqual(raw.counts);
    expect(checkpoints?.summary.end_to_end_duration).toEqual(raw.summary.end_to_end_duration);
    expect(checkpoints?.latest.restored).toEqual(raw.latest.restored);
    expect(checkpoints?.latest.failed).toBeNull();
    expect(checkpoints?.history.map((e) => e.id)).toEqual(raw.history.map((e: { id: number }) => e.id));
    // the only field 1.15 does not write is savepointFormat (1.17)
    expect(checkpoints?.history[0]).toEqual({ ...raw.history[0], savepointFormat: null });
  });

  it('keeps counts that do not match the trimmed history (79 triggered, 10 entries; 10 failed, none listed)', () => {
    const { checkpoints } = imported(FLINK_115);
    expect(checkpoints?.counts.total).toBe(79);
    expect(checkpoints?.history).toHaveLength(10);
    expect(checkpoints?.history.filter((e) => e.status === 'FAILED')).toHaveLength(0);
  });

  it('reads the 1.9.1 response: @class, no checkpointed_size, in-flight data, checkpoint_type or percentiles', () => {
    const raw = JSON.parse(sample(FLINK_191));
    const statistics = imported(FLINK_191);
    expect(statistics.flinkVersions).toEqual(['1.9', '1.10', '1.11']);
    const { checkpoints } = statistics;
    const first = checkpoints?.history[0];
    expect(first).toMatchObject({ className: 'completed', id: 38, checkpointed_size: 8077, state_size: 8077, processed_data: 0, persisted_data: 0, checkpoint_type: 'CHECKPOINT' });
    expect(first).not.toHaveProperty('@class');
    expect(checkpoints?.summary.state_size).toEqual({ ...raw.summary.state_size, p50: 'NaN', p90: 'NaN', p95: 'NaN', p99: 'NaN', p999: 'NaN' });
    expect(checkpoints?.summary.checkpointed_size).toEqual(checkpoints?.summary.state_size);
    expect(checkpoints?.latest).toMatchObject({ savepoint: null, failed: null, restored: null });
    expect(checkpoints?.latest.completed?.external_path).toBe('<checkpoint-not-externally-addressable>');
  });
});
