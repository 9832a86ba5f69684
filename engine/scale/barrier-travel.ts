/**
 * How long a checkpoint barrier takes from the trigger to each vertex, from the records it waits
 * behind. An aligned barrier is a buffer in the channel: it waits until the records queued ahead
 * of it are processed. While the job runs at its limit (behind its input, catching up after a
 * restore), the credit-based channels into every vertex at or upstream of the bottleneck are full
 * (Flink's exclusive buffers per channel and floating buffers per gate, each a memory segment, and
 * the senders' backlogs behind them), and the barrier waits for all of it: the start delay and the
 * second article's "barrier 对齐慢" emerge from the backlog. An unaligned barrier overtakes the
 * queue and persists it instead.
 *
 * While the job keeps up, records still travel in buffers: a sender's output buffer goes out when
 * full or when the output flusher fires (`execution.buffer-timeout.interval` after the task
 * started, and every interval after), and the barrier flushes the partial buffer ahead of it. So a
 * barrier finds the receiver still working off the last flush's burst from every channel, then the
 * records each channel's partial buffer held: the first barrier in is the start delay, the last
 * one ends the alignment (Flink's alignment duration: first barrier to last). A vertex slow per
 * record shows both; a fast one, only the network hops.
 */
import type { FlinkConfig } from '../config/flink-config.ts';
import { backpressuredVertices, busiestShare, type JobFlows, type VertexFlow } from './vertex-flows.ts';

export interface BarrierTravel {
  /** per vertex (topological order): trigger → first barrier at its busiest subtask, ms */
  startDelayMs: number[];
  /** per vertex: first barrier → last barrier of its input channels, ms */
  alignmentMs: number[];
  /** per vertex: trigger → every barrier in, so the subtask snapshots, ms */
  snapshotDelayMs: number[];
  /** per vertex: bytes queued at one subtask's inputs (what an unaligned barrier persists) */
  queuedBytes: number[];
}

export interface BarrierTravelInputs {
  flows: JobFlows;
  config: Pick<FlinkConfig, 'buffersPerChannel' | 'floatingBuffersPerGate' | 'segmentSizeBytes' | 'unalignedEnabled' | 'bufferTimeout'>;
  /** one-way latency of an RPC or a buffer between TaskManagers, ms */
  networkLatencyMs: number;
  recordSizeBytes: number;
  /** the job runs at its limit: queues at and upstream of the bottleneck are full */
  saturated: boolean;
  /** job time of the trigger, and of the deployment the tasks' output flushers count from, ms */
  triggerAt: number;
  deployedAt: number;
}

export function barrierTravel(i: BarrierTravelInputs): BarrierTravel {
  const full = i.saturated ? backpressuredVertices(i.flows) : new Set<number>();
  const travel: BarrierTravel = { startDelayMs: [], alignmentMs: [], snapshotDelayMs: [], queuedBytes: [] };
  for (const f of i.flows.vertices) {
    // Each channel holds the receiver's exclusive buffers and, at the sender, a backlog of as many
    // (it stops producing beyond the credit it could be given); the gate adds its floating buffers.
    const buffers = 2 * f.inputChannelsPerSubtask * i.config.buffersPerChannel + (f.upstream.length > 0 ? i.config.floatingBuffersPerGate : 0);
    const queued = full.has(f.index) && f.upstream.length > 0 ? buffers * i.config.segmentSizeBytes : 0;
    travel.queuedBytes.push(queued);
    // the trigger RPC to a source; one network hop more per edge
    const leftUpstream = f.upstream.length === 0 ? 0 : Math.max(...f.upstream.map((u) => travel.snapshotDelayMs[u]!));
    const arrival = leftUpstream + i.networkLatencyMs;
    const { waitMs, alignmentMs } = i.config.unalignedEnabled || f.upstream.length === 0 ? { waitMs: 0, alignmentMs: 0 } : queued > 0 ? { waitMs: (queued / i.recordSizeBytes / f.capacityPerSubtaskPerS) * 1000, alignmentMs: 0 } : burstWait(i, f, leftUpstream);
    travel.startDelayMs.push(arrival + waitMs);
    travel.alignmentMs.push(alignmentMs);
    travel.snapshotDelayMs.push(arrival + waitMs + alignmentMs);
  }
  return travel;
}

/**
 * Below saturation, at the vertex's busiest subtask: the rest of the last flush's burst, then each
 * channel's partial buffer, ahead of its barrier (the barrier left the senders `leftUpstream`
 * after the trigger, flushing what they had gathered since their last flush).
 */
function burstWait(i: BarrierTravelInputs, f: VertexFlow, leftUpstream: number): { waitMs: number; alignmentMs: number } {
  const channels = f.inputChannelsPerSubtask;
  const perChannelPerMs = (f.inputRatePerS * busiestShare(f)) / channels / 1000;
  if (perChannelPerMs === 0) return { waitMs: 0, alignmentMs: 0 };
  const recordsPerBuffer = Math.max(1, Math.floor(i.config.segmentSizeBytes / i.recordSizeBytes));
  // a buffer goes out when full or when the flusher fires, whichever comes first
  const periodMs = Math.min(i.config.bufferTimeout, recordsPerBuffer / perChannelPerMs);
  const msPerRecord = 1000 / f.capacityPerSubtaskPerS;
  const sinceFlush = (((i.triggerAt + leftUpstream - i.deployedAt) % periodMs) + periodMs) % periodMs;
  // The last flush reached the receiver one hop after it went out; its burst is worked off since.
  const burstLeft = Math.max(0, channels * perChannelPerMs * periodMs * msPerRecord - sinceFlush);
  const partialMs = perChannelPerMs * sinceFlush * msPerRecord;
  return { waitMs: burstLeft + partialMs, alignmentMs: (channels - 1) * partialMs };
}
