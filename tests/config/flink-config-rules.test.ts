import { describe, expect, it } from 'vitest';
import { checkConfigRules } from '../../engine/config/flink-config-rules.ts';
import { readConfig } from '../../engine/config/flink-options.ts';
import type { ConfigValue } from '../../engine/scenario/scenario-types.ts';

function findings(config: Record<string, ConfigValue>) {
  return checkConfigRules(readConfig(config), new Set(Object.keys(config)));
}

const INTERVAL = { 'execution.checkpointing.interval': '10 s' };

describe("Flink's cross-option rules", () => {
  it('find nothing wrong with checkpointing on and everything else at its default', () => {
    expect(findings(INTERVAL)).toEqual([]);
  });

  it.each([
    [
      'unaligned checkpoints with AT_LEAST_ONCE',
      { 'execution.checkpointing.unaligned.enabled': true, 'execution.checkpointing.mode': 'AT_LEAST_ONCE' },
      'execution.checkpointing.unaligned.enabled',
      'need execution.checkpointing.mode EXACTLY_ONCE',
    ],
    [
      'unaligned checkpoints with two concurrent checkpoints',
      { 'execution.checkpointing.unaligned.enabled': true, 'execution.checkpointing.max-concurrent-checkpoints': 2 },
      'execution.checkpointing.unaligned.enabled',
      'max-concurrent-checkpoints 1',
    ],
    ['a heartbeat timeout below the interval', { 'heartbeat.timeout': '5 s' }, 'heartbeat.timeout', 'shorter than heartbeat.interval'],
    [
      'RocksDB memory ratios above 1',
      { 'state.backend.rocksdb.memory.write-buffer-ratio': 0.7, 'state.backend.rocksdb.memory.high-prio-pool-ratio': 0.5 },
      'state.backend.rocksdb.memory.high-prio-pool-ratio',
      'is more than 1',
    ],
    [
      'no network buffer at all',
      { 'taskmanager.network.memory.buffers-per-channel': 0, 'taskmanager.network.memory.floating-buffers-per-gate': 0 },
      'taskmanager.network.memory.buffers-per-channel',
      'can never receive a record',
    ],
  ])('reject %s', (_what, config, key, message) => {
    const errors = findings({ ...INTERVAL, 'state.backend.type': 'rocksdb', ...config }).filter((f) => f.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ key });
    expect(errors[0]?.message).toContain(message);
  });

  it.each([
    ['no interval', {}, 'execution.checkpointing.interval', 'is not set'],
    ['an interval below 10 ms', { 'execution.checkpointing.interval': 5 }, 'execution.checkpointing.interval', 'below 10 ms'],
    [
      'an aligned-checkpoint timeout without unaligned checkpoints',
      { ...INTERVAL, 'execution.checkpointing.aligned-checkpoint-timeout': '1 s' },
      'execution.checkpointing.aligned-checkpoint-timeout',
      'no effect',
    ],
    ['incremental checkpoints on hashmap', { ...INTERVAL, 'execution.checkpointing.incremental': true }, 'execution.checkpointing.incremental', 'hashmap'],
    ['RocksDB options on hashmap', { ...INTERVAL, 'state.backend.rocksdb.thread.num': 4 }, 'state.backend.rocksdb.thread.num', 'no effect'],
    [
      'compression of incremental RocksDB checkpoints',
      { ...INTERVAL, 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true, 'execution.checkpointing.snapshot-compression': true },
      'execution.checkpointing.snapshot-compression',
      'already compressed',
    ],
    [
      'local recovery without a local backup',
      { ...INTERVAL, 'execution.state-recovery.from-local': true, 'execution.checkpointing.local-backup.enabled': false },
      'execution.state-recovery.from-local',
      'no local copy',
    ],
  ])('note %s', (_what, config, key, message) => {
    const notes = findings(config as Record<string, ConfigValue>);
    expect(notes.every((f) => f.severity === 'note')).toBe(true);
    expect(notes.find((f) => f.key === key)?.message).toContain(message);
  });

  it('checks the RocksDB ratio sum only when both ratios are set, as Flink does', () => {
    const errors = findings({ ...INTERVAL, 'state.backend.type': 'rocksdb', 'state.backend.rocksdb.memory.write-buffer-ratio': 0.95 });
    expect(errors).toEqual([]);
  });
});
