import { describe, expect, it } from 'vitest';
import { exportToFlink } from '../../engine/export/flink-export.ts';
import type { ConfigValue, Scenario } from '../../engine/scenario/scenario-types.ts';
import { shippedScenarios } from './shipped-scenarios.ts';

const BASE = shippedScenarios().find((s) => s.file.endsWith('word-count.yaml'))!.scenario;
const withConfig = (config: Record<string, ConfigValue>): Scenario => ({ ...BASE, config });

describe('the Java snippet', () => {
  it.each([
    [{ 'execution.checkpointing.interval': 1000, 'execution.checkpointing.mode': 'AT_LEAST_ONCE' }, 'env.enableCheckpointing(1000L, CheckpointingMode.AT_LEAST_ONCE);'],
    [{ 'execution.checkpointing.min-pause': 2000 }, 'checkpoints.setMinPauseBetweenCheckpoints(2000L);'],
    [{ 'execution.checkpointing.timeout': 60000 }, 'checkpoints.setCheckpointTimeout(60000L);'],
    [{ 'execution.checkpointing.tolerable-failed-checkpoints': 3 }, 'checkpoints.setTolerableCheckpointFailureNumber(3);'],
    [{ 'execution.checkpointing.unaligned.enabled': true }, 'checkpoints.enableUnalignedCheckpoints(true);'],
    [{ 'execution.checkpointing.aligned-checkpoint-timeout': 500 }, 'checkpoints.setAlignedCheckpointTimeout(Duration.ofMillis(500L));'],
    [{ 'execution.checkpointing.externalized-checkpoint-retention': 'RETAIN_ON_CANCELLATION' }, 'ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION'],
    [{ 'pipeline.max-parallelism': 128 }, 'env.setMaxParallelism(128);'],
    [{ 'state.backend.type': 'rocksdb' }, 'Map.entry("state.backend.type", "rocksdb")'],
    [{ 'execution.checkpointing.mode': 'AT_LEAST_ONCE' }, 'Map.entry("execution.checkpointing.mode", "AT_LEAST_ONCE")'],
    [{ 'state.backend.rocksdb.writebuffer.size': 65536 }, 'Map.entry("state.backend.rocksdb.writebuffer.size", "64 kb")'],
  ])('sets %j with %s', (config, line) => {
    expect(exportToFlink(withConfig(config), 'java')).toContain(line);
  });

  it('imports exactly the classes it names', () => {
    const java = exportToFlink(withConfig({ 'execution.checkpointing.interval': 1000 }), 'java');
    expect(java).not.toContain('import java.time.Duration;');
    expect(java).toContain('import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;');
  });
});

describe('flink-conf.yaml for Flink 1.x', () => {
  it('writes state.backend.local-recovery once for both local-recovery options', () => {
    const text = exportToFlink(withConfig({ 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true }), 'config-yaml-1x');
    expect(text.match(/^state\.backend\.local-recovery: true$/gm)).toHaveLength(1);
    expect(text).not.toContain('Not expressible');
  });

  it('says when a local backup without local recovery cannot be expressed in 1.x', () => {
    const text = exportToFlink(withConfig({ 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': false }), 'config-yaml-1x');
    expect(text).toContain('# Not expressible in 1.x');
    expect(text).toContain('state.backend.local-recovery: false');
  });

  it('writes values in Flink syntax, unquoted', () => {
    const text = exportToFlink(withConfig({ 'execution.checkpointing.interval': 90000, 'state.backend.rocksdb.writebuffer.size': 65536 }), 'config-yaml-1x');
    expect(text).toContain('execution.checkpointing.interval: 90 s');
    expect(text).toContain('state.backend.rocksdb.writebuffer.size: 64 kb');
  });
});

describe('SQL SET statements', () => {
  it('quotes keys and values as SQL strings', () => {
    const text = exportToFlink(withConfig({ 'execution.checkpointing.dir': "s3://bucket/it's" }), 'sql-set');
    expect(text).toContain("SET 'execution.checkpointing.dir' = 's3://bucket/it''s';");
  });
});

describe('config.yaml for Flink 2.x', () => {
  it('writes only comments for a scenario that sets no option', () => {
    const text = exportToFlink(withConfig({}), 'config-yaml');
    expect(text.split('\n').filter((l) => l !== '' && !l.startsWith('#'))).toEqual([]);
  });
});
