import { describe, expect, it } from 'vitest';
import { FLINK_OPTIONS } from '../../engine/config/flink-options.ts';
import { didYouMean } from '../../engine/scenario/did-you-mean.ts';

const CONFIG_KEYS = FLINK_OPTIONS.map((o) => o.key);
const VERTEX_FIELDS = ['id', 'name', 'parallelism', 'record_cost_us', 'type', 'source'];

describe('didYouMean suggests the nearest valid name', () => {
  it.each([
    ['execution.checkpointing.intervall', CONFIG_KEYS, 'execution.checkpointing.interval'],
    ['execution.checkpointing.interval.ms', CONFIG_KEYS, 'execution.checkpointing.interval'],
    ['execution.checkpointing.min_pause', CONFIG_KEYS, 'execution.checkpointing.min-pause'],
    ['Execution.Checkpointing.Timeout', CONFIG_KEYS, 'execution.checkpointing.timeout'],
    ['taskmanager.numberoftaskslots', CONFIG_KEYS, 'taskmanager.numberOfTaskSlots'],
    ['unaligned.enabled', CONFIG_KEYS, 'execution.checkpointing.unaligned.enabled'],
    ['paralelism', VERTEX_FIELDS, 'parallelism'],
    ['Parallelism', VERTEX_FIELDS, 'parallelism'],
    ['tpye', VERTEX_FIELDS, 'type'],
    ['record_cost_ms', VERTEX_FIELDS, 'record_cost_us'],
    ['at_ms', ['at', 'type', 'vertex'], 'at'],
    ['until_ms', ['until'], 'until'],
  ])('%s → %s', (input, candidates, expected) => {
    expect(didYouMean(input, candidates)).toBe(expected);
  });

  it.each([
    ['execution.checkpointing.foo', CONFIG_KEYS],
    ['banana', VERTEX_FIELDS],
    ['x', VERTEX_FIELDS],
    ['timeout', CONFIG_KEYS],
    ['', VERTEX_FIELDS],
  ])('suggests nothing for %j, which is no plausible slip', (input, candidates) => {
    expect(didYouMean(input, candidates)).toBeUndefined();
  });

  it('suggests nothing when there is nothing to choose from', () => {
    expect(didYouMean('id', [])).toBeUndefined();
  });
});
