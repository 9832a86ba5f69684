/**
 * Flink's DefaultCompletedCheckpointStore rules: keep the newest `num-retained`, subsume the
 * oldest beyond them (never the latest), and refuse to retain none.
 */
import { describe, expect, it } from 'vitest';
import { CompletedCheckpointStore } from '../../engine/checkpoint/completed-checkpoint-store.ts';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';

const checkpoint = (id: number): CompletedCheckpoint => ({
  id,
  isSavepoint: false,
  triggerTimestamp: id,
  completionTimestamp: id + 1,
  externalPath: `chk-${id}`,
  taskStates: new Map(),
  parallelism: {},
  stateSize: 0,
  checkpointedSize: 0,
});

describe('the completed checkpoint store', () => {
  it.each([0, -1, 1.5, Number.NaN])('refuses to retain %s checkpoints, as Flink’s store does', (numRetained) => {
    expect(() => new CompletedCheckpointStore(numRetained)).toThrow(/Must retain at least one checkpoint/);
  });

  it.each([
    { numRetained: 1, added: [1, 2, 3], retained: [3], subsumed: [[], [1], [2]] },
    { numRetained: 2, added: [1, 2, 3, 4], retained: [3, 4], subsumed: [[], [], [1], [2]] },
    { numRetained: 5, added: [1, 2], retained: [1, 2], subsumed: [[], []] },
  ])('retains the newest $numRetained and subsumes the oldest beyond them', ({ numRetained, added, retained, subsumed }) => {
    const store = new CompletedCheckpointStore(numRetained);
    const gone = added.map((id) => store.addCheckpointAndSubsumeOldest(checkpoint(id)).map((c) => c.id));
    expect(gone).toEqual(subsumed);
    expect(store.getAllCheckpoints().map((c) => c.id)).toEqual(retained);
    expect(store.getLatestCheckpoint()?.id).toBe(added.at(-1));
    expect(store.lowestRetainedId).toBe(retained[0]);
  });
});
