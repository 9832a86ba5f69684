/**
 * How long a checkpoint barrier takes from the trigger to each vertex, from the queues it waits
 * behind. An aligned barrier is a buffer in the channel: it waits until the records queued ahead
 * of it are processed. While the job keeps up, queues hold next to nothing and the barrier arrives
 * after the network hops; while it runs at its limit (behind its input, catching up after a
 * restore), the credit-based channels into every vertex at or upstream of the bottleneck are full
 * (Flink's exclusive buffers per channel and floating buffers per gate, each a memory segment),
 * (and the senders' backlogs behind them), and the barrier waits for all of it: the start delay and the second article's "barrier 对齐慢"
 * emerge from the backlog. An unaligned barrier overtakes the queue and persists it instead.
 */
import type { FlinkConfig } from '../config/flink-config.ts';
import { backpressuredVertices, type JobFlows } from './vertex-flows.ts';

export interface BarrierTravel {
  /** per vertex (topological order): trigger → barrier at its subtasks, ms */
  startDelayMs: number[];
  /** per vertex: bytes queued at one subtask's inputs (what an unaligned barrier persists) */
  queuedBytes: number[];
}

export interface BarrierTravelInputs {
  flows: JobFlows;
  config: Pick<FlinkConfig, 'buffersPerChannel' | 'floatingBuffersPerGate' | 'segmentSizeBytes' | 'unalignedEnabled'>;
  /** one-way latency of an RPC or a buffer between TaskManagers, ms */
  networkLatencyMs: number;
  recordSizeBytes: number;
  /** the job runs at its limit: queues at and upstream of the bottleneck are full */
  saturated: boolean;
}

export function barrierTravel(i: BarrierTravelInputs): BarrierTravel {
  const full = i.saturated ? backpressuredVertices(i.flows) : new Set<number>();
  const startDelayMs: number[] = [];
  const queuedBytes: number[] = [];
  for (const f of i.flows.vertices) {
    // Each channel holds the receiver's exclusive buffers and, at the sender, a backlog of as many
    // (it stops producing beyond the credit it could be given); the gate adds its floating buffers.
    const buffers = 2 * f.inputChannelsPerSubtask * i.config.buffersPerChannel + (f.upstream.length > 0 ? i.config.floatingBuffersPerGate : 0);
    const queued = full.has(f.index) && f.upstream.length > 0 ? buffers * i.config.segmentSizeBytes : 0;
    queuedBytes.push(queued);
    // the trigger RPC to a source; one network hop more per edge, plus the queue an aligned barrier waits behind
    const waitMs = i.config.unalignedEnabled ? 0 : (queued / i.recordSizeBytes / f.capacityPerSubtaskPerS) * 1000;
    const upstream = f.upstream.length === 0 ? 0 : Math.max(...f.upstream.map((u) => startDelayMs[u]!));
    startDelayMs.push(upstream + i.networkLatencyMs + waitMs);
  }
  return { startDelayMs, queuedBytes };
}
