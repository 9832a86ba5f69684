import { describe, expect, it } from 'vitest';
import type { IncrementalSnapshot } from '../../engine/state/lsm/incremental-snapshot.ts';
import { LsmKeyedStateBackend } from '../../engine/state/lsm/lsm-keyed-state-backend.ts';
import type { LsmOptions } from '../../engine/state/lsm/lsm-options.ts';
import type { RunContents } from '../../engine/state/lsm/sorted-run.ts';
import { waSqliteForThisFile } from './state-backend-factories.ts';

const RANGE = { start: 0, end: 127 };
const db = waSqliteForThisFile();

const SMALL: Partial<LsmOptions> = { writeBufferSizeBytes: 64 * 1024, blockSizeBytes: 4096 };

function backend(options: Partial<LsmOptions> = {}, range = RANGE): LsmKeyedStateBackend {
  return new LsmKeyedStateBackend(range, db.store(), { ...SMALL, ...options });
}

const keyOf = (i: number) => `user-${String(i).padStart(6, '0')}`;

/** Checkpoint storage as a test double: every run file uploaded, by name. */
class UploadedRuns {
  readonly files = new Map<string, RunContents>();
  uploadedBytes = 0;

  take(snap: IncrementalSnapshot): IncrementalSnapshot {
    for (const r of snap.newRuns) {
      expect(this.files.has(r.name) && this.files.get(r.name) !== r.contents ? 'duplicate' : 'ok').toBe('ok');
      this.files.set(r.name, r.contents);
      this.uploadedBytes += r.sizeBytes;
    }
    return snap;
  }

  contents(): Iterable<RunContents> {
    return this.files.values();
  }
}

