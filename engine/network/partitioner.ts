import type { StreamRecord } from '../protocol.ts';
import type { Partitioning } from '../scenario/scenario-types.ts';
import { assignToKeyGroup, computeOperatorIndexForKeyGroup } from '../keys/key-group-assignment.ts';

/**
 * Chooses the downstream subtask of a record, as Flink's StreamPartitioners do. Broadcast is not
 * a partitioner here: the router sends a broadcast record to every channel without asking.
 */
export interface Partitioner {
  selectChannel(record: StreamRecord): number;
}

/** Forward: subtask i talks only to subtask i (the edge has equal parallelism on both ends). */
class ForwardPartitioner implements Partitioner {
  selectChannel(): number {
    return 0;
  }
}

/**
 * Hash (keyBy): the key group of the key, under the downstream operator's max parallelism,
 * decides the subtask (Flink's KeyGroupStreamPartitioner).
 */
class KeyGroupPartitioner implements Partitioner {
  constructor(
    private readonly maxParallelism: number,
    private readonly parallelism: number,
  ) {}

  selectChannel(record: StreamRecord): number {
    const keyGroup = assignToKeyGroup(record.key, this.maxParallelism);
    return computeOperatorIndexForKeyGroup(this.maxParallelism, this.parallelism, keyGroup);
  }
}

/**
 * Rebalance: round robin. Flink starts at a random channel; we start at the sender's own index
 * so that the choice is deterministic without drawing from the random source.
 */
class RebalancePartitioner implements Partitioner {
  #next: number;
  constructor(
    private readonly channels: number,
    start: number,
  ) {
    this.#next = start % channels;
  }

  selectChannel(): number {
    const c = this.#next;
    this.#next = c + 1 === this.channels ? 0 : c + 1;
    return c;
  }
}

export function createPartitioner(
  partitioning: Exclude<Partitioning, 'broadcast'>,
  downstream: { parallelism: number; maxParallelism: number },
  senderIndex: number,
): Partitioner {
  switch (partitioning) {
    case 'forward':
      return new ForwardPartitioner();
    case 'hash':
      return new KeyGroupPartitioner(downstream.maxParallelism, downstream.parallelism);
    case 'rebalance':
      return new RebalancePartitioner(downstream.parallelism, senderIndex);
  }
}
