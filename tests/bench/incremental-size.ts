import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import { lsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import { nodeLsmStorage } from '../../engine/cli/wa-sqlite-node.ts';
import type { BenchFigure } from './sim-throughput.ts';

const KEYS = 100_000;
const CHANGED_PER_INTERVAL = 1_000; // 1%
const CHECKPOINTS = 5;

/**
 * The checkpointed size of incremental checkpoints as a fraction of full ones, on the rocksdb
 * backend (wa-sqlite), when 1% of 100k keys change between checkpoints: each checkpoint is
 * confirmed before the next, as a completed checkpoint would be.
 */
export async function benchIncrementalSize(): Promise<BenchFigure[]> {
  const storage = await nodeLsmStorage();
  const backend = new LsmKeyedStateBackend({ start: 0, end: 127 }, storage('bench_incremental'), lsmOptions({ name: 'bench_incremental', writeBufferSizeBytes: 64 * 1024 }));
  for (let i = 0; i < KEYS; i++) backend.put('aggregate', i % 128, `key-${i}`, i);
  backend.notifyCheckpointComplete(snapshotAt(backend, 1).id);
  const fractions: number[] = [];
  for (let c = 2; c < 2 + CHECKPOINTS; c++) {
    for (let j = 0; j < CHANGED_PER_INTERVAL; j++) {
      const k = (c * 7919 + j * 104_729) % KEYS;
      backend.put('aggregate', k % 128, `key-${k}`, c * KEYS + j);
    }
    const s = snapshotAt(backend, c);
    fractions.push(s.checkpointedSize / s.fullSize);
    backend.notifyCheckpointComplete(c);
  }
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
  const median = [...fractions].sort((a, b) => a - b)[Math.floor(fractions.length / 2)]!;
  // A checkpoint right after a compaction uploads the rewritten runs (as RocksDB's do): the mean shows it.
  return [
    {
      figure: 'incremental_vs_full.checkpointed_size_ratio',
      value: round(median),
      unit: 'ratio (median)',
      aim: '<= 0.1',
      mean: round(mean),
      per_checkpoint: fractions.map(round),
      keys: KEYS,
      changed_per_interval: CHANGED_PER_INTERVAL,
    },
  ];
}

function snapshotAt(backend: LsmKeyedStateBackend, checkpointId: number): { id: number; checkpointedSize: number; fullSize: number } {
  const incremental = backend.snapshotIncremental(checkpointId);
  return { id: checkpointId, checkpointedSize: incremental.checkpointedSize, fullSize: incremental.stateSize };
}
