/**
 * The history of a sim run: operations recorded with their exact point, appended at the branch's
 * end, and a new branch (the old one kept) when the user acts at a past point.
 */
import { describe, expect, it } from 'vitest';
import { SimHistory } from '../../engine/replay/sim-history.ts';

const kill = { type: 'kill-task-manager', task_manager: 'tm-1' } as const;
const fail = { type: 'fail-task', vertex: 'counts', subtask: 0 } as const;
const savepoint = { type: 'trigger-savepoint' } as const;

describe('SimHistory', () => {
  it('appends operations applied at the end of the branch, in order, with their points', () => {
    const history = new SimHistory();
    history.record({ time: 1000, handledEvents: 50 }, kill, 0);
    const { branch, forked } = history.record({ time: 2500, handledEvents: 90 }, savepoint, 1);
    expect(forked).toBe(false);
    expect(branch.id).toBe(1);
    expect(branch.operations).toEqual([
      { time: 1000, handledEvents: 50, operation: kill },
      { time: 2500, handledEvents: 90, operation: savepoint },
    ]);
    expect(history.branches).toHaveLength(1);
  });

  it('forks a new branch when acting before recorded operations, and keeps the old branch whole', () => {
    const history = new SimHistory();
    history.record({ time: 1000, handledEvents: 50 }, savepoint, 0);
    history.record({ time: 5000, handledEvents: 200 }, kill, 1);
    history.reached(8000);
    // Seeked back to 3 s: one operation (the savepoint) has been replayed.
    const { branch, forked } = history.record({ time: 3000, handledEvents: 120 }, fail, 1);
    expect(forked).toBe(true);
    expect(branch).toMatchObject({ id: 2, parentId: 1, forkTime: 3000, reachedMs: 3000 });
    expect(branch.operations.map((o) => o.operation)).toEqual([savepoint, fail]);
    expect(history.current.id).toBe(2);
    expect(history.branch(1)!.operations.map((o) => o.operation)).toEqual([savepoint, kill]);
    expect(history.branch(1)!.reachedMs).toBe(8000);
  });

  it('forks when the branch was run further than the point, even with no operation after it', () => {
    const history = new SimHistory();
    history.reached(20_000);
    const { forked, branch } = history.record({ time: 4000, handledEvents: 10 }, kill, 0);
    expect(forked).toBe(true);
    expect(branch.parentId).toBe(1);
    expect(history.branch(1)!.operations).toEqual([]);
  });

  it('does not fork when the run replayed the whole branch and went on past its end', () => {
    const history = new SimHistory();
    history.record({ time: 1000, handledEvents: 50 }, kill, 0);
    history.reached(6000);
    const { forked } = history.record({ time: 9000, handledEvents: 400 }, fail, 1);
    expect(forked).toBe(false);
    expect(history.current.operations).toHaveLength(2);
  });

  it('switches to a kept branch, and refuses one that does not exist', () => {
    const history = new SimHistory();
    history.reached(5000);
    history.record({ time: 1000, handledEvents: 50 }, kill, 0);
    expect(history.current.id).toBe(2);
    expect(history.switchTo(1)).toBe(true);
    expect(history.current.id).toBe(1);
    expect(history.switchTo(7)).toBe(false);
    expect(history.current.id).toBe(1);
  });
});
