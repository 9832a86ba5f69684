import { describe, expect, it } from 'vitest';
import { findOption, type FlinkOption } from '../../engine/config/flink-options.ts';
import { parseOptionValue } from '../../engine/config/option-value.ts';

function option(key: string): FlinkOption {
  const found = findOption(key);
  if (!found) throw new Error(`no option ${key}`);
  return found;
}

describe('parseOptionValue converts values as Flink does', () => {
  it.each([
    ['execution.checkpointing.interval', '10 s', 10_000],
    ['execution.checkpointing.interval', 5000, 5000],
    ['execution.checkpointing.timeout', '10 min', 600_000],
    ['state.backend.rocksdb.writebuffer.size', '64mb', 64 * 1024 * 1024],
    ['taskmanager.memory.segment-size', 4096, 4096],
    ['execution.checkpointing.max-concurrent-checkpoints', 2, 2],
    ['execution.checkpointing.max-concurrent-checkpoints', ' 3 ', 3],
    ['pipeline.max-parallelism', -1, -1],
    ['pipeline.max-parallelism', '-1', -1],
    ['pipeline.max-parallelism', 128, 128],
    ['state.backend.rocksdb.memory.write-buffer-ratio', 0.25, 0.25],
    ['state.backend.rocksdb.memory.write-buffer-ratio', '0.25', 0.25],
    ['restart-strategy.exponential-delay.backoff-multiplier', '2', 2],
    ['execution.checkpointing.unaligned.enabled', true, true],
    ['execution.checkpointing.unaligned.enabled', 'TRUE', true],
    ['execution.checkpointing.unaligned.enabled', 'false', false],
    ['execution.checkpointing.mode', 'at_least_once', 'AT_LEAST_ONCE'],
    ['execution.checkpointing.mode', 'Exactly_Once', 'EXACTLY_ONCE'],
    ['state.backend.type', 'ROCKSDB', 'rocksdb'],
    ['restart-strategy.type', 'exponentialdelay', 'exponential-delay'],
    ['restart-strategy.type', 'disable', 'none'],
    ['execution.checkpointing.externalized-checkpoint-retention', 'retain_on_cancellation', 'RETAIN_ON_CANCELLATION'],
    ['execution.checkpointing.dir', 'file:///tmp/checkpoints', 'file:///tmp/checkpoints'],
  ])('%s: %j → %j', (key, raw, value) => {
    expect(parseOptionValue(option(key), raw)).toEqual({ ok: true, value });
  });

  it.each([
    ['execution.checkpointing.interval', 'ten seconds', 'does not start with a number'],
    ['execution.checkpointing.interval', true, 'expected a duration'],
    ['execution.checkpointing.timeout', '5 ms', 'at least 10 ms'],
    ['execution.checkpointing.max-concurrent-checkpoints', 0, 'at least 1'],
    ['execution.checkpointing.max-concurrent-checkpoints', 1.5, 'expected an integer'],
    ['execution.checkpointing.max-concurrent-checkpoints', 'two', 'expected an integer'],
    ['execution.checkpointing.num-retained', 0, 'at least 1'],
    ['pipeline.max-parallelism', 0, 'at least 1'],
    ['pipeline.max-parallelism', 40_000, 'at most 32768'],
    ['state.backend.rocksdb.memory.write-buffer-ratio', 1, 'less than 1'],
    ['state.backend.rocksdb.memory.high-prio-pool-ratio', 0, 'greater than 0'],
    ['restart-strategy.exponential-delay.jitter-factor', 1.5, 'at most 1'],
    ['taskmanager.memory.segment-size', '48kb', 'power of 2'],
    ['taskmanager.memory.segment-size', '2kb', 'at least 4 kb'],
    ['execution.checkpointing.unaligned.enabled', 'yes', 'expected true or false'],
    ['execution.checkpointing.unaligned.enabled', 1, 'expected true or false'],
    ['execution.checkpointing.mode', 'EXACTLY_TWICE', 'not one of the allowed values'],
    ['state.backend.type', 'forst', 'not one of the allowed values'],
    ['restart-strategy.type', 'failure-rate', 'not one of the allowed values'],
    ['execution.checkpointing.dir', '  ', 'empty string'],
    ['execution.checkpointing.dir', 5, 'expected a string'],
    ['heartbeat.interval', 0, 'greater than 0 ms'],
    ['execution.checkpointing.interval', null, 'no value given'],
    ['execution.checkpointing.interval', [1], 'got a list'],
  ])('%s: rejects %j (%s)', (key, raw, message) => {
    const result = parseOptionValue(option(key), raw);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain(message);
      expect(result.allowed.length).toBeGreaterThan(0);
    }
  });

  it('lists the allowed enum values', () => {
    const result = parseOptionValue(option('execution.checkpointing.mode'), 'fast');
    expect(result).toMatchObject({ ok: false, allowed: 'EXACTLY_ONCE, AT_LEAST_ONCE' });
  });

  it("explains the max-parallelism sentinel in what is allowed", () => {
    const result = parseOptionValue(option('pipeline.max-parallelism'), 0);
    expect(result.ok ? '' : result.allowed).toContain("-1 (Flink's default rule");
  });
});