describe('incremental snapshots', () => {
  it('upload a small fraction of the state when 1% of 100k keys changed', () => {
    const b = backend();
    const storage = new UploadedRuns();
    for (let i = 0; i < 100_000; i++) b.put('count', i % 128, keyOf(i), i);
    const first = storage.take(b.snapshotIncremental(1));
    b.notifyCheckpointComplete(1);
    expect(first.checkpointedSize).toBe(first.stateSize); // nothing to build on yet

    for (let i = 0; i < 100_000; i += 100) b.put('count', i % 128, keyOf(i), -i); // 1% of the keys
    const second = storage.take(b.snapshotIncremental(2));
    b.notifyCheckpointComplete(2);

    expect(second.stateSize).toBeGreaterThan(2_000_000);
    expect(second.checkpointedSize / second.stateSize).toBeLessThan(0.1);
    expect(second.sharedRuns.filter((r) => r.reused).length).toBeGreaterThan(0);
    expect(second.newRuns.length).toBeGreaterThan(0);
    expect(second.checkpointedSize).toBe(
      second.newRuns.reduce((n, r) => n + r.sizeBytes, 0) + second.privateStateSizeBytes,
    );
    expect(second.stateSize).toBe(second.sharedRuns.reduce((n, r) => n + r.sizeBytes, 0) + second.privateStateSizeBytes);

    // and the increment restores to exactly the state
    const restored = backend();
    restored.restoreIncremental(second.privateState, storage.contents());
    expect(restored.snapshot()).toEqual(b.snapshot());
  });

  it('build only on confirmed checkpoints: an aborted one does not move the base', () => {
    const b = backend({ writeBufferSizeBytes: 4096, level0CompactionTrigger: 1000 });
    for (let i = 0; i < 500; i++) b.put('count', i % 128, keyOf(i), i);
    const one = b.snapshotIncremental(1);
    b.notifyCheckpointComplete(1);
    const runsOfOne = new Set(one.sharedRuns.map((r) => r.name));

    for (let i = 0; i < 500; i++) b.put('count', i % 128, keyOf(i), i + 1);
    const two = b.snapshotIncremental(2);
    b.notifyCheckpointAborted(2);
    const newInTwo = two.newRuns.map((r) => r.name);
    expect(newInTwo.length).toBeGreaterThan(0);

    for (let i = 0; i < 10; i++) b.put('count', i % 128, keyOf(i), 0);
    const three = b.snapshotIncremental(3);
    // 2 was aborted: 3 builds on 1 and uploads 2's runs again
    expect(three.privateState.baseCheckpointId).toBe(1);
    for (const r of three.sharedRuns) expect(r.reused).toBe(runsOfOne.has(r.name));
    for (const name of newInTwo) expect(three.newRuns.map((r) => r.name)).toContain(name);
    expect(b.lastCompletedCheckpointId).toBe(1);
  });

  it('do not build on a pending checkpoint, only once it completes', () => {
    const b = backend({ writeBufferSizeBytes: 4096, level0CompactionTrigger: 1000 });
    for (let i = 0; i < 300; i++) b.put('count', i % 128, keyOf(i), i);
    const one = b.snapshotIncremental(1);
    const two = b.snapshotIncremental(2); // 1 still pending: no base
    expect(two.sharedRuns.every((r) => !r.reused)).toBe(true);
    expect(two.checkpointedSize).toBe(two.stateSize);
    b.notifyCheckpointComplete(1);
    const three = b.snapshotIncremental(3);
    expect(three.privateState.baseCheckpointId).toBe(1);
    expect(three.newRuns).toEqual([]);
    expect(three.checkpointedSize).toBe(three.privateStateSizeBytes);
    const runBytes = (snap: IncrementalSnapshot) => snap.sharedRuns.reduce((n, r) => n + r.sizeBytes, 0);
    expect(runBytes(three)).toBe(runBytes(one));
    // completing 3 subsumes 2: later increments build on 3
    b.notifyCheckpointComplete(3);
    b.notifyCheckpointComplete(2); // late and lower: ignored
    expect(b.lastCompletedCheckpointId).toBe(3);
  });

  it('restore from a chain of increments to exactly the state, and the next increment reuses the restored runs', () => {
    const b = backend({ writeBufferSizeBytes: 8192 });
    const storage = new UploadedRuns();
    let last: IncrementalSnapshot | undefined;
    for (let checkpoint = 1; checkpoint <= 8; checkpoint++) {
      for (let i = 0; i < 2000; i++) {
        const k = (i * 7919 + checkpoint * 31) % 5000;
        if (i % 9 === 0) b.delete('count', k % 128, keyOf(k));
        else b.put('count', k % 128, keyOf(k), { checkpoint, i });
      }
      b.put('_timer_service', 3, `${checkpoint}\u0000k`, checkpoint);
      last = storage.take(b.snapshotIncremental(checkpoint));
      b.notifyCheckpointComplete(checkpoint);
    }
    expect(b.metrics().compactionCount).toBeGreaterThan(0);
    const restored = backend({ writeBufferSizeBytes: 8192 });
    restored.restoreIncremental(last!.privateState, storage.contents());
    expect(restored.snapshot()).toEqual(b.snapshot());
    expect(restored.entryCount()).toBe(b.entryCount());
    expect(restored.stateSizeBytes()).toBe(b.stateSizeBytes());
    expect(restored.runs()).toEqual(b.runs());

    restored.put('count', 0, 'new', 1);
    const next = restored.snapshotIncremental(9);
    expect(next.privateState.baseCheckpointId).toBe(8);
    const restoredNames = new Set(last!.sharedRuns.map((r) => r.name));
    for (const r of next.sharedRuns) expect(r.reused, r.name).toBe(restoredNames.has(r.name));
    expect(next.sharedRuns.filter((r) => r.reused).length).toBeGreaterThan(0);
    expect(next.newRuns.every((r) => !last!.sharedRuns.some((s) => s.name === r.name))).toBe(true);
    // run ids continue after the restored ones: no file name is ever reused
    expect(Math.min(...next.newRuns.map((r) => r.runId))).toBeGreaterThanOrEqual(last!.privateState.nextRunId);
  });

  it('restore only the key groups of a narrower range when rescaling', () => {
    const b = backend({ writeBufferSizeBytes: 8192 });
    for (let i = 0; i < 3000; i++) b.put('count', i % 128, keyOf(i), i);
    for (let i = 0; i < 3000; i += 4) b.delete('count', i % 128, keyOf(i));
    const snap = b.snapshotIncremental(1);
    const runs = snap.newRuns.map((r) => r.contents);
    const left = backend({}, { start: 0, end: 63 });
    const right = backend({}, { start: 64, end: 127 });
    left.restoreIncremental(snap.privateState, runs);
    right.restoreIncremental(snap.privateState, runs);
    const full = b.snapshot();
    expect(left.snapshot().keyGroups).toEqual(full.keyGroups.filter((g) => g.keyGroup <= 63));
    expect(right.snapshot().keyGroups).toEqual(full.keyGroups.filter((g) => g.keyGroup >= 64));
    expect(left.entryCount() + right.entryCount()).toBe(b.entryCount());
    // and back: two narrow manifests into one wide backend
    const l = left.snapshotIncremental(2);
    const r = right.snapshotIncremental(2);
    const merged = backend();
    merged.restoreIncremental(l.privateState, l.newRuns.map((x) => x.contents));
    merged.restoreIncremental(r.privateState, r.newRuns.map((x) => x.contents));
    expect(merged.snapshot()).toEqual(full);
  });

  it.each([
    ['ROCKSDB', 'HEAP'],
    ['HEAP', 'ROCKSDB'],
  ] as const)('restore timers written with factory %s into a backend that uses %s', (from, to) => {
    const b = backend({ timerService: from, writeBufferSizeBytes: 4096 });
    for (let i = 0; i < 400; i++) b.put('_timer_service', i % 128, `${i}\u0000${keyOf(i)}`, i);
    for (let i = 0; i < 400; i++) b.put('count', i % 128, keyOf(i), i);
    const snap = b.snapshotIncremental(1);
    const restored = backend({ timerService: to, writeBufferSizeBytes: 4096 });
    restored.restoreIncremental(snap.privateState, snap.newRuns.map((r) => r.contents));
    expect(restored.snapshot()).toEqual(b.snapshot());
    expect(restored.entryCount()).toBe(800);
    expect(restored.stateSizeBytes()).toBe(b.stateSizeBytes());
    expect(restored.metrics().timersInLsm).toBe(to === 'ROCKSDB');
  });

  it('fail loudly when a run the manifest names was not uploaded', () => {
    const b = backend({ writeBufferSizeBytes: 4096 });
    for (let i = 0; i < 500; i++) b.put('count', i % 128, keyOf(i), i);
    const snap = b.snapshotIncremental(1);
    expect(() => backend().restoreIncremental(snap.privateState, snap.newRuns.slice(1).map((r) => r.contents))).toThrow(
      /contents of run .* are missing/,
    );
  });

  it('write heap timers in full with every checkpoint, while ROCKSDB timers ride in the runs', () => {
    const checkpointed = (timerService: 'HEAP' | 'ROCKSDB') => {
      const b = backend({ timerService, writeBufferSizeBytes: 16 * 1024 });
      const storage = new UploadedRuns();
      for (let i = 0; i < 5000; i++) b.put('_timer_service', i % 128, `${60_000 + i}\u0000${keyOf(i)}`, 60_000 + i);
      for (let i = 0; i < 5000; i++) b.put('count', i % 128, keyOf(i), i);
      storage.take(b.snapshotIncremental(1));
      b.notifyCheckpointComplete(1);
      for (let i = 0; i < 50; i++) b.put('count', i % 128, keyOf(i), -i);
      const two = storage.take(b.snapshotIncremental(2));
      return { b, two, storage, metrics: b.metrics() };
    };
    const heap = checkpointed('HEAP');
    const rocks = checkpointed('ROCKSDB');
    expect(heap.metrics.timersInLsm).toBe(false);
    expect(heap.two.privateState.heapState?.keyGroups.length).toBe(128);
    expect(rocks.two.privateState.heapState).toBeUndefined();
    expect(heap.two.privateStateSizeBytes).toBeGreaterThan(heap.metrics.heapTimerBytes);
    expect(heap.two.checkpointedSize).toBeGreaterThan(3 * rocks.two.checkpointedSize);
    // a restore brings the heap timers back
    const restored = backend({ timerService: 'HEAP' });
    restored.restoreIncremental(heap.two.privateState, heap.storage.contents());
    expect(restored.snapshot()).toEqual(heap.b.snapshot());
    expect(restored.metrics().heapTimerEntries).toBe(5000);
  });
});
