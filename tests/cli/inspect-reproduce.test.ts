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
  'subtasks.json': JSON.stringify(subtasksResponse()),
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

  it('takes a subtasks response of the same job together with its /checkpoints: the async phase is compared too', () => {
    const r = inspect('flink-1.15.json', 'subtasks.json', '--reproduce', 'model.yaml', '--json');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const document = JSON.parse(r.stdout) as { comparison: { figure: string; imported: number | null; model: number | null }[] };
    expect(document.comparison.find((c) => c.figure === 'async-duration')).toMatchObject({ imported: 700 });
    expect(document.comparison.find((c) => c.figure === 'alignment-duration')).toMatchObject({ imported: 150 });
    expect(document.comparison.find((c) => c.figure === 'median-duration')).toMatchObject({ imported: 18 });
  });

  it('prints the table in Chinese with --lang zh-CN', () => {
    const r = inspect('flink-1.9.json', '--reproduce', 'model.yaml', '--lang', 'zh-CN');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^指标 +导入的作业 +模型 +模型 ÷ 导入$/m);
    expect(r.stdout).toMatch(/^端到端耗时（中位数） +4 ms +\d ms/m);
  });

  it('prints the scenario, its scale factors and the comparison rows with --json', () => {
    const r = inspect('flink-1.9.json', '--reproduce', 'model.yaml', '--json');
    const document = JSON.parse(r.stdout) as { scenario: { name: unknown }; stateScale: number; parallelismScale: number; comparison: { figure: string; imported: number | null; model: number | null; ratio: number | null }[] };
    // the scenario as its file writes it: a name in each language
    expect(document.scenario.name).toEqual({ en: 'Model of an imported Flink job', 'zh-CN': '导入的 Flink 作业的模型' });
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
    expect(readFileSync(out, 'utf8')).toMatch(/^name:\n  en: Model of an imported Flink job\n  zh-CN: 导入的 Flink 作业的模型$/m);
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

/** A 1.15 subtasks response (…/checkpoints/details/96/subtasks/:vertexid) of two subtasks. */
function subtasksResponse() {
  const stat = (min: number, max: number) => ({ min, max, avg: Math.floor((min + max) / 2), p50: min, p90: max, p95: max, p99: max, p999: max });
  const subtask = (index: number, async: number, alignment: number) => ({
    className: 'completed', index, status: 'completed', ack_timestamp: 1_653_212_837_621, end_to_end_duration: 17, checkpointed_size: 14_000, state_size: 14_000,
    checkpoint: { sync: 1, async }, alignment: { buffered: 0, processed: 0, persisted: 0, duration: alignment }, start_delay: 2, unaligned_checkpoint: false, aborted: false,
  });
  return {
    id: 96, status: 'COMPLETED', latest_ack_timestamp: 1_653_212_837_621, checkpointed_size: 28_000, state_size: 28_000, end_to_end_duration: 17,
    alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: 2, num_acknowledged_subtasks: 2,
    summary: {
      checkpointed_size: stat(14_000, 14_000), state_size: stat(14_000, 14_000), end_to_end_duration: stat(15, 17),
      checkpoint_duration: { sync: stat(1, 1), async: stat(40, 700) },
      alignment: { buffered: stat(0, 0), processed: stat(0, 0), persisted: stat(0, 0), duration: stat(5, 150) },
      start_delay: stat(2, 2),
    },
    subtasks: [subtask(0, 40, 5), subtask(1, 700, 150)],
  };
}
