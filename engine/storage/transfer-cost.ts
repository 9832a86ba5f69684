/**
 * Time to move `bytes` to or from a store with a per-request latency and a bandwidth, as the
 * scenario's cost model gives them (`remote_latency_ms`, `remote_bandwidth_mb_per_s`; MB here are
 * MiB, as Flink's memory sizes).
 */
export function transferMs(bytes: number, latencyMs: number, bandwidthMbPerS: number): number {
  return latencyMs + (bytes / (bandwidthMbPerS * 1024 * 1024)) * 1000;
}
