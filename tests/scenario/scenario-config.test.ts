import { describe, expect, it } from 'vitest';
import { currentKeysFor, DEPRECATED_KEYS, findOption } from '../../engine/config/flink-options.ts';
import type { ConfigValue } from '../../engine/scenario/scenario-types.ts';
import { formatScenarioErrors, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { type FileValue, minimalFile } from './scenario-samples.ts';

function withConfig(config: FileValue) {
  return validateScenario({ ...minimalFile(), config });
}

function parsedConfig(config: FileValue): { config: Record<string, ConfigValue>; notes: string[] } {
  const result = withConfig(config);
  if (!result.ok) throw new Error(formatScenarioErrors(result.errors));
  return { config: result.scenario.config, notes: result.notes };
}

/** A value of the right type for the option a deprecated key was replaced by. */
function sampleValue(key: string): FileValue {
  const option = findOption(currentKeysFor(key)[0]!)!;
  const samples: Record<string, FileValue> = {
    duration: '30 s',
    memory: '32kb',
    integer: 3,
    double: 0.5,
    boolean: true,
    string: 'file:///tmp/state',
  };
  return option.type === 'enum' ? option.values![option.values!.length - 1]! : samples[option.type]!;
}

describe('deprecated config keys are rewritten to their current keys with a note', () => {
  it.each(DEPRECATED_KEYS.map((key) => [key]))('%s', (key) => {
    const value = sampleValue(key);
    const { config, notes } = parsedConfig({ [key]: value });
    const current = currentKeysFor(key);
    expect(Object.keys(config).sort()).toEqual([...current].sort());
    expect(config).not.toHaveProperty([key]);
    expect(notes).toContain(`\`${key}\` is deprecated; use ${current.map((k) => `\`${k}\``).join(' and ')}`);
  });

  it('rewrites state.checkpoints.num-retained with the note Flink users expect', () => {
    const { config, notes } = parsedConfig({ 'state.checkpoints.num-retained': 3 });
    expect(config).toEqual({ 'execution.checkpointing.num-retained': 3 });
    expect(notes).toContain('`state.checkpoints.num-retained` is deprecated; use `execution.checkpointing.num-retained`');
  });

  it('splits state.backend.local-recovery into both local recovery options', () => {
    const { config } = parsedConfig({ 'state.backend.local-recovery': true });
    expect(config).toEqual({ 'execution.state-recovery.from-local': true, 'execution.checkpointing.local-backup.enabled': true });
  });

  it('accepts a deprecated key next to its current key when both say the same', () => {
    const { config } = parsedConfig({ 'state.backend.incremental': true, 'execution.checkpointing.incremental': 'true' });
    expect(config).toEqual({ 'execution.checkpointing.incremental': true });
  });

  it('rejects a deprecated key and its current key set to different values', () => {
    const result = withConfig({ 'state.checkpoints.num-retained': 2, 'execution.checkpointing.num-retained': 5 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors[0]).toMatchObject({ path: 'config."execution.checkpointing.num-retained"' });
      expect(result.errors[0]?.message).toContain('`state.checkpoints.num-retained` already sets it to 2');
    }
  });
});

describe('config values', () => {
  it('are parsed: durations to ms, memory sizes to bytes, enums as Flink prints them', () => {
    const { config } = parsedConfig({
      'execution.checkpointing.interval': '10 s',
      'execution.checkpointing.timeout': 60_000,
      'taskmanager.memory.segment-size': '64 kb',
      'execution.checkpointing.mode': 'at_least_once',
      'state.backend.type': 'RocksDB',
      'execution.checkpointing.max-concurrent-checkpoints': '2',
      'execution.checkpointing.unaligned.enabled': 'false',
    });
    expect(config).toEqual({
      'execution.checkpointing.interval': 10_000,
      'execution.checkpointing.timeout': 60_000,
      'taskmanager.memory.segment-size': 65_536,
      'execution.checkpointing.mode': 'AT_LEAST_ONCE',
      'state.backend.type': 'rocksdb',
      'execution.checkpointing.max-concurrent-checkpoints': 2,
      'execution.checkpointing.unaligned.enabled': false,
    });
  });

  it("may be nested at the dots, as in Flink's config.yaml", () => {
    const { config } = parsedConfig({
      execution: { checkpointing: { interval: '1 min', 'min-pause': '5 s' } },
      'state.backend': { type: 'rocksdb' },
    });
    expect(config).toEqual({
      'execution.checkpointing.interval': 60_000,
      'execution.checkpointing.min-pause': 5000,
      'state.backend.type': 'rocksdb',
    });
  });

  it('reject the same key set flat and nested', () => {
    const result = withConfig({ 'execution.checkpointing.interval': '1 s', execution: { checkpointing: { interval: '2 s' } } });
    expect(result.ok ? [] : result.errors).toContainEqual(
      expect.objectContaining({ path: 'config."execution.checkpointing.interval"', message: expect.stringContaining('set twice') }),
    );
  });

  it('report a nested misspelling under its dotted key, with the nearest key', () => {
    const result = withConfig({ execution: { checkpointing: { intervall: '1 s' } } });
    expect(result.ok ? undefined : result.errors[0]).toMatchObject({
      path: 'config."execution.checkpointing.intervall"',
      suggestion: 'execution.checkpointing.interval',
    });
  });

  it('suggest the current key for a misspelt deprecated key', () => {
    const result = withConfig({ 'state.checkpoints.num-retainde': 2 });
    expect(result.ok ? undefined : result.errors[0]?.suggestion).toBe('execution.checkpointing.num-retained');
  });

  it('reject an option the playground does not model', () => {
    const result = withConfig({ 'jobmanager.rpc.address': 'localhost' });
    expect(result.ok ? undefined : result.errors[0]).toMatchObject({
      path: 'config."jobmanager.rpc.address"',
      message: expect.stringContaining('unknown Flink option'),
    });
  });

  it('reject a key with no value', () => {
    const result = withConfig({ 'execution.checkpointing.interval': null });
    expect(result.ok ? undefined : result.errors[0]?.message).toBe('no value given');
  });

  it('note that periodic checkpoints are off when no interval is set', () => {
    expect(parsedConfig({}).notes).toContain(
      '`execution.checkpointing.interval`: periodic checkpoints are off because execution.checkpointing.interval is not set',
    );
  });
});
