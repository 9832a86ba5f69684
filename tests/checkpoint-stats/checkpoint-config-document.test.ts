import { describe, expect, it } from 'vitest';
import { readConfig } from '../../engine/config/flink-options.ts';
import { checkpointConfigDocument } from '../../engine/checkpoint/stats/checkpoint-stats-tracker.ts';
import { LONG_MAX_VALUE } from '../../engine/checkpoint/stats/checkpoint-config-document.ts';

describe('GET /jobs/:jobid/checkpoints/config', () => {
  it('renders a checkpointing job as Flink does, in CheckpointConfigInfo order', () => {
    const config = readConfig({
      'execution.checkpointing.interval': '3 s',
      'execution.checkpointing.timeout': '20 s',
      'execution.checkpointing.min-pause': '1 s',
      'execution.checkpointing.unaligned.enabled': true,
      'execution.checkpointing.aligned-checkpoint-timeout': '500 ms',
      'execution.checkpointing.tolerable-failed-checkpoints': 2,
      'execution.checkpointing.externalized-checkpoint-retention': 'RETAIN_ON_CANCELLATION',
      'execution.checkpointing.dir': 'file:///tmp/checkpoints',
    });
    expect(JSON.stringify(checkpointConfigDocument(config))).toBe(
      JSON.stringify({
        mode: 'exactly_once',
        interval: 3_000,
        timeout: 20_000,
        min_pause: 1_000,
        max_concurrent: 1,
        externalization: { enabled: true, delete_on_cancellation: false },
        state_backend: 'HashMapStateBackend',
        checkpoint_storage: 'FileSystemCheckpointStorage',
        unaligned_checkpoints: true,
        tolerable_failed_checkpoints: 2,
        aligned_checkpoint_timeout: 500,
        checkpoints_after_tasks_finish: true,
        state_changelog_enabled: false,
        changelog_periodic_materialization_interval: 600_000,
        changelog_storage: 'memory',
      }),
    );
  });

  it('reports Long.MAX_VALUE as the interval when periodic checkpoints are off, as JSON.parse reads it', () => {
    const document = checkpointConfigDocument(readConfig({}));
    expect(document.interval).toBe(LONG_MAX_VALUE);
    expect(JSON.parse('9223372036854775807')).toBe(LONG_MAX_VALUE);
    // Flink's dashboard tests `interval == '0x7fffffffffffffff'` to print "Periodic checkpoints disabled".
    expect(Number('0x7fffffffffffffff')).toBe(document.interval);
  });

  it('names the storage after the checkpoint directory when none is chosen', () => {
    expect(checkpointConfigDocument(readConfig({})).checkpoint_storage).toBe('JobManagerCheckpointStorage');
    expect(checkpointConfigDocument(readConfig({ 'execution.checkpointing.dir': 'file:///tmp/c' })).checkpoint_storage).toBe(
      'FileSystemCheckpointStorage',
    );
    const chosen = readConfig({ 'execution.checkpointing.dir': 'file:///tmp/c', 'execution.checkpointing.storage': 'jobmanager' });
    expect(checkpointConfigDocument(chosen).checkpoint_storage).toBe('JobManagerCheckpointStorage');
  });

  it('names the state backend by its class', () => {
    expect(checkpointConfigDocument(readConfig({ 'state.backend.type': 'rocksdb' })).state_backend).toBe('EmbeddedRocksDBStateBackend');
    expect(checkpointConfigDocument(readConfig({ 'state.backend.type': 'hashmap' })).state_backend).toBe('HashMapStateBackend');
  });

  it('writes the mode in lower case', () => {
    expect(checkpointConfigDocument(readConfig({ 'execution.checkpointing.mode': 'AT_LEAST_ONCE' })).mode).toBe('at_least_once');
  });

  it.each([
    ['NO_EXTERNALIZED_CHECKPOINTS', { enabled: false, delete_on_cancellation: true }],
    ['DELETE_ON_CANCELLATION', { enabled: true, delete_on_cancellation: true }],
    ['RETAIN_ON_CANCELLATION', { enabled: true, delete_on_cancellation: false }],
  ])('maps retention %s to its externalization flags', (retention, expected) => {
    const config = readConfig({ 'execution.checkpointing.externalized-checkpoint-retention': retention });
    expect(checkpointConfigDocument(config).externalization).toEqual(expected);
  });
});
