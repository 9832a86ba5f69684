import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runExportCommand } from '../../engine/cli/export-command.ts';
import { FLINK_EXPORT_FORMATS } from '../../engine/export/flink-export.ts';

const files: Record<string, string> = {
  'word-count.yaml': readFileSync('public/scenarios/word-count.yaml', 'utf8'),
  'bad.yaml': 'version: 1\nname: Bad\njob: { vertices: [] }\nconfig: { execution.checkpointing.intervall: 1 s }\n',
};
const readFile = (path: string) =>
  files[path] === undefined ? { ok: false as const, message: `cannot read scenario file "${path}": no such file` } : { ok: true as const, text: files[path]! };

describe('ckpt-lab export', () => {
  it('prints the Flink 2.x config.yaml by default', () => {
    const result = runExportCommand(['word-count.yaml'], readFile);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('execution.checkpointing.interval: 1 s');
  });

  it.each(FLINK_EXPORT_FORMATS.map((f) => [f]))('prints --format %s', (format) => {
    const result = runExportCommand(['word-count.yaml', '--format', format], readFile);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("of the scenario \"Word count\"");
  });

  it.each([
    [['word-count.yaml', '--format', 'xml'], 'unknown --format "xml" (allowed: config-yaml, config-yaml-1x, java, sql-set, sql-job)'],
    [['word-count.yaml', '--format'], '--format needs a value'],
    [[], 'missing SCENARIO'],
    [['word-count.yaml', '--json'], 'unknown option "--json"'],
    [['nope.yaml'], 'cannot read scenario file "nope.yaml": no such file'],
    [['bad.yaml'], 'bad.yaml is not a valid scenario; nothing was exported'],
  ])('exits 2 with a message naming what is wrong: %j', (args, message) => {
    const result = runExportCommand(args, readFile);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the misspelt option of an invalid scenario and its nearest key', () => {
    expect(runExportCommand(['bad.yaml'], readFile).stderr).toContain('execution.checkpointing.interval');
  });
});

describe('ckpt-lab export from the command line', () => {
  it('runs through the package bin and prints the SET statements', async () => {
    const { execFileSync } = await import('node:child_process');
    const bin = JSON.parse(readFileSync('package.json', 'utf8')).bin['ckpt-lab'];
    const stdout = execFileSync(process.execPath, [bin, 'export', 'public/scenarios/word-count.yaml', '--format', 'sql-set'], { encoding: 'utf8' });
    expect(stdout).toContain("SET 'execution.checkpointing.interval' = '1 s';");
  });
});
