import type { DataBuffer } from '../../protocol.ts';

/**
 * Flink's InputChannelStateHandle: in-flight buffers an unaligned checkpoint persisted on one input
 * channel, replayed into the operator on restore. Never in a task-local copy (Flink writes none
 * for unaligned checkpoints).
 */
export interface InputChannelStateHandle {
  kind: 'input-channel';
  gate: number;
  channel: number;
  buffers: readonly DataBuffer[];
  stateSize: number;
}

/** Flink's ResultSubpartitionStateHandle: in-flight buffers of one output subpartition, sent again on restore. */
export interface ResultSubpartitionStateHandle {
  kind: 'result-subpartition';
  channelId: number;
  buffers: readonly DataBuffer[];
  stateSize: number;
}

export function buffersSize(buffers: readonly DataBuffer[]): number {
  return buffers.reduce((n, b) => n + b.sizeBytes, 0);
}
