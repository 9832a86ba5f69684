import type { CompletedCheckpoint } from './completed-checkpoint.ts';

/**
 * Keeps the last `num-retained` completed checkpoints (Flink's CompletedCheckpointStore with
 * CheckpointSubsumeHelper). Savepoints are never added. Adding one subsumes the oldest beyond the
 * limit; the latest checkpoint is never subsumed. It refuses to retain none, as Flink's store
 * does (a scenario's config is refused earlier, naming the option).
 */
export class CompletedCheckpointStore {
  #checkpoints: CompletedCheckpoint[] = [];

  constructor(private readonly numRetained: number) {
    // Flink's DefaultCompletedCheckpointStore: checkArgument(maxNumberOfCheckpointsToRetain >= 1, …).
    if (!(Number.isInteger(numRetained) && numRetained >= 1)) throw new RangeError(`Must retain at least one checkpoint (execution.checkpointing.num-retained: ${numRetained}).`);
  }

  /** Adds a checkpoint; returns the ones it subsumed (their state may now be discarded). */
  addCheckpointAndSubsumeOldest(checkpoint: CompletedCheckpoint): CompletedCheckpoint[] {
    this.#checkpoints.push(checkpoint);
    const subsumed: CompletedCheckpoint[] = [];
    while (this.#checkpoints.length > this.numRetained) subsumed.push(this.#checkpoints.shift()!);
    return subsumed;
  }

  getLatestCheckpoint(): CompletedCheckpoint | undefined {
    return this.#checkpoints.at(-1);
  }

  getAllCheckpoints(): readonly CompletedCheckpoint[] {
    return this.#checkpoints;
  }

  /** The lowest id still retained: shared state used only by older checkpoints can go. */
  get lowestRetainedId(): number | undefined {
    return this.#checkpoints[0]?.id;
  }
}
