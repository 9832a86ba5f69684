/**
 * `--lang zh-CN` on `ckpt-lab run` and `check`: the validator's errors and notes come in Chinese,
 * rendered from the same message codes the page renders; without it they stay English, word for
 * word as before.
 */
import { describe, expect, it } from 'vitest';
import { runCheckCommand } from '../../engine/cli/check-command.ts';
import { runRunCommand } from '../../engine/cli/run-command.ts';
import type { ReadFile } from '../../engine/cli/command-result.ts';
import { tiny } from './tiny-scenario.ts';

/** A source and a sink joined by `edge`, with one line of `config`. */
const scenario = (name: string, edge: string, config: string) => `
version: 1
name: ${name}
job:
  vertices:
    - { id: src, type: source, source: { kind: sequence, keys: 4, rate_per_s: 10, count: 5 } }
    - { id: sink, type: sink }
  edges:
    - ${edge}
config:
  ${config}
`;

/** A misspelt sink id and a misspelt option key. */
const INVALID = scenario('Broken', '{ from: src, to: snk }', 'execution.checkpointing.intervall: 10 s');

/** Valid, with a note: the aligned-checkpoint timeout does nothing while checkpoints are aligned. */
const NOTED = scenario('Noted', '{ from: src, to: sink }', 'execution.checkpointing.aligned-checkpoint-timeout: 1 s');

/** Valid, named in English and Chinese. */
const BILINGUAL = NOTED.replace('name: Noted', 'name: { en: Counted twice, zh-CN: 数了两次 }');

const files: Record<string, string> = { 'broken.yaml': INVALID, 'noted.yaml': NOTED, 'bilingual.yaml': BILINGUAL, 'tiny.yaml': tiny('') };
const readFile: ReadFile = (path) => (path in files ? { ok: true, text: files[path]! } : { ok: false, message: `${path}: no such file` });

describe('ckpt-lab run and check --lang', () => {
  it('prints the validator errors of run in Chinese with --lang zh-CN, paths and suggestions as written', () => {
    const result = runRunCommand(['broken.yaml', '--lang', 'zh-CN'], readFile);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('job.edges[0].to: 没有 id 为 "snk" 的顶点（允许：src, sink）');
    expect(result.stderr).toContain('config."execution.checkpointing.intervall": 未知的 Flink 配置项');
    expect(result.stderr).toContain('是不是想写 "execution.checkpointing.interval"');
  });

  it('keeps the English text without --lang', () => {
    const result = runRunCommand(['broken.yaml'], readFile);
    expect(result.stderr).toContain('job.edges[0].to: no vertex has the id "snk" (allowed: src, sink)');
    expect(result.stderr).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('prints check errors and notes in Chinese with --lang zh-CN', () => {
    const result = runCheckCommand(['broken.yaml', 'noted.yaml', '--lang', 'zh-CN'], readFile);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('没有 id 为 "snk" 的顶点');
    expect(result.stderr).toContain('note: noted.yaml: `execution.checkpointing.aligned-checkpoint-timeout`：除非 execution.checkpointing.unaligned.enabled 为 true，否则不起作用');
  });

  it("names the scenario in run's summary in the --lang language its file gives, English without --lang", () => {
    const chinese = runRunCommand(['bilingual.yaml', '--lang', 'zh-CN'], readFile);
    expect(chinese.exitCode).toBe(0);
    expect(chinese.stdout.split('\n')[0]).toMatch(/^数了两次 — seed 1/);
    const english = runRunCommand(['bilingual.yaml'], readFile);
    expect(english.stdout.split('\n')[0]).toMatch(/^Counted twice — seed 1/);
  });

  it("names the scenario in check's PASS/FAIL line in the --lang language its file gives, English without --lang", () => {
    const chinese = runCheckCommand(['bilingual.yaml', '--lang', 'zh-CN'], readFile);
    expect(chinese.stdout).toMatch(/^PASS +数了两次 — bilingual\.yaml$/m);
    const english = runCheckCommand(['bilingual.yaml'], readFile);
    expect(english.stdout).toMatch(/^PASS +Counted twice — bilingual\.yaml$/m);
  });

  it.each([['run'], ['check']])('refuses an unknown language for %s, naming the allowed ones', (command) => {
    const run = command === 'run' ? runRunCommand : runCheckCommand;
    const result = run(['tiny.yaml', '--lang', 'fr'], readFile);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--lang must be one of en, zh-CN, got "fr"');
  });
});
