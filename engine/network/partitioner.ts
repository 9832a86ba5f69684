import type { StreamRecord } from '../protocol.ts';
import type { Partitioning } from '../scenario/scenario-types.ts';
import { computeOperatorIndexForKeyGroup, keyGroupAssigner } from '../keys/key-group-assignment.ts';

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
  /** the subtask of each key group, worked out once: every record of the edge asks */
  readonly #channelOfKeyGroup: Uint16Array;
  readonly #keyGroupOf: (key: string | number) => number;

  constructor(maxParallelism: number, parallelism: number) {
    this.#channelOfKeyGroup = channelsOfKeyGroups(maxParallelism, parallelism);
    this.#keyGroupOf = keyGroupAssigner(maxParallelism);
  }

  selectChannel(record: StreamRecord): number {
    return this.#channelOfKeyGroup[this.#keyGroupOf(record.key)]!;
  }
}

/**
 * Key group → subtask for one pair of parallelisms, shared by every sender of every edge with
 * that pair: a job of many subtasks builds each table once (at most 64 kB for 32,768 key groups).
 */
const channelTables = new Map<string, Uint16Array>();

function channelsOfKeyGroups(maxParallelism: number, parallelism: number): Uint16Array {
  const id = `${maxParallelism}/${parallelism}`;
  let table = channelTables.get(id);
  if (!table) {
    table = Uint16Array.from({ length: maxParallelism }, (_, keyGroup) => computeOperatorIndexForKeyGroup(maxParallelism, parallelism, keyGroup));
    channelTables.set(id, table);
  }
  return table;
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
