import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runInspectCommand } from '../../engine/cli/inspect-command.ts';
import { runRunCommand } from '../../engine/cli/run-command.ts';

/** A saved subtasks response where subtask 1 takes nine times as long as subtask 0. */
const completed = (index: number, endToEnd: number) => ({
  className: 'completed', index, status: 'completed', ack_timestamp: 1_000_000 + endToEnd, end_to_end_duration: endToEnd,
  checkpointed_size: 2048, state_size: 2048, checkpoint: { sync: 3, async: endToEnd - 60 },
  alignment: { buffered: 0, processed: 0, persisted: 0, duration: 5 }, start_delay: 50, unaligned_checkpoint: false, aborted: false,
});
const summary = { min: 100, max: 900, avg: 500 };
const skewed = {
  className: 'completed', id: 7, status: 'COMPLETED', latest_ack_timestamp: 1_000_900, checkpointed_size: 4096, state_size: 4096,
  end_to_end_duration: 900, alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: 2, num_acknowledged_subtasks: 2,
  summary: {
    checkpointed_size: summary, state_size: summary, end_to_end_duration: summary, checkpoint_duration: { sync: summary, async: summary },
    alignment: { buffered: summary, processed: summary, persisted: summary, duration: summary }, start_delay: summary,
  },
  subtasks: [completed(0, 100), completed(1, 900)],
};

const files: Record<string, string> = {
  'skewed.json': JSON.stringify(skewed),
  'always.yaml': readFileSync('public/scenarios/always-checkpointing.yaml', 'utf8'),
};
const read = (path: string) => (path in files ? { ok: true as const, text: files[path]! } : { ok: false as const, message: `no such file ${path}` });

describe('the checkpoint doctor in ckpt-lab', () => {
  it.each([
    [[], /findings:\n {2}- Subtask #1 of the vertex took 900 ms in checkpoint #7, the others 100 ms .*ckpt-lab key-group KEY\.\.\. --parallelism 2/],
    [['--lang', 'zh-CN'], /诊断结果：\n {2}- 在 checkpoint #7 中，该顶点 的子任务 #1 耗时 900 ms，其余子任务为 100 ms/],
  ])('inspect prints each finding and its lesson (%j)', (args, finding) => {
    const r = runInspectCommand(['skewed.json', ...args], read);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(finding);
    expect(r.stdout).toMatch(/(lesson: |课程：)parallelism-and-checkpoint-duration \(\?lesson=parallelism-and-checkpoint-duration\)/);
  });

  it('inspect --json gives each finding as its code, its figures and its lesson', () => {
    const doc = JSON.parse(runInspectCommand(['skewed.json', '--json'], read).stdout);
    expect(doc.findings).toEqual([
      { code: 'subtask-skew', lesson: 'parallelism-and-checkpoint-duration', params: { vertex: '?', checkpointId: 7, subtask: 1, slowMs: 900, othersMs: 100, parallelism: 2 } },
    ]);
  });

  it('run prints the findings after the summary, and --json has them under findings', () => {
    const text = runRunCommand(['always.yaml', '--until', '12 s'], read);
    expect(text.stdout).toMatch(/\nfindings:\n {2}- Checkpoints take 1\.2 s .*always checkpointing/);
    const doc = JSON.parse(runRunCommand(['always.yaml', '--until', '12 s', '--json'], read).stdout);
    expect(doc.findings.map((f: { code: string }) => f.code)).toContain('always-checkpointing');
  });
});
