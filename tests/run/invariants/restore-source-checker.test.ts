import { describe, expect, it } from 'vitest';
import { RestoreSourceChecker } from '../../../engine/run/invariants/restore-source-checker.ts';
import type { JobEvent } from '../../../engine/run/job-events.ts';
import type { JobStatus } from '../../../engine/job/job-status.ts';

const completed = (time: number, checkpointId: number, isSavepoint = false): JobEvent => ({ type: 'checkpoint-completed', time, checkpointId, isSavepoint });
const restore = (time: number, checkpointId: number, isSavepoint = false): JobEvent => ({ type: 'restore', time, restore: { time, checkpointId, isSavepoint, subtasks: [] } });
const rescale = (time: number, checkpointId: number): JobEvent => ({ type: 'fault', time, description: '', fault: { kind: 'rescale', vertex: 'count', parallelism: 2, checkpointId } });
const savepointRestart = (time: number, savepointId: number): JobEvent => ({ type: 'fault', time, description: '', fault: { kind: 'restart-from-savepoint', savepointId } });

const status = (time: number, s: JobStatus): JobEvent => ({ type: 'job-status', time, status: s });

function verdict(events: JobEvent[]): string[] {
  const checker = new RestoreSourceChecker();
  events.forEach((e) => checker.onEvent(e));
  return checker.verdict().map((v) => v.message);
}

describe('the restore source checker', () => {
  it('passes failovers from the latest completed checkpoint, and requested restores from what they asked for', () => {
    expect(verdict([completed(1, 1), completed(2, 2), restore(3, 2), completed(4, 3, true), rescale(5, 3), restore(6, 3, true), completed(7, 4), savepointRestart(8, 3), restore(9, 3, true)])).toEqual([]);
  });

  it('passes a failover after a savepoint restart that restores the savepoint again, then a newer checkpoint', () => {
    expect(verdict([completed(1, 4), completed(2, 5, true), savepointRestart(3, 5), restore(3, 5, true), restore(4, 5, true), completed(5, 6), restore(6, 6)])).toEqual([]);
  });

  it('flags a failover from an older checkpoint', () => {
    expect(verdict([completed(1, 1), completed(2, 2), restore(3, 1)])).toEqual(['a failover restored 1, but the latest completed checkpoint was 2']);
  });

  it('flags a failover from a savepoint the job was not restarted from (savepoints are not in the completed checkpoint store)', () => {
    expect(verdict([completed(1, 1), completed(2, 2, true), restore(3, 2, true)])).toEqual(['a failover restored 2, but the latest completed checkpoint was 1']);
  });

  it('flags a failover after a savepoint restart that goes back to a checkpoint from before the savepoint', () => {
    expect(verdict([completed(1, 4), completed(2, 5, true), savepointRestart(3, 5), restore(3, 5, true), restore(4, 4)])).toEqual(['a failover restored 4, but the latest restored savepoint was 5']);
  });

  it('passes the restore of a job submitted from a checkpoint (a JobManager failover recovered it), and failovers back to it', () => {
    expect(verdict([status(0, 'RUNNING'), restore(0, 7), status(2, 'RESTARTING'), status(3, 'RUNNING'), restore(3, 7), completed(4, 8), restore(5, 8)])).toEqual([]);
  });

  it('flags a failover of a job submitted from a checkpoint that restores another one before a newer completes', () => {
    expect(verdict([status(0, 'RUNNING'), restore(0, 7), status(2, 'RESTARTING'), status(3, 'RUNNING'), restore(3, 6)])).toEqual([
      'a failover restored 6, but the latest completed checkpoint was 7',
    ]);
  });

  it('flags a restore when no checkpoint had completed', () => {
    expect(verdict([restore(3, 1)])).toEqual(['restored checkpoint 1, but none had completed']);
  });

  it('flags a requested restore of other state than the request named', () => {
    expect(verdict([completed(1, 1), completed(2, 2, true), savepointRestart(3, 2), restore(4, 1)])).toEqual(['restored 1, but the savepoint restart asked for 2']);
  });

  it('flags a restart that runs on without restoring the state it had, and leaves alone one that fails over again first', () => {
    const restart = [status(0, 'RUNNING'), completed(1, 1), status(2, 'RESTARTING'), status(3, 'RUNNING')];
    expect(verdict([...restart, completed(5, 2)])).toEqual(['the job restarted at 3 ms without restoring 1: it started from nothing']);
    expect(verdict([...restart, status(6, 'FINISHED')])).toEqual(['the job restarted at 3 ms without restoring 1: it started from nothing']);
    expect(verdict([...restart, status(4, 'RESTARTING'), status(5, 'RUNNING'), restore(5, 1), completed(6, 2)])).toEqual([]);
    // nothing had completed: starting from nothing is right
    expect(verdict([status(0, 'RUNNING'), status(2, 'RESTARTING'), status(3, 'RUNNING'), completed(5, 1)])).toEqual([]);
  });
});
