/**
 * level_compaction_dynamic_file_size (RocksDB ≥ 7.8, on by default): a compaction cuts its
 * output files early where a file of the next level ends. The same workload with and without it
 * holds the same data, but with it fewer output boundaries fall inside a next-level file, and
 * compactions (and so the runs incremental checkpoints upload) rewrite fewer bytes.
 */
import { describe, expect, it } from 'vitest';
import { compareInternalKeys } from '../../engine/state/lsm/internal-key.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import { lsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { MemoryRunStore } from '../../engine/state/lsm/memory-run-store.ts';
import type { RunDescriptor } from '../../engine/state/lsm/sorted-run.ts';

const KEYS = 20_000;

/** Loads KEYS keys, then changes 1% of them per checkpoint for 20 checkpoints (as the incremental-size bench). */
function run(levelCompactionDynamicFileSize: boolean) {
  const backend = new LsmKeyedStateBackend({ start: 0, end: 127 }, new MemoryRunStore(), lsmOptions({ name: 'align', writeBufferSizeBytes: 16 * 1024, levelCompactionDynamicFileSize }));
  for (let i = 0; i < KEYS; i++) backend.put('aggregate', i % 128, `key-${i}`, i);
  let uploaded = backend.snapshotIncremental(1).checkpointedSize;
  backend.notifyCheckpointComplete(1);
  for (let c = 2; c < 22; c++) {
    for (let j = 0; j < KEYS / 100; j++) {
      const k = (c * 7919 + j * 104_729) % KEYS;
      backend.put('aggregate', k % 128, `key-${k}`, c * KEYS + j);
    }
    uploaded += backend.snapshotIncremental(c).checkpointedSize;
    backend.notifyCheckpointComplete(c);
  }
  const values = Array.from({ length: KEYS }, (_, k) => backend.get('aggregate', k % 128, `key-${k}`));
  return { backend, uploaded, values, runs: backend.runs() };
}

/** Boundaries between neighbouring files of `level` that fall inside one file of the level below. */
function straddledBoundaries(runs: readonly RunDescriptor[], level: number): { boundaries: number; straddled: number } {
  const files = runs.filter((r) => r.level === level && r.columnFamily === 'aggregate');
  const below = runs.filter((r) => r.level === level + 1 && r.columnFamily === 'aggregate');
  let straddled = 0;
  for (let i = 1; i < files.length; i++) {
    const left = files[i - 1]!;
    const right = files[i]!;
    if (below.some((b) => compareInternalKeys(b.minKeyGroup, b.minKey, left.maxKeyGroup, left.maxKey) <= 0 && compareInternalKeys(b.maxKeyGroup, b.maxKey, right.minKeyGroup, right.minKey) >= 0)) straddled++;
  }
  return { boundaries: Math.max(0, files.length - 1), straddled };
}

describe('compaction output aligned to the next level (level_compaction_dynamic_file_size)', () => {
  const aligned = run(true);
  const plain = run(false);

  it('holds exactly the same data either way', () => {
    expect(aligned.values).toEqual(plain.values);
    expect(aligned.backend.entryCount()).toBe(KEYS);
  });

  it('leaves fewer file boundaries inside a next-level file', () => {
    const a = straddledBoundaries(aligned.runs, 1);
    const p = straddledBoundaries(plain.runs, 1);
    expect(a.boundaries).toBeGreaterThan(0);
    expect(a.straddled / a.boundaries).toBeLessThan(p.straddled / Math.max(1, p.boundaries));
  });

  it('rewrites fewer bytes in compactions, so incremental checkpoints upload less', () => {
    expect(aligned.backend.stats.compactionBytesWritten).toBeLessThan(plain.backend.stats.compactionBytesWritten);
    expect(aligned.uploaded).toBeLessThan(plain.uploaded);
  });
});
