/**
 * Transfers that start together and share bandwidth, as a fluid: each subtask's upload (or restore
 * read) is capped by the store's per-transfer bandwidth (`remote_bandwidth_mb_per_s`, as in the
 * record-level runtime), by its host's network shared equally with the host's other transfers
 * still moving (`host_bandwidth_mb_per_s`), and by the remote store's total shared by every
 * transfer still moving (`remote_store_bandwidth_mb_per_s`). When a transfer ends, the others'
 * shares grow: a source's few bytes of offsets do not hold a share of the store for as long as a
 * keyed subtask's gigabytes take.
 */
import { transferMs } from '../storage/transfer-cost.ts';

export interface Transfer {
  host: string;
  bytes: number;
}

export interface SharedLink {
  latencyMs: number;
  perTransferMbPerS: number;
  perHostMbPerS: number;
  totalMbPerS: number;
}

const BYTES_PER_MS_PER_MB_PER_S = (1024 * 1024) / 1000;

/** How long each transfer takes, ms, in the order given. */
export function sharedTransferMs(transfers: readonly Transfer[], link: SharedLink): number[] {
  const durations = transfers.map((t) => (t.bytes > 0 ? NaN : transferMs(t.bytes, link.latencyMs, link.perTransferMbPerS)));
  const remaining = transfers.map((t) => t.bytes);
  let moving = transfers.flatMap((t, i) => (t.bytes > 0 ? [i] : []));
  let elapsed = 0;
  // Each round runs until the next transfer ends; transfers of one size end in the same round.
  while (moving.length > 0) {
    const rates = ratesOf(moving, transfers, link);
    const step = Math.min(...moving.map((i, k) => remaining[i]! / rates[k]!));
    elapsed += step;
    moving = moving.filter((i, k) => {
      remaining[i]! -= rates[k]! * step;
      if (remaining[i]! > transfers[i]!.bytes * 1e-9) return true;
      durations[i] = link.latencyMs + elapsed;
      return false;
    });
  }
  return durations;
}

/** Bytes per ms of each moving transfer now. */
function ratesOf(moving: readonly number[], transfers: readonly Transfer[], link: SharedLink): number[] {
  const perHost = new Map<string, number>();
  for (const i of moving) perHost.set(transfers[i]!.host, (perHost.get(transfers[i]!.host) ?? 0) + 1);
  return moving.map((i) => Math.min(link.perTransferMbPerS, link.perHostMbPerS / perHost.get(transfers[i]!.host)!, link.totalMbPerS / moving.length) * BYTES_PER_MS_PER_MB_PER_S);
}
