import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInspectCommand } from '../../engine/cli/inspect-command.ts';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';

const sample = (name: string) => readFileSync(new URL(`../flink-samples/${name}`, import.meta.url), 'utf8');
const FLINK_115 = '01-checkpoints-flink-kubernetes-operator-flink115-history10.json';
const FLINK_191 = '08-checkpoints-soojae-study-flink191-38completed.json';

const empty = {
  counts: { restored: 0, total: 0, in_progress: 0, completed: 0, failed: 0 },
  summary: { state_size: { min: 0, max: 0, avg: 0 }, end_to_end_duration: { min: 0, max: 0, avg: 0 }, alignment_buffered: { min: 0, max: 0, avg: 0 } },
  latest: { completed: null, savepoint: null, failed: null, restored: null },
  history: [],
};
const files: Record<string, string> = {
  'flink-1.15.json': sample(FLINK_115),
  'flink-1.9.json': sample(FLINK_191),
  'no-checkpoints.json': JSON.stringify(empty),
  'broken.json': sample(FLINK_115).replace('"status":"COMPLETED"', '"status":"DONE"'),
};
const read = (path: string) => (path in files ? { ok: true as const, text: files[path]! } : { ok: false as const, message: `cannot read Flink statistics file "${path}": no such file` });
const inspect = (...args: string[]) => runInspectCommand(args, read);

describe('ckpt-lab inspect --reproduce', () => {
  it('writes a valid scenario as YAML and prints imported, model and model ÷ imported per figure', () => {
    const r = inspect('flink-1.15.json', '--reproduce', 'model.yaml');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.writes).toHaveLength(1);
    expect(r.writes![0]!.path).toBe('model.yaml');
    const parsed = parseScenarioText(r.writes![0]!.text, 'yaml');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(validateScenario(parsed.value).ok).toBe(true);
    expect(r.stdout).toMatch(/^figure +imported +model +model ÷ imported$/m);
    expect(r.stdout).toMatch(/^end-to-end duration, median +18 ms +\d+ ms +×(0\.[5-9]\d|1\.\d\d|2\.00)$/m);
    expect(r.stdout).toMatch(/^checkpointed data size, median +27\.6 KiB +\d+\.\d KiB +×(0\.[5-9]\d|1\.\d\d|2\.00)$/m);
    expect(r.stdout).toMatch(/^failed checkpoints, share of triggered +12\.7% +0% +×0\.00$/m);
    expect(r.stdout).toMatch(/^async duration, median +— +\d+ ms +—$/m);
  });

  it('prints the table in Chinese with --lang zh-CN', () => {
    const r = inspect('flink-1.9.json', '--reproduce', 'model.yaml', '--lang', 'zh-CN');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^指标 +导入的作业 +模型 +模型 ÷ 导入$/m);
    expect(r.stdout).toMatch(/^端到端耗时（中位数） +4 ms +\d ms/m);
  });

  it('prints the scenario, its scale factors and the comparison rows with --json', () => {
    const r = inspect('flink-1.9.json', '--reproduce', 'model.yaml', '--json');
    const document = JSON.parse(r.stdout) as { scenario: { name: string }; stateScale: number; parallelismScale: number; comparison: { figure: string; imported: number | null; model: number | null; ratio: number | null }[] };
    expect(document.scenario.name).toBe('Model of an imported Flink job');
    expect(document.stateScale).toBe(1);
    expect(document.parallelismScale).toBe(1);
    expect(document.comparison.find((c) => c.figure === 'median-duration')).toMatchObject({ imported: 4 });
  });

  it('exits 2 naming the missing field when no checkpoint completed, and writes nothing', () => {
    const r = inspect('no-checkpoints.json', '--reproduce', 'model.yaml');
    expect(r.exitCode).toBe(2);
    expect(r.writes ?? []).toEqual([]);
    expect(r.stderr).toMatch(/ckpt-lab inspect --reproduce: no-checkpoints\.json: `\$\.history`: the statistics hold no completed checkpoint/);
  });

  it('exits 2 with the importer’s message for a file it cannot read, and writes nothing', () => {
    const r = inspect('broken.json', '--reproduce', 'model.yaml');
    expect(r.exitCode).toBe(2);
    expect(r.writes ?? []).toEqual([]);
    expect(r.stderr).toMatch(/broken\.json: `\$\.latest\.completed\.status`: `DONE` is not a Flink checkpoint status/);
  });

  it('exits 2 when --reproduce has no file name', () => {
    const r = inspect('flink-1.9.json', '--reproduce');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--reproduce needs a file name/);
  });

  it('writes the file from the command line, and ckpt-lab run runs it', () => {
    const bin = new URL('../../engine/cli/ckpt-lab.mjs', import.meta.url).pathname;
    const out = join(mkdtempSync(join(tmpdir(), 'reproduce-')), 'model.yaml');
    const made = spawnSync(process.execPath, [bin, 'inspect', `tests/flink-samples/${FLINK_191}`, '--reproduce', out], { encoding: 'utf8' });
    expect(made.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^name: Model of an imported Flink job$/m);
    const ran = spawnSync(process.execPath, [bin, 'run', out], { encoding: 'utf8' });
    expect(ran.status).toBe(0);
    const [, triggered, completed] = /checkpoints: (\d+) triggered, (\d+) completed, 0 failed/.exec(ran.stdout) ?? [];
    expect(Number(completed)).toBeGreaterThanOrEqual(12);
    expect(completed).toBe(triggered);
  }, 60_000);

  it('exits 2 when the scenario cannot be written', () => {
    const bin = new URL('../../engine/cli/ckpt-lab.mjs', import.meta.url).pathname;
    const made = spawnSync(process.execPath, [bin, 'inspect', `tests/flink-samples/${FLINK_191}`, '--reproduce', '/nonexistent-dir/model.yaml'], { encoding: 'utf8' });
    expect(made.status).toBe(2);
    expect(made.stderr).toMatch(/cannot write "\/nonexistent-dir\/model\.yaml": no such directory/);
  }, 60_000);
});
