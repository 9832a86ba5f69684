import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runRunCommand } from '../../engine/cli/run-command.ts';

// An idle TaskManager killed, a host lost, then faults that come due while the job restarts or that
// name a host already lost, then a stall: each is reported, carried out or not, with why.
const read = (path: string) => ({ ok: true as const, text: readFileSync(path, 'utf8') });
const FILE = 'tests/cli/faults-during-restart.yaml';

describe('ckpt-lab run reports every fault as it came due', () => {
  it('lists carried-out faults and the ones not applied, with the reason, in the summary', () => {
    const { stdout } = runRunCommand([FILE], read);
    const faults = stdout.split('\n').filter((l) => l.startsWith('fault at'));
    expect(faults).toEqual([
      'fault at 2.000 s: kill TaskManager tm-2 on host-2; it restarts on host-2',
      'fault at 3.000 s: lose host host-1 (tm-1)',
      'fault at 3.200 s not applied (fail-task): the job is RESTARTING; no task of count#0 runs to fail',
      'fault at 5.000 s not applied (lose-host): host-1 is lost already (hosts left: host-0, host-2)',
      'fault at 6.000 s: stall TaskManager tm-0; the JobManager notices after heartbeat.timeout (50000 ms)',
    ]);
    // the idle TaskManager's death failed nothing over; the lost host did, once
    expect(stdout).toMatch(/^job RUNNING, 1 restarts$/m);
  });

  it('puts them under faults in --json, applied or not', () => {
    const report = JSON.parse(runRunCommand([FILE, '--json'], read).stdout) as { faults: Array<{ applied: boolean; faultType?: string }> };
    expect(report.faults.map((f) => f.applied)).toEqual([true, true, false, false, true]);
    expect(report.faults.filter((f) => !f.applied).map((f) => f.faultType)).toEqual(['fail-task', 'lose-host']);
  });
});
