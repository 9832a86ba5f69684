import type { NetworkBuffer, StreamRecord } from '../protocol.ts';
import { createPartitioner, type Partitioner } from '../network/partitioner.ts';
import { ResultSubpartition } from '../network/result-subpartition.ts';
import type { Output } from '../operators/stream-operator.ts';
import type { OutputDeployment } from './task-deployment.ts';

/** One output edge: its partitioner and its subpartitions. */
interface RoutedEdge {
  partitioner: Partitioner | undefined;
  subpartitions: ResultSubpartition[];
}

/**
 * Routes an operator's records to the output channels of every out edge (Flink's RecordWriter
 * per edge) and knows whether the output has room: a subtask may only read more input while
 * every subpartition's backlog is below its limit, which is how backpressure travels upstream.
 */
export class OutputRouter implements Output {
  readonly #edges: RoutedEdge[];
  readonly subpartitions: ResultSubpartition[];
  recordsOut = 0;

  constructor(
    outputs: readonly OutputDeployment[],
    subtaskIndex: number,
    initialCredits: number,
    recordsPerBuffer: number,
    recordSizeBytes: number,
    private readonly backlogLimit: number,
  ) {
    this.#edges = outputs.map((o) => ({
      partitioner:
        o.partitioning === 'broadcast'
          ? undefined
          : createPartitioner(o.partitioning, { parallelism: o.downstreamParallelism, maxParallelism: o.downstreamMaxParallelism }, subtaskIndex),
      subpartitions: o.channelIds.map((id) => new ResultSubpartition(id, initialCredits, recordsPerBuffer, recordSizeBytes)),
    }));
    this.subpartitions = this.#edges.flatMap((e) => e.subpartitions);
  }

  /** Every record of the task passes here: indexed loops, not iterators, which cost per record until the JIT optimizes them. */
  collect(record: StreamRecord): void {
    this.recordsOut++;
    const edges = this.#edges;
    for (let e = 0; e < edges.length; e++) {
      const { partitioner, subpartitions } = edges[e]!;
      if (partitioner) subpartitions[partitioner.selectChannel(record)]!.addRecord(record);
      else for (let s = 0; s < subpartitions.length; s++) subpartitions[s]!.addRecord(record);
    }
  }

  /** True while every subpartition can take more (Flink: the record writer is available). */
  get available(): boolean {
    for (const s of this.subpartitions) if (s.backlog >= this.backlogLimit) return false;
    return true;
  }

  get hasPartialBuffers(): boolean {
    for (const s of this.subpartitions) if (s.hasPartialBuffer) return true;
    return false;
  }

  get backlogEmpty(): boolean {
    for (const s of this.subpartitions) if (s.backlog > 0 || s.hasPartialBuffer) return false;
    return true;
  }

  /** Closes every partial buffer so the receivers can read it (the output flusher). */
  flushPartial(): void {
    for (const s of this.subpartitions) s.finishBuffer();
  }

  broadcastWatermark(watermark: number): void {
    for (const s of this.subpartitions) s.finishBuffer(watermark);
  }

  broadcastEvent(make: () => NetworkBuffer): void {
    for (const s of this.subpartitions) s.addEvent(make());
  }

  addCredits(channelId: number, credits: number): void {
    for (const s of this.subpartitions) if (s.channelId === channelId) s.addCredits(credits);
  }

  /** channels whose receiver processed this task's end-of-data */
  #dataProcessed = new Set<number>();

  /** The receiver of `channelId` processed everything up to this task's end-of-data. */
  markDataProcessed(channelId: number): void {
    this.#dataProcessed.add(channelId);
  }

  /** Every receiver processed this task's end-of-data (ResultPartition#getAllDataProcessedFuture). */
  get allDataProcessed(): boolean {
    return this.subpartitions.every((s) => this.#dataProcessed.has(s.channelId));
  }

  /** Takes every buffer that has credit to go now. */
  *sendable(): Generator<{ channelId: number; buffer: NetworkBuffer }> {
    for (const s of this.subpartitions) {
      for (let b = s.pollSendable(); b; b = s.pollSendable()) yield { channelId: s.channelId, buffer: b };
    }
  }

  clear(): void {
    for (const s of this.subpartitions) s.clear();
  }
}
