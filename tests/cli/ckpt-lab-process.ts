/**
 * Runs the real `ckpt-lab` command (engine/cli/ckpt-lab.mjs) as a child process, for the tests
 * whose subject is the whole command: its exit code, stdout and stderr.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '../../engine/cli/ckpt-lab.mjs');

export interface CkptLabRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function runCkptLab(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<CkptLabRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}
