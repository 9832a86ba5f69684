import { describe, expect, it } from 'vitest';
import { CostModelledStorage } from '../../engine/storage/cost-modelled-storage.ts';
import { MemoryCheckpointStorage } from '../../engine/storage/memory-checkpoint-storage.ts';
import { checkpointDirectory } from '../../engine/storage/checkpoint-layout.ts';

const LOCATION = { checkpointDir: 'file:///ckpt', jobId: 'job' };
const MiB = 1024 * 1024;

/** A fake clock: sleeps advance it at once and are recorded. */
function fakeClock() {
  const clock = { now: 0, sleeps: [] as number[] };
  const sleep = async (ms: number) => {
    clock.sleeps.push(ms);
    clock.now += ms;
  };
  return { clock, sleep };
}

function remote(options: { latencyMs?: number; bandwidthMbPerS?: number; parallelRequests?: number } = {}) {
  const { clock, sleep } = fakeClock();
  const inner = new MemoryCheckpointStorage({ location: LOCATION });
  const storage = new CostModelledStorage(inner, { latencyMs: options.latencyMs ?? 50, bandwidthMbPerS: options.bandwidthMbPerS ?? 100, ...(options.parallelRequests ? { parallelRequests: options.parallelRequests } : {}) }, sleep);
  return { clock, inner, storage };
}

describe('the cost-modelled (remote object store) decorator', () => {
  it('charges latency plus bytes over bandwidth for each request, on the injected clock', async () => {
    const { clock, storage } = remote();
    await storage.writeFile('file:///ckpt/job/chk-1/a', new Uint8Array(10 * MiB)); // 50 + 100 ms
    expect(clock.now).toBeCloseTo(150, 6);
    await storage.readFile('file:///ckpt/job/chk-1/a');
    expect(clock.now).toBeCloseTo(300, 6);
    await storage.readFile('file:///ckpt/job/chk-1/missing'); // a round trip that found nothing
    await storage.deleteFile('file:///ckpt/job/chk-1/missing');
    await storage.list('');
    expect(clock.now).toBeCloseTo(450, 6);
    await storage.usage(); // bookkeeping: free
    expect(clock.now).toBeCloseTo(450, 6);
    expect(storage.stats).toMatchObject({ requests: 5, bytesWritten: 10 * MiB, bytesRead: 10 * MiB, failedRequests: 0 });
    expect(storage.stats.sleptMs).toBeCloseTo(450, 6);
  });

  it('uploads a checkpoint with parallel requests sharing the bandwidth', async () => {
    const files = Array.from({ length: 8 }, (_, i) => ({ path: `file:///ckpt/job/chk-1/f${i}`, bytes: new Uint8Array(MiB) }));
    const serial = remote();
    await serial.storage.writeCheckpoint(1, files);
    expect(serial.clock.now).toBeCloseTo(8 * 50 + 80, 6);
    const parallel = remote({ parallelRequests: 4 });
    await parallel.storage.writeCheckpoint(1, files);
    expect(parallel.clock.now).toBeCloseTo(2 * 50 + 80, 6);
  });

  it('slow factor multiplies time; the write becomes visible only after its transfer', async () => {
    const { clock, storage, inner } = remote();
    storage.knobs.slowFactor = 10;
    let visibleBeforeSleepEnded = true;
    const slowStorage = new CostModelledStorage(inner, { latencyMs: 50, bandwidthMbPerS: 100 }, async (ms) => {
      clock.now += ms;
      visibleBeforeSleepEnded = (await inner.readFile('file:///ckpt/job/chk-1/x')) !== undefined;
    }, { slowFactor: 10 });
    await slowStorage.writeFile('file:///ckpt/job/chk-1/x', new Uint8Array(MiB));
    expect(clock.now).toBeCloseTo(10 * (50 + 10), 6);
    expect(visibleBeforeSleepEnded).toBe(false);
    expect(await storage.readFile('file:///ckpt/job/chk-1/x')).toHaveLength(MiB);
  });

  it('failing: writes and deletes fail with IO_EXCEPTION after their round trip, reads still work; turning it off heals', async () => {
    const { clock, storage, inner } = remote();
    await storage.writeFile('file:///ckpt/job/chk-1/_metadata', new Uint8Array(1));
    storage.knobs.failing = true;
    const t = clock.now;
    const error = await storage.writeCheckpoint(2, [{ path: 'file:///ckpt/job/chk-2/_metadata', bytes: new Uint8Array(1) }]);
    expect(clock.now).toBeGreaterThan(t);
    expect(error).toEqual({
      reason: 'IO_EXCEPTION',
      cause: 'injected',
      message:
        'Could not flush and close the file system output stream to file:///ckpt/job/chk-2/_metadata in order to obtain the stream state handle. ' +
        'Caused by: java.io.IOException: Injected I/O error: the remote checkpoint storage is failing',
    });
    expect((await storage.discardCheckpoint(1))?.message).toContain(`Could not delete ${checkpointDirectory(LOCATION, 1)}`);
    expect(await storage.deleteFile('file:///ckpt/job/chk-1/_metadata')).toMatchObject({ reason: 'IO_EXCEPTION' });
    expect(await storage.readFile('file:///ckpt/job/chk-1/_metadata')).toEqual(new Uint8Array(1));
    expect(await inner.list('')).toEqual([{ path: 'file:///ckpt/job/chk-1/_metadata', sizeBytes: 1 }]);
    expect(storage.stats.failedRequests).toBe(3);
    storage.knobs.failing = false;
    expect(await storage.writeFile('file:///ckpt/job/chk-2/_metadata', new Uint8Array(1))).toBeUndefined();
  });

  it('quota knob: sets the inner store’s quota, which fails the write with the quota message', async () => {
    const { storage, inner } = remote();
    storage.quotaBytes = MiB;
    expect(inner.quotaBytes).toBe(MiB);
    const error = await storage.writeFile('file:///ckpt/job/chk-1/big', new Uint8Array(2 * MiB));
    expect(error?.cause).toBe('quota-exceeded');
    expect(error?.message).toContain('The DiskSpace quota of file:///ckpt is exceeded: quota = 1048576 B = 1 MB but diskspace consumed = 2097152 B = 2 MB');
    expect(storage.stats.failedRequests).toBe(1);
    expect(() => (storage.quotaBytes = -1)).toThrow(RangeError);
  });

  it('takes its copy of the bytes when called, before the transfer time passes', async () => {
    let release: () => void = () => {};
    const inner = new MemoryCheckpointStorage({ location: LOCATION });
    const storage = new CostModelledStorage(inner, { latencyMs: 5, bandwidthMbPerS: 1 }, () => new Promise<void>((r) => (release = r)));
    const buffer = new Uint8Array([1, 2, 3]);
    const done = storage.writeCheckpoint(1, [{ path: 'file:///ckpt/job/chk-1/a', bytes: buffer }]);
    buffer.fill(0);
    release();
    expect(await done).toBeUndefined();
    expect(await inner.readFile('file:///ckpt/job/chk-1/a')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('rejects a nonsensical cost model', () => {
    const inner = new MemoryCheckpointStorage({ location: LOCATION });
    expect(() => new CostModelledStorage(inner, { latencyMs: -1, bandwidthMbPerS: 1 }, async () => {})).toThrow(RangeError);
    expect(() => new CostModelledStorage(inner, { latencyMs: 1, bandwidthMbPerS: 0 }, async () => {})).toThrow(RangeError);
    expect(() => new CostModelledStorage(inner, { latencyMs: 1, bandwidthMbPerS: 1, parallelRequests: 0 }, async () => {})).toThrow(RangeError);
  });
});
