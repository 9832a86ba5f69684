/**
 * The `ckpt-lab` command line: the one place in engine/ that touches the process and the file
 * system. Each subcommand is a pure function from arguments (and file contents) to output; this
 * file only reads files, prints and returns the exit code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { runKeyGroupCommand } from './key-group-command.ts';
import { runRunCommand } from './run-command.ts';
import { runCheckCommand } from './check-command.ts';
import { runReplayCommand } from './replay-command.ts';
import { runInspectCommand } from './inspect-command.ts';
import { runExportCommand } from './export-command.ts';
import { runCompareCommand } from './compare-command.ts';
import type { CommandResult } from './command-result.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import { nodeLsmStorage } from './wa-sqlite-node.ts';
import { decodeUtf8 } from './utf8-file-text.ts';
import { TerminalProgress } from './terminal-progress.ts';
import type { ShowProgress } from './command-result.ts';
import { runLiveCheckCommand } from './check-command.ts';
import type { LiveCheckRunner } from './live-check-runner.ts';

/**
 * What the entry point (ckpt-lab.mjs) plugs in from outside engine/: the browser that
 * `check --live` runs in (node/live-check.ts). Absent, `check --live` says it has none.
 */
export interface CliHooks {
  liveCheck?: LiveCheckRunner;
}

export const usage = `Usage: ckpt-lab <command> [options]

Commands:
  run SCENARIO [--seed N] [--until DURATION] [--json] [--lang en|zh-CN]
                         run a scenario in the deterministic simulator and print a summary
  check SCENARIO... [--live] [--json] [--lang en|zh-CN]
                         run each scenario with its own seed and run length and check its
                         expectations: PASS/FAIL per file, 'expected …, got …' per failure (docs CI);
                         --live runs them in headless Chromium on the live runtime (Web Workers)
  compare SCENARIO --variation NAME [--until DURATION] [--json] [--lang en|zh-CN]
                         run a scenario twice in the simulator, same seed, under the two
                         configurations of a variation (full-vs-incremental, aligned-vs-unaligned,
                         local-recovery, min-pause, heap-vs-rocksdb-timers), and say how they differ
  replay SESSION [--json]
                         replay a live session exported from the playground in the simulator
  key-group KEY... [--max-parallelism N] [--parallelism P] [--json]
                         show the key group and subtask Flink assigns to each key
  inspect FILE... [--json] [--lang en|zh-CN] [--reproduce SCENARIO.yaml]
                         read a real Flink cluster's checkpoint statistics (REST responses, 1.9 to 2.x);
                         --reproduce: write a scenario that behaves like the job, run it, and
                         compare the model's checkpoint figures with the imported ones
  export SCENARIO [--format config-yaml|config-yaml-1x|java|sql-set|sql-job]
                         print the scenario's checkpointing and state options (or its job) for Flink

Exit codes: 0 ran and every expectation held; 1 an expectation failed; 2 invalid input or usage;
3 internal error (a bug in ckpt-lab, not in the input: please report it).
`;

export async function main(args: string[], hooks: CliHooks = {}): Promise<number> {
  const live = args[0] === 'check' && args.includes('--live');
  // `run`, `check` and `replay` may need wa-sqlite (state.backend.type: rocksdb); loading it takes a few milliseconds.
  // `inspect --reproduce` runs a model of the imported job, which may use RocksDB too.
  // A live check's rocksdb runs in the browser's workers instead.
  const runsScenarios = args[0] === 'run' || args[0] === 'compare' || (args[0] === 'check' && !live) || args[0] === 'replay' || (args[0] === 'inspect' && args.includes('--reproduce'));
  const lsmStorage = runsScenarios ? await nodeLsmStorage() : undefined;
  // The progress line is stderr's only while the command runs: it ends before the output.
  const progress = new TerminalProgress(process.stderr);
  const show = progress.enabled ? (line: string) => progress.show(line) : undefined;
  const result = live ? await liveCheck(args.slice(1), hooks, show) : dispatch(args, lsmStorage, show);
  progress.end();
  const unwritten = writeFiles(result.writes ?? []);
  if (unwritten !== undefined) {
    process.stderr.write(unwritten);
    return 2;
  }
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  return result.exitCode;
}

async function liveCheck(args: string[], hooks: CliHooks, showProgress: ShowProgress | undefined): Promise<CommandResult> {
  if (!hooks.liveCheck) return { stdout: '', stderr: 'ckpt-lab check --live: this ckpt-lab has no browser runner; run it as the ckpt-lab command (engine/cli/ckpt-lab.mjs)\n', exitCode: 2 };
  try {
    return await runLiveCheckCommand(args, fileReader('scenario'), hooks.liveCheck, showProgress);
  } catch (error) {
    return internalError(error);
  }
}

function dispatch(args: string[], lsmStorage: LsmStorageFactory | undefined, showProgress: ShowProgress | undefined): CommandResult {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'run':
        return runRunCommand(rest, fileReader('scenario'), lsmStorage, showProgress);
      case 'check':
        return runCheckCommand(rest, fileReader('scenario'), lsmStorage, showProgress);
      case 'compare':
        return runCompareCommand(rest, fileReader('scenario'), lsmStorage);
      case 'replay':
        return runReplayCommand(rest, fileReader('session'), lsmStorage);
      case 'key-group':
        return runKeyGroupCommand(rest);
      case 'inspect':
        return runInspectCommand(rest, fileReader('Flink statistics'), lsmStorage);
      case 'export':
        return runExportCommand(rest, fileReader('scenario'));
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        return { stdout: usage, stderr: '', exitCode: command === undefined ? 2 : 0 };
      default:
        return { stdout: '', stderr: `ckpt-lab: unknown command "${command}" (allowed: run, check, compare, replay, key-group, inspect, export)\n\n${usage}`, exitCode: 2 };
    }
  } catch (error) {
    return internalError(error);
  }
}

/**
 * A bug, not bad input: one line instead of a stack trace, and an exit code of its own, so a CI
 * script can tell "my scenario is wrong" (2) from "ckpt-lab is wrong" (3).
 */
export function internalError(error: unknown): CommandResult {
  const message = error instanceof Error ? error.message : String(error);
  const stack = process.env.CKPT_LAB_DEBUG && error instanceof Error ? `${error.stack}\n` : '';
  return { stdout: '', stderr: `ckpt-lab: internal error: ${message}\n(set CKPT_LAB_DEBUG=1 for the stack trace)\n${stack}`, exitCode: 3 };
}

/** Reads the command's input file; a failure names what the file was meant to be (a scenario, a session). */
function fileReader(what: 'scenario' | 'session' | 'Flink statistics'): (path: string) => { ok: true; text: string } | { ok: false; message: string } {
  return (path) => readInputFile(path, what);
}

function readInputFile(path: string, what: string): { ok: true; text: string } | { ok: false; message: string } {
  try {
    const decoded = decodeUtf8(readFileSync(path));
    if (decoded.ok) return decoded;
    return { ok: false, message: `cannot read ${what} file "${path}": byte ${decoded.offset} (counted from 0) is not valid UTF-8; save the file as UTF-8` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    return { ok: false, message: `cannot read ${what} file "${path}": ${reason}` };
  }
}

/** Writes a command's output files; the first that cannot be written gives the message (exit 2). */
function writeFiles(writes: readonly { path: string; text: string }[]): string | undefined {
  for (const { path, text } of writes) {
    try {
      writeFileSync(path, text, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such directory' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
      return `ckpt-lab: cannot write "${path}": ${reason}\n`;
    }
  }
  return undefined;
}
