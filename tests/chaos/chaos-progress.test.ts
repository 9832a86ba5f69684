import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** npm run chaos, as the script runs it: tsx from the checkout's node_modules. */
const TSX = join('node_modules', '.bin', 'tsx');
const ARGS = ['tests/chaos/run.ts', '--seeds', '2', '--from', '7'];

describe('npm run chaos shows its progress', () => {
  it('not at all when stderr is a pipe: the tally alone, on stdout', () => {
    const run = spawnSync(TSX, ARGS, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^2 seeds in /);
  });

  it('on a terminal, one line rewritten per seed and ended with a newline before the tally', () => {
    // script(1) gives the runner a pseudo-terminal; stdout goes to a file, so what script captures is stderr
    const out = join(mkdtempSync(join(tmpdir(), 'chaos-progress-')), 'tally.txt');
    const terminal = execFileSync('script', ['-qec', `${TSX} ${ARGS.join(' ')} > "${out}"`, '/dev/null'], { encoding: 'utf8' });
    expect(terminal).toMatch(/^\r\x1b\[2Kseed 7 \(1 of 2\), 0 failing seeds, \d+ checkpoints? completed, \d+ restarts?\r\x1b\[2Kseed 8 \(2 of 2\), 0 failing seeds, .*\r?\n$/);
    expect(readFileSync(out, 'utf8')).toMatch(/^2 seeds in /);
  });
});
