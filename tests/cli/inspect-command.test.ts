import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runInspectCommand } from '../../engine/cli/inspect-command.ts';

const sample = (name: string) => readFileSync(new URL(`../flink-samples/${name}`, import.meta.url), 'utf8');
const FLINK_115 = '01-checkpoints-flink-kubernetes-operator-flink115-history10.json';
const FLINK_191 = '08-checkpoints-soojae-study-flink191-38completed.json';

const subtasks = {
  id: 7, status: 'COMPLETED', latest_ack_timestamp: 1_000_900, state_size: 4096, end_to_end_duration: 900, alignment_buffered: 0,
  processed_data: 0, persisted_data: 0, num_subtasks: 3, num_acknowledged_subtasks: 2,
  summary: Object.fromEntries(['state_size', 'end_to_end_duration', 'start_delay'].map((k) => [k, { min: 1, max: 9, avg: 5 }])),
  subtasks: [
    { '@class': 'completed', index: 0, status: 'completed', ack_timestamp: 1_000_100, end_to_end_duration: 100, state_size: 2048, checkpoint: { sync: 3, async: 40 }, alignment: { buffered: 0, processed: 0, persisted: 0, duration: 5 }, start_delay: 50, unaligned_checkpoint: false },
    { '@class': 'completed', index: 1, status: 'completed', ack_timestamp: 1_000_900, end_to_end_duration: 900, state_size: 2048, checkpoint: { sync: 4, async: 700 }, alignment: { buffered: 0, processed: 0, persisted: 0, duration: 150 }, start_delay: 20, unaligned_checkpoint: false },
    { '@class': 'pending', index: 2, status: 'pending_or_failed' },
  ],
};
(subtasks.summary as Record<string, unknown>)['checkpoint_duration'] = { sync: { min: 3, max: 4, avg: 3 }, async: { min: 40, max: 700, avg: 370 } };
(subtasks.summary as Record<string, unknown>)['alignment'] = { buffered: { min: 0, max: 0, avg: 0 }, processed: { min: 0, max: 0, avg: 0 }, persisted: { min: 0, max: 0, avg: 0 }, duration: { min: 5, max: 150, avg: 77 } };

const files: Record<string, string> = {
  'flink-1.15.json': sample(FLINK_115),
  'flink-1.9.json': sample(FLINK_191),
  'subtasks.json': JSON.stringify(subtasks),
  'foreign.json': JSON.stringify({ jobs: [{ jid: 'a' }] }),
  'broken.json': sample(FLINK_115).replace('"status":"COMPLETED"', '"status":"DONE"'),
};
const read = (path: string) => (path in files ? { ok: true as const, text: files[path]! } : { ok: false as const, message: `cannot read Flink statistics file "${path}": no such file` });
const inspect = (...args: string[]) => runInspectCommand(args, read);

describe('ckpt-lab inspect', () => {
  it('exits 0 with a report of counts, summary and latest checkpoints, and the releases the shape fits', () => {
    const r = inspect('flink-1.15.json');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/flink-1\.15\.json: \/jobs\/:jobid\/checkpoints — Flink 1\.15 – 1\.16/);
    expect(r.stdout).toMatch(/checkpoints: 79 triggered, 0 in progress, 69 completed, 10 failed, 1 restored/);
    expect(r.stdout).toMatch(/end to end duration +14 ms +24 ms +117 ms +117 ms/);
    expect(r.stdout).toMatch(/latest restore: #27 \(savepoint\), file:\/flink-data\/savepoints\/savepoint-000000-5930e5326ca7/);
    expect(r.stdout).toMatch(/findings: none/);
  });

  it('lists the slowest subtasks first, and the pending ones, for a subtasks document', () => {
    const r = inspect('subtasks.json');
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.split('\n').filter((line) => /^ {2}#\d/.test(line));
    expect(rows.map((row) => row.trim().split(/\s+/)[0])).toEqual(['#1', '#0']);
    expect(rows[0]).toMatch(/#1 +900 ms +20 ms +150 ms +4 ms +700 ms/);
    expect(r.stdout).toMatch(/1 subtasks pending or failed/);
  });

  it('reports in Chinese with --lang zh-CN', () => {
    const r = inspect('flink-1.9.json', '--lang', 'zh-CN');
    expect(r.stdout).toMatch(/checkpoint：触发 38 个，进行中 0 个，完成 38 个，失败 0 个，恢复 0 次/);
    expect(r.stdout).toMatch(/Flink 1\.9 – 1\.11/);
  });

  it('prints one JSON document per file under --json: the current shape under run --json’s key, the endpoint, the versions, findings', () => {
    const doc = JSON.parse(inspect('flink-1.9.json', '--json').stdout);
    expect(Object.keys(doc)).toEqual(['file', 'endpoint', 'flinkVersions', 'checkpoints', 'findings']);
    expect(doc).toMatchObject({ endpoint: '/jobs/:jobid/checkpoints', flinkVersions: ['1.9', '1.10', '1.11'], findings: [] });
    expect(doc.checkpoints.history[0]).toMatchObject({ className: 'completed', checkpointed_size: 8077, savepointFormat: null });
    const both = JSON.parse(inspect('flink-1.9.json', 'subtasks.json', '--json').stdout);
    expect(both.map((d: { endpoint: string }) => d.endpoint)).toEqual(['/jobs/:jobid/checkpoints', '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid']);
    expect(both[1].checkpointSubtaskDetails[0]).toMatchObject({ checkpointId: 7, vertexId: null });
  });

  it.each([
    [['foreign.json'], /foreign\.json: cannot be read as Flink checkpoint statistics\n {2}`\$`: not a Flink checkpoint statistics document .*its keys are jobs/],
    [['broken.json'], /`\$\.latest\.completed\.status`: `DONE` is not a Flink checkpoint status \(IN_PROGRESS, COMPLETED, FAILED\)/],
    [['broken.json', '--lang', 'zh-CN'], /`\$\.latest\.completed\.status`: `DONE` 不是 Flink 的 checkpoint 状态/],
    [['missing.json'], /cannot read Flink statistics file "missing\.json": no such file/],
    [[], /missing FILE/],
    [['flink-1.9.json', '--lang', 'fr'], /--lang must be one of en, zh-CN, got "fr"/],
    [['flink-1.9.json', '--yaml'], /unknown option "--yaml" \(allowed: --json, --lang\)/],
  ])('exits 2 and says why for %j', (args, message) => {
    const r = inspect(...(args as string[]));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('still reports the files it can read when another cannot be, and exits 2', () => {
    const r = inspect('flink-1.9.json', 'foreign.json');
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toMatch(/checkpoints: 38 triggered/);
    expect(r.stderr).toMatch(/foreign\.json/);
  });
});

describe('the ckpt-lab inspect command', () => {
  const bin = JSON.parse(readFileSync('package.json', 'utf8')).bin['ckpt-lab'];

  it('reads a saved response through the package bin, exit 0', () => {
    const out = execFileSync(process.execPath, [bin, 'inspect', `tests/flink-samples/${FLINK_115}`, '--json'], { encoding: 'utf8' });
    expect(JSON.parse(out).checkpoints.counts.total).toBe(79);
  });

  it('exits 2 for a file that is not Flink statistics', () => {
    const r = spawnSync(process.execPath, [bin, 'inspect', 'package.json'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/package\.json: cannot be read as Flink checkpoint statistics/);
  });
});
