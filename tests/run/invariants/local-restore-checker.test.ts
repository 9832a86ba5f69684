import { describe, expect, it } from 'vitest';
import { LocalRestoreChecker } from '../../../engine/run/invariants/local-restore-checker.ts';
import type { JobEvent, SubtaskRestore } from '../../../engine/run/job-events.ts';

const subtask = (vertexId: string, source: 'local' | 'remote'): SubtaskRestore => ({ vertexId, subtaskIndex: 0, source, bytes: 10, remoteBytes: source === 'local' ? 0 : 10, durationMs: 1 });
const restore = (checkpointId: number, isSavepoint: boolean, subtasks: SubtaskRestore[]): JobEvent => ({ type: 'restore', time: 9, restore: { time: 9, checkpointId, isSavepoint, subtasks } });
/** checkpoints 2 and 3 were taken with count at parallelism 1 */
const checkpointParallelism = (id: number) => (id === 2 || id === 3 ? { count: 1, window: 2, sink: 1 } : undefined);

function verdict(fromLocal: boolean, events: JobEvent[]): string[] {
  const checker = new LocalRestoreChecker({ fromLocal, checkpointParallelism });
  events.forEach((e) => checker.onEvent(e));
  return checker.verdict().map((v) => v.message);
}

describe('the local restore checker', () => {
  it('passes local restores of a checkpoint with local recovery on, and a rescaled job whose other vertices stay local', () => {
    const window = (i: number): SubtaskRestore => ({ ...subtask('window', 'local'), subtaskIndex: i });
    expect(verdict(true, [restore(2, false, [subtask('count', 'local'), subtask('sink', 'remote')]), restore(2, false, [subtask('count', 'remote'), { ...subtask('count', 'remote'), subtaskIndex: 1 }, window(0), window(1)])])).toEqual([]);
  });

  it.each<[string, boolean, JobEvent[], string]>([
    ['local recovery is off', false, [restore(2, false, [subtask('count', 'local')])], 'count#0 restored checkpoint 2 from its local copy, but execution.state-recovery.from-local is off'],
    ['it is a savepoint', true, [restore(3, true, [subtask('count', 'local')])], 'count#0 restored checkpoint 3 from its local copy, but it is a savepoint (savepoints have no task-local copies)'],
    ['its vertex runs with another parallelism than the checkpoint was taken with', true, [restore(2, false, [subtask('count', 'local'), { ...subtask('count', 'remote'), subtaskIndex: 1 }])], 'count#0 restored checkpoint 2 from its local copy, but count runs with parallelism 2 and the checkpoint was taken with 1'],
  ])('flags a local restore when %s', (_when, fromLocal, events, message) => {
    expect(verdict(fromLocal, events)).toEqual([message]);
  });
});
