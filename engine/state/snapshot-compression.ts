import { snappyCompress, snappyUncompress } from 'hysnappy';
import type { KeyedStateSnapshot, KeyGroupSnapshot } from './keyed-state-backend.ts';
import { containsKeyGroup, type KeyGroupRange } from './key-group-range.ts';

/** One key group, serialized and snappy-compressed on its own (so a rescale reads single groups). */
export interface CompressedKeyGroup {
  keyGroup: number;
  bytes: Uint8Array;
  rawLength: number;
}

/** A full snapshot as written with `execution.checkpointing.snapshot-compression: true`. */
export interface CompressedKeyedStateSnapshot {
  keyGroupRange: KeyGroupRange;
  compressedKeyGroups: CompressedKeyGroup[];
  /** bytes written: the compressed key groups */
  sizeBytes: number;
  /** bytes before compression, for the figures */
  uncompressedSizeBytes: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Flink's SnappyStreamCompressionDecorator: every key group of a full snapshot is compressed
 * separately with snappy. Incremental RocksDB snapshots are not affected (their SST files are
 * already compressed).
 */
export function compressSnapshot(snapshot: KeyedStateSnapshot): CompressedKeyedStateSnapshot {
  const compressedKeyGroups = snapshot.keyGroups.map((group) => {
    const raw = encoder.encode(JSON.stringify(group.states));
    return { keyGroup: group.keyGroup, bytes: snappyCompress(raw), rawLength: raw.length };
  });
  return {
    keyGroupRange: { ...snapshot.keyGroupRange },
    compressedKeyGroups,
    sizeBytes: compressedKeyGroups.reduce((n, g) => n + g.bytes.length, 0),
    uncompressedSizeBytes: snapshot.sizeBytes,
  };
}

/** Decompresses only the key groups in `range`: a rescaled subtask reads just its own. */
export function decompressSnapshot(snapshot: CompressedKeyedStateSnapshot, range: KeyGroupRange): KeyedStateSnapshot {
  const keyGroups: KeyGroupSnapshot[] = [];
  for (const g of snapshot.compressedKeyGroups) {
    if (!containsKeyGroup(range, g.keyGroup)) continue;
    const states = JSON.parse(decoder.decode(snappyUncompress(g.bytes, g.rawLength))) as KeyGroupSnapshot['states'];
    keyGroups.push({ keyGroup: g.keyGroup, states });
  }
  return { keyGroupRange: { ...snapshot.keyGroupRange }, keyGroups, sizeBytes: snapshot.uncompressedSizeBytes };
}

export function isCompressedSnapshot(snapshot: unknown): snapshot is CompressedKeyedStateSnapshot {
  return typeof snapshot === 'object' && snapshot !== null && 'compressedKeyGroups' in snapshot;
}
