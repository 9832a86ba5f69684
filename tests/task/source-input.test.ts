import { describe, expect, it } from 'vitest';
import type { StreamRecord } from '../../engine/protocol.ts';
import { ReplayFeeder } from '../../engine/replay/replay-feeder.ts';
import type { SourceSplit } from '../../engine/sources/source-split.ts';
import { SourceInput, type SourceStep } from '../../engine/task/source-input.ts';

/** A split of `count` records at one record per millisecond; record i has event time 10·i. */
const split = (count = Infinity): SourceSplit => ({
  count,
  ratePerSecond: 1000,
  recordAt: (offset) => ({ key: `k${offset}`, value: offset, timestamp: 10 * offset }),
});

/** What the source put on its output, in order: record offsets (their value) and watermarks. */
type Emitted = number | `wm ${number}`;

/** A source input over a hand-made output that keeps what arrives; the output's room can be taken away. */
function source(o: { count?: number; autoWatermarkInterval?: number; replay?: ReplayFeeder } = {}) {
  const emitted: Emitted[] = [];
  const output = { available: true, collect: (r: StreamRecord) => emitted.push(r.value), emitWatermark: (w: number) => emitted.push(`wm ${w}`) };
  const input = new SourceInput(split(o.count), 0, { autoWatermarkInterval: o.autoWatermarkInterval ?? 200, recordsPerBuffer: 4 }, output);
  if (o.replay) input.replayWith(o.replay);
  return { input, output, emitted };
}

/** A source's recording: barriers as [checkpointId, offset] pairs, watermarks as [offset, barriers] pairs. */
const recorded = (barriers: number[], watermarks: number[]) =>
  new ReplayFeeder('source#0', { attempt: 0, vertex: 'source', subtask: 0, gates: [], barriers, aborts: [], watermarks }, []);

describe('SourceInput', () => {
  it.each<[string, { count?: number; restoreAt?: number }, number[], SourceStep[], Emitted[]]>([
    ['emits at most one buffer of the records available by now', {}, [10], [{ type: 'emitted', records: 4 }], [0, 1, 2, 3]],
    ['emits only what is available, then waits for the next record', {}, [1, 1], [{ type: 'emitted', records: 2 }, { type: 'idle', wakeAt: 2 }], [0, 1]],
    ['a bounded split ends once it was read to its end', { count: 3 }, [50, 50], [{ type: 'emitted', records: 3 }, { type: 'end-of-input' }], [0, 1, 2]],
    ['a restored source reads on from the checkpoint offset', { restoreAt: 5 }, [6], [{ type: 'emitted', records: 2 }], [5, 6]],
    ['a restored source that starts early waits for its offset', { restoreAt: 5 }, [2], [{ type: 'idle', wakeAt: 5 }], []],
  ])('%s', (_name, o, polls, steps, emitted) => {
    const s = source({ count: o.count });
    if (o.restoreAt !== undefined) s.input.restoreOffset(o.restoreAt);
    expect(polls.map((now) => s.input.poll(now, 0))).toEqual(steps);
    expect(s.emitted).toEqual(emitted);
  });

  it('emits nothing while the output has no room: the records wait', () => {
    const s = source();
    s.output.available = false;
    expect(s.input.poll(10, 0)).toEqual({ type: 'backpressured' });
    expect([s.emitted, s.input.offset]).toEqual([[], 0]);
  });

  it.each<[string, number, number[], Emitted[]]>([
    ["the periodic watermark is the highest timestamp seen − 1, and goes before the poll's records", Infinity, [3, 250], [0, 1, 2, 3, 'wm 29', 4, 5, 6, 7]],
    ['no watermark before the first interval passed', Infinity, [3, 199], [0, 1, 2, 3, 4, 5, 6, 7]],
    ['each interval sends the watermark of what was emitted since', Infinity, [3, 250, 450], [0, 1, 2, 3, 'wm 29', 4, 5, 6, 7, 'wm 69', 8, 9, 10, 11]],
    ['a watermark that would not advance does not go out', 4, [3, 250, 450], [0, 1, 2, 3, 'wm 29']],
  ])('%s', (_name, count, polls, emitted) => {
    const s = source({ count });
    for (const now of polls) s.input.poll(now, 0);
    expect(s.emitted).toEqual(emitted);
  });

  it('an idle source wakes for its periodic watermark only when one would advance', () => {
    const s = source({ count: 1 });
    expect(s.input.watermarkWakeAt).toBeUndefined();
    s.input.poll(0, 0);
    expect(s.input.watermarkWakeAt).toBe(200);
    // the watermark of its only record goes out: nothing newer is pending
    expect(s.input.poll(200, 0)).toEqual({ type: 'end-of-input' });
    expect(s.emitted).toEqual([0, 'wm -1']);
    expect(s.input.watermarkWakeAt).toBeUndefined();
  });

  it('ends with the max watermark exactly once', () => {
    const s = source({ count: 2 });
    s.input.poll(10, 0);
    expect([s.input.endInput(), s.input.endInput()]).toEqual([true, false]);
    expect(s.input.watermarkWakeAt).toBeUndefined();
  });

  it('counts the barriers it injected (a recording orders its watermarks against them); live, a barrier may go at once', () => {
    const s = source();
    s.input.barrierInjected();
    s.input.barrierInjected();
    expect(s.input.barriersInjected).toBe(2);
    expect(s.input.readyForBarrier(3)).toBe(true);
  });

  it('under replay emits up to the recorded watermark, sends it there, and stops at the recorded barrier', () => {
    const s = source({ replay: recorded([1, 6], [3, 0]) });
    const steps = [100, 100, 100, 100].map((now) => s.input.poll(now, 0));
    expect(steps).toEqual([{ type: 'emitted', records: 3 }, { type: 'emitted', records: 0 }, { type: 'emitted', records: 3 }, { type: 'idle', wakeAt: undefined }]);
    expect(s.emitted).toEqual([0, 1, 2, 'wm 19', 3, 4, 5]);
    // no periodic watermark under replay: it would wake for nothing
    expect(s.input.watermarkWakeAt).toBeUndefined();
  });

  it.each<[string, number, boolean]>([
    ['before the recorded offset', 2, false],
    ['at the recorded offset', 3, true],
  ])('under replay a triggered barrier waits for the recorded offset: %s', (_name, emitted, ready) => {
    const s = source({ replay: recorded([1, 3], []) });
    for (let i = 0; i < emitted; i++) s.input.poll(i, 0);
    expect(s.input.offset).toBe(emitted);
    expect(s.input.readyForBarrier(1)).toBe(ready);
  });

  it('under replay a barrier at the offset of a recorded watermark waits for that watermark first', () => {
    const s = source({ replay: recorded([1, 3], [3, 0]) });
    s.input.poll(100, 0);
    expect(s.input.readyForBarrier(1)).toBe(false);
    s.input.poll(100, 0);
    expect(s.emitted.at(-1)).toBe('wm 19');
    expect(s.input.readyForBarrier(1)).toBe(true);
  });
});
