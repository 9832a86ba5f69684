import type { LsmStorage, RunCursor } from './lsm-storage.ts';

/**
 * Runs kept in JS maps: the reference LsmStorage, for the deterministic simulation and for
 * tests that exercise the tree's logic without loading wasm. Byte counts are the UTF-16 length
 * (the wa-sqlite store counts UTF-8 bytes), which is close enough for ASCII keys.
 */
export class MemoryRunStore implements LsmStorage {
  readonly description = 'memory';
  #runs = new Map<number, string[]>();

  beginBatch(): void {}
  commitBatch(): void {}

  createRun(runId: number): void {
    if (this.#runs.has(runId)) throw new Error(`run ${runId} exists`);
    this.#runs.set(runId, []);
  }

  writeBlock(runId: number, blockNo: number, data: string): number {
    const blocks = this.#run(runId);
    if (blockNo !== blocks.length) throw new Error(`run ${runId}: block ${blockNo} written out of order`);
    blocks.push(data);
    return data.length;
  }

  readBlock(runId: number, blockNo: number): string {
    const data = this.#run(runId)[blockNo];
    if (data === undefined) throw new Error(`run ${runId} has no block ${blockNo}`);
    return data;
  }

  openCursor(runId: number): RunCursor {
    const blocks = this.#run(runId);
    let i = 0;
    return { next: () => blocks[i++], close: () => {} };
  }

  deleteRun(runId: number): void {
    this.#runs.delete(runId);
  }

  listRuns(): number[] {
    return [...this.#runs.keys()].sort((a, b) => a - b);
  }

  #run(runId: number): string[] {
    const blocks = this.#runs.get(runId);
    if (!blocks) throw new Error(`run ${runId} does not exist`);
    return blocks;
  }
}
