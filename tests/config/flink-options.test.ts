import { describe, expect, it } from 'vitest';
import type { FlinkConfig } from '../../engine/config/flink-config.ts';
import {
  currentKeysFor,
  DEPRECATED_KEYS,
  FLINK_OPTIONS,
  findOption,
  OPTION_GROUPS,
  readConfig,
} from '../../engine/config/flink-options.ts';
import { parseOptionValue } from '../../engine/config/option-value.ts';

describe('the Flink option registry', () => {
  it('has each key once', () => {
    const keys = FLINK_OPTIONS.map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(FLINK_OPTIONS.map((o) => [o.key, o] as const))('%s has a one-line description and a known group', (_key, option) => {
    expect(option.description).toMatch(/^\S.*\.$/);
    expect(option.description).not.toContain('\n');
    expect(OPTION_GROUPS).toContain(option.group);
  });

  it.each(FLINK_OPTIONS.filter((o) => o.default !== undefined).map((o) => [o.key, o] as const))(
    "%s's default is a valid value of its own type and range",
    (_key, option) => {
      expect(parseOptionValue(option, option.default)).toEqual({ ok: true, value: option.default });
    },
  );

  it.each(FLINK_OPTIONS.filter((o) => o.type === 'enum').map((o) => [o.key, o] as const))('%s lists its enum values', (_key, option) => {
    expect(option.values?.length).toBeGreaterThan(1);
  });

  it('keeps deprecated keys apart from current keys', () => {
    for (const key of DEPRECATED_KEYS) expect(findOption(key)).toBeUndefined();
  });

  it('has a group for every UI section', () => {
    expect(new Set(FLINK_OPTIONS.map((o) => o.group))).toEqual(new Set(OPTION_GROUPS));
  });
});

describe('deprecated keys map to their current keys', () => {
  it.each([
    ['state.checkpoints.num-retained', ['execution.checkpointing.num-retained']],
    ['execution.checkpointing.unaligned', ['execution.checkpointing.unaligned.enabled']],
    ['execution.checkpointing.alignment-timeout', ['execution.checkpointing.aligned-checkpoint-timeout']],
    ['state.backend.incremental', ['execution.checkpointing.incremental']],
    ['state.checkpoints.dir', ['execution.checkpointing.dir']],
    ['state.backend.fs.checkpointdir', ['execution.checkpointing.dir']],
    ['state.savepoints.dir', ['execution.checkpointing.savepoint-dir']],
    ['savepoints.state.backend.fs.dir', ['execution.checkpointing.savepoint-dir']],
    ['state.backend.local-recovery', ['execution.checkpointing.local-backup.enabled', 'execution.state-recovery.from-local']],
    ['state.backend', ['state.backend.type']],
    ['state.checkpoint-storage', ['execution.checkpointing.storage']],
    ['execution.savepoint-restore-mode', ['execution.state-recovery.claim-mode']],
    ['state.storage.fs.memory-threshold', ['execution.checkpointing.data-inline-threshold']],
    ['state.backend.fs.memory-threshold', ['execution.checkpointing.data-inline-threshold']],
    ['restart-strategy', ['restart-strategy.type']],
    ['execution.buffer-timeout', ['execution.buffer-timeout.interval']],
    ['execution.checkpointing.checkpoints-after-tasks-finish.enabled', ['execution.checkpointing.checkpoints-after-tasks-finish']],
  ])('%s → %j', (deprecated, current) => {
    expect(currentKeysFor(deprecated)).toEqual(current);
  });

  it('covers every deprecated key in the registry', () => {
    expect(DEPRECATED_KEYS).toHaveLength(17);
  });
});

/** Flink 2.x defaults, written out independently of the registry. */
const FLINK_DEFAULTS: FlinkConfig = {
  checkpointInterval: undefined,
  minPause: 0,
  maxConcurrentCheckpoints: 1,
  checkpointsAfterTasksFinish: true,
  checkpointingMode: 'EXACTLY_ONCE',
  unalignedEnabled: false,
  alignedCheckpointTimeout: 0,
  checkpointTimeout: 600_000,
  tolerableFailedCheckpoints: 0,
  heartbeatInterval: 10_000,
  heartbeatTimeout: 50_000,
  numRetained: 1,
  externalizedRetention: 'NO_EXTERNALIZED_CHECKPOINTS',
  checkpointStorage: undefined,
  checkpointDir: undefined,
  savepointDir: undefined,
  dataInlineThresholdBytes: 20 * 1024,
  claimMode: 'NO_CLAIM',
  checkpointsHistory: 10,
  stateBackend: 'hashmap',
  incremental: false,
  rocksdbTransferThreadNum: 4,
  rocksdbMemoryManaged: true,
  rocksdbFixedMemoryPerSlotBytes: undefined,
  rocksdbWriteBufferRatio: 0.5,
  rocksdbHighPriorityPoolRatio: 0.1,
  rocksdbWriteBufferSizeBytes: 64 * 1024 * 1024,
  rocksdbWriteBufferCount: 2,
  rocksdbThreadNum: 2,
  rocksdbFlushesTimed: false,
  rocksdbBlockCacheSizeBytes: 8 * 1024 * 1024,
  managedMemoryFraction: 0.4,
  managedMemorySizeBytes: undefined,
  timerServiceFactory: 'ROCKSDB',
  autoWatermarkInterval: 200,
  snapshotCompression: false,
  localBackupEnabled: false,
  localRecovery: false,
  restartStrategy: { type: 'none' },
  buffersPerChannel: 2,
  floatingBuffersPerGate: 8,
  segmentSizeBytes: 32 * 1024,
  bufferTimeout: 100,
  defaultParallelism: 1,
  maxParallelism: -1,
  numberOfTaskSlots: 1,
};

describe('readConfig', () => {
  it("fills every field with Flink's default when nothing is configured", () => {
    expect(readConfig({})).toEqual(FLINK_DEFAULTS);
  });

  it('reads parsed values as validateScenario leaves them', () => {
    const config = readConfig({
      'execution.checkpointing.interval': 10_000,
      'execution.checkpointing.mode': 'AT_LEAST_ONCE',
      'state.backend.type': 'rocksdb',
      'taskmanager.memory.segment-size': 4096,
      'pipeline.max-parallelism': 128,
    });
    expect(config).toMatchObject({
      checkpointInterval: 10_000,
      checkpointingMode: 'AT_LEAST_ONCE',
      stateBackend: 'rocksdb',
      segmentSizeBytes: 4096,
      maxParallelism: 128,
    });
  });

  it('also reads Flink text and deprecated keys typed by hand', () => {
    const config = readConfig({
      'execution.checkpointing.interval': '1 min',
      'state.checkpoints.num-retained': '3',
      'state.backend': 'RocksDB',
      'execution.checkpointing.unaligned': 'true',
    });
    expect(config).toMatchObject({ checkpointInterval: 60_000, numRetained: 3, stateBackend: 'rocksdb', unalignedEnabled: true });
  });

  it('lets the current key win over its deprecated key', () => {
    const config = readConfig({ 'execution.checkpointing.num-retained': 5, 'state.checkpoints.num-retained': 2 });
    expect(config.numRetained).toBe(5);
  });

  it.each([
    [5, undefined],
    [9, undefined],
    [0, undefined],
    [10, 10],
    [30_000, 30_000],
  ])('treats an interval of %d ms as %s (below 10 ms periodic checkpoints are off)', (interval, expected) => {
    expect(readConfig({ 'execution.checkpointing.interval': interval }).checkpointInterval).toBe(expected);
  });

  it('defaults the restart strategy to exponential-delay with Flink 1.19+ settings when checkpointing is on', () => {
    expect(readConfig({ 'execution.checkpointing.interval': '10 s' }).restartStrategy).toEqual({
      type: 'exponential-delay',
      initialBackoff: 1000,
      maxBackoff: 60_000,
      backoffMultiplier: 1.5,
      resetBackoffThreshold: 3_600_000,
      jitterFactor: 0.1,
      attemptsBeforeResetBackoff: 2_147_483_647,
    });
  });

  it('defaults the restart strategy to none when checkpointing is off', () => {
    expect(readConfig({}).restartStrategy).toEqual({ type: 'none' });
  });

  it('reads a fixed-delay restart strategy with its defaults', () => {
    expect(readConfig({ 'restart-strategy.type': 'fixed-delay' }).restartStrategy).toEqual({
      type: 'fixed-delay',
      attempts: 1,
      delay: 1000,
    });
  });

  it("reads Flink's aliases for restart strategies", () => {
    expect(readConfig({ 'restart-strategy.type': 'fixeddelay' }).restartStrategy.type).toBe('fixed-delay');
    expect(readConfig({ 'restart-strategy.type': 'off' }).restartStrategy.type).toBe('none');
  });

  it('falls back to execution.state-recovery.from-local for local backup, as Flink does', () => {
    const config = readConfig({ 'execution.state-recovery.from-local': true });
    expect(config).toMatchObject({ localRecovery: true, localBackupEnabled: true });
  });

  it('keeps an explicit local-backup setting over the fallback', () => {
    const config = readConfig({ 'execution.state-recovery.from-local': true, 'execution.checkpointing.local-backup.enabled': false });
    expect(config).toMatchObject({ localRecovery: true, localBackupEnabled: false });
  });

  it('turns the deprecated state.backend.local-recovery into both local recovery options', () => {
    expect(readConfig({ 'state.backend.local-recovery': true })).toMatchObject({ localRecovery: true, localBackupEnabled: true });
  });

  it('throws on an unknown key, which only a caller that skipped validation can pass', () => {
    expect(() => readConfig({ 'execution.checkpointing.intervall': 5 })).toThrow(/unknown Flink option/);
  });

  it('throws on a value Flink would reject', () => {
    expect(() => readConfig({ 'execution.checkpointing.timeout': 5 })).toThrow(/execution.checkpointing.timeout/);
  });
});
