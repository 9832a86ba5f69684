/**
 * Transfers that start together and share bandwidth: each subtask's upload (or restore read) is
 * capped by the store's per-transfer bandwidth (`remote_bandwidth_mb_per_s`, as in the record-level
 * runtime), by its host's network shared with the other transfers of that host
 * (`host_bandwidth_mb_per_s`), and by the remote store's total shared by every transfer
 * (`remote_store_bandwidth_mb_per_s`). Shares are fixed for a transfer's whole duration: the
 * transfers of one checkpoint are of about one size, so they finish at about the same time.
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

/** How long each transfer takes, ms, in the order given. */
export function sharedTransferMs(transfers: readonly Transfer[], link: SharedLink): number[] {
  const perHost = new Map<string, number>();
  let moving = 0;
  for (const t of transfers) {
    if (t.bytes <= 0) continue;
    perHost.set(t.host, (perHost.get(t.host) ?? 0) + 1);
    moving++;
  }
  return transfers.map((t) => {
    if (t.bytes <= 0) return transferMs(t.bytes, link.latencyMs, link.perTransferMbPerS);
    const bandwidth = Math.min(link.perTransferMbPerS, link.perHostMbPerS / perHost.get(t.host)!, link.totalMbPerS / moving);
    return transferMs(t.bytes, link.latencyMs, bandwidth);
  });
}
