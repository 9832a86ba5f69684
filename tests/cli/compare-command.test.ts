/**
 * `ckpt-lab compare` on the CLI tests' tiny keyed count (one task failure, checkpoints every
 * 100 ms): both sides really run in the sim, the difference the variation makes is said in words
 * (en and zh-CN), and bad input exits 2 with a message naming what is allowed, running nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runCompareCommand } from '../../engine/cli/compare-command.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { tiny } from './tiny-scenario.ts';

const files: Record<string, string> = {
  'tiny.yaml': tiny('  - { type: job-status, status: FINISHED }\n'),
};
files['no-checkpoints.yaml'] = files['tiny.yaml']!.replace(/ {2}execution\.checkpointing\.interval: .*\n/, '');
files['typo.yaml'] = files['tiny.yaml']!.replace('execution.checkpointing.interval', 'execution.checkpointing.intervall');

const read = (path: string) => (path in files ? { ok: true as const, text: files[path]! } : { ok: false as const, message: `cannot read scenario file "${path}": no such file` });

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});
const compare = (...args: string[]) => runCompareCommand(args, read, lsmStorage);

describe('ckpt-lab compare', () => {
  it('says in words that only the local-recovery side restores subtasks from their local copy, and exits 0', () => {
    const r = compare('tiny.yaml', '--variation', 'local-recovery');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/variation local-recovery: Task-local recovery off vs on/);
    expect(r.stdout).toMatch(/a \(local recovery off\): execution\.checkpointing\.local-backup\.enabled: false, execution\.state-recovery\.from-local: false/);
    expect(r.stdout).toMatch(/^ {2}Subtasks restored from their local copy: 0 \(local recovery off\) vs 2 \(local recovery on\)$/m);
  });

  it('prints the differences in Chinese under --lang zh-CN', () => {
    const r = compare('tiny.yaml', '--variation', 'local-recovery', '--lang', 'zh-CN');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/关闭与开启任务本地恢复/);
    expect(r.stdout).toMatch(/从本地副本恢复的子任务数：0（关闭本地恢复）对比 2（开启本地恢复）/);
  });

  it('prints one JSON document shaped like the Playground API comparison under --json', () => {
    const r = compare('tiny.yaml', '--variation', 'local-recovery', '--json');
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      variation: string;
      time: number;
      a: { name: string; options: Record<string, unknown>; figures: Record<string, number | null> };
      b: { name: string; options: Record<string, unknown>; figures: Record<string, number | null> };
      differences: { code: string; a: number; b: number; text: string }[];
    };
    expect(doc.variation).toBe('local-recovery');
    expect(doc.time).toBeGreaterThan(0);
    expect(doc.b.options).toEqual({ 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true });
    expect([doc.a.figures['restored-from-local'], doc.b.figures['restored-from-local']]).toEqual([0, 2]);
    // nothing measured is null, not NaN (JSON has none)
    expect(doc.a.figures['persisted-data-p50']).not.toBeNaN();
    const local = doc.differences.find((d) => d.code === 'restored-from-local');
    expect(local).toMatchObject({ a: 0, b: 2, text: 'Subtasks restored from their local copy: 0 (local recovery off) vs 2 (local recovery on)' });
  });

  it('runs the time --until gives instead of the scenario run length', () => {
    const r = compare('tiny.yaml', '--variation', 'min-pause', '--until', '200 ms', '--json');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ time: 200, a: { time: 200 }, b: { time: 200 } });
  });

  it('exits 2 naming the allowed variations when --variation is missing or unknown', () => {
    for (const args of [['tiny.yaml'], ['tiny.yaml', '--variation', 'fast-vs-slow']]) {
      const r = compare(...args);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/full-vs-incremental, aligned-vs-unaligned, local-recovery, min-pause, heap-vs-rocksdb-timers/);
    }
  });

  it('exits 2 and runs nothing for a scenario without periodic checkpoints, naming the option', () => {
    const r = compare('no-checkpoints.yaml', '--variation', 'min-pause');
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/cannot be compared that way; nothing was run\.\nconfig\.execution\.checkpointing\.interval: not set/);
  });

  it('exits 2 with the validator message for an invalid scenario, and for a file it cannot read', () => {
    const typo = compare('typo.yaml', '--variation', 'min-pause');
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toMatch(/typo\.yaml is not a valid scenario; nothing was run\.[\s\S]*execution\.checkpointing\.interval/);
    const missing = compare('missing.yaml', '--variation', 'min-pause');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot read scenario file "missing\.yaml": no such file/);
  });

  it('exits 2 for a bad --until or --lang, and 0 with the usage for --help', () => {
    expect(compare('tiny.yaml', '--variation', 'min-pause', '--until', 'soon').stderr).toMatch(/--until must be a duration such as "500 ms"/);
    expect(compare('tiny.yaml', '--variation', 'min-pause', '--lang', 'fr').exitCode).toBe(2);
    const help = compare('--help');
    expect([help.exitCode, help.stdout.startsWith('Usage: ckpt-lab compare SCENARIO --variation NAME')]).toEqual([0, true]);
  });
});
