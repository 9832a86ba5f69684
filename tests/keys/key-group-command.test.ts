import { describe, expect, it } from 'vitest';
import { keyGroupUsage, runKeyGroupCommand } from '../../engine/cli/key-group-command.ts';

function expectUsageError(args: string[], message: string): void {
  const result = runKeyGroupCommand(args);
  expect(result.exitCode).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(message);
  // One line, no stack trace.
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\bat .*:\d+:\d+/);
}

describe('runKeyGroupCommand output', () => {
  it('prints a header and an aligned table of key, hashCode, key group, subtask and range', () => {
    const result = runKeyGroupCommand(['key-0', 'key-1', 'key-2', '--max-parallelism', '128', '--parallelism', '4']);
    expect(result).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        'maxParallelism=128 parallelism=4',
        'key     hashCode  key group  subtask  key-group range',
        'key-0  101943362         31        0  [0, 31]',
        'key-1  101943363         54        1  [32, 63]',
        'key-2  101943364        126        3  [96, 127]',
        '',
      ].join('\n'),
    });
  });

  it('prints JSON with every key in argument order when --json is given', () => {
    const result = runKeyGroupCommand(['--json', 'key-2', 'key-0', '--parallelism=4']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      maxParallelism: 128,
      parallelism: 4,
      keys: [
        { key: 'key-2', hashCode: 101943364, keyGroup: 126, subtask: 3, keyGroupRange: { start: 96, end: 127 } },
        { key: 'key-0', hashCode: 101943362, keyGroup: 31, subtask: 0, keyGroupRange: { start: 0, end: 31 } },
      ],
    });
  });

  it('defaults to parallelism 1 and max parallelism 128', () => {
    const report = JSON.parse(runKeyGroupCommand(['key-0', '--json']).stdout);
    expect(report.parallelism).toBe(1);
    expect(report.maxParallelism).toBe(128);
    expect(report.keys[0].keyGroupRange).toEqual({ start: 0, end: 127 });
  });

  it("derives the default max parallelism from --parallelism as Flink does", () => {
    const report = JSON.parse(runKeyGroupCommand(['key-0', '--parallelism', '100', '--json']).stdout);
    expect(report.maxParallelism).toBe(256);
  });

  it('treats numeric-looking keys as strings', () => {
    const report = JSON.parse(runKeyGroupCommand(['42', '--json']).stdout);
    expect(report.keys[0].key).toBe('42');
    expect(report.keys[0].hashCode).toBe(1662);
  });

  it('treats arguments after -- as keys even when they look like flags', () => {
    const report = JSON.parse(runKeyGroupCommand(['--json', '--', '--parallelism', '-x']).stdout);
    expect(report.keys.map((k: { key: string }) => k.key)).toEqual(['--parallelism', '-x']);
    expect(report.parallelism).toBe(1);
  });

  it('quotes empty keys and keys with whitespace in the table', () => {
    const { stdout } = runKeyGroupCommand(['', 'a b']);
    expect(stdout).toContain('\n""  ');
    expect(stdout).toContain('\n"a b"  ');
  });

  it('prints the usage text on stdout for --help', () => {
    expect(runKeyGroupCommand(['--help'])).toEqual({ stdout: keyGroupUsage, stderr: '', exitCode: 0 });
    expect(keyGroupUsage).toContain('ckpt-lab key-group KEY...');
  });
});

describe('runKeyGroupCommand usage errors', () => {
  it('rejects a call without keys', () => {
    expectUsageError([], 'no KEY given');
    expectUsageError(['--parallelism', '4'], 'no KEY given');
  });

  it('rejects a parallelism of 0, naming the max parallelism as the bound', () => {
    expectUsageError(
      ['k', '--parallelism', '0', '--max-parallelism', '128'],
      '--parallelism must be an integer from 1 to 128 (the max parallelism), got 0',
    );
  });

  it('rejects a parallelism above the max parallelism', () => {
    expectUsageError(
      ['k', '--max-parallelism', '128', '--parallelism', '129'],
      '--parallelism must be an integer from 1 to 128 (the max parallelism), got 129',
    );
  });

  it('rejects a parallelism above 32768 when no max parallelism is given', () => {
    expectUsageError(['k', '--parallelism', '40000'], '--parallelism must be an integer from 1 to 32768, got 40000');
  });

  it('rejects a max parallelism outside [1, 32768]', () => {
    expectUsageError(['k', '--max-parallelism', '0'], '--max-parallelism must be an integer from 1 to 32768, got 0');
    expectUsageError(['k', '--max-parallelism=32769'], '--max-parallelism must be an integer from 1 to 32768, got 32769');
  });

  it('rejects values that are not integers', () => {
    expectUsageError(['k', '--parallelism', 'four'], '--parallelism must be an integer from 1 to 32768, got "four"');
    expectUsageError(['k', '--max-parallelism', '12.5'], '--max-parallelism must be an integer from 1 to 32768, got "12.5"');
    expectUsageError(['k', '--parallelism', ''], '--parallelism must be an integer from 1 to 32768, got ""');
  });

  it('rejects a value flag without a value', () => {
    expectUsageError(['k', '--parallelism'], '--parallelism needs a value');
  });

  it('rejects an unknown flag and lists the allowed ones', () => {
    expectUsageError(['k', '--parallel', '4'], 'unknown flag "--parallel"; allowed flags are --max-parallelism, --parallelism, --json, --help');
  });

  it('rejects a value on --json', () => {
    expectUsageError(['k', '--json=yes'], '--json takes no value');
  });

  it('rejects a flag given twice', () => {
    expectUsageError(['k', '--parallelism', '2', '--parallelism', '3'], '--parallelism was given more than once');
  });
});
