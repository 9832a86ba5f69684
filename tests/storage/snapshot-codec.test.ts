import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CompletedCheckpoint } from '../../engine/checkpoint/completed-checkpoint.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import {
  SnapshotCodecError,
  decodeCompletedCheckpoint,
  decodeTaskStateSnapshot,
  decodeValue,
  encodeCompletedCheckpoint,
  encodeTaskStateSnapshot,
  encodeValue,
} from '../../engine/storage/snapshot-codec.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { randomFaultJob } from '../support/random-fault-job.ts';

function roundTrip(value: unknown): unknown {
  return decodeValue(encodeValue(value));
}

describe('the snapshot codec', () => {
  it('round-trips what JSON cannot say: special numbers, undefined, bigint, Map, Set, Uint8Array, a "#" key', () => {
    const big = new Uint8Array(300_000).map((_, i) => (i * 31) & 0xff);
    const value = {
      numbers: [0, -0, 1.5, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, 5e-324],
      missing: undefined,
      holes: [1, undefined, 3],
      big: 12345678901234567890n,
      map: new Map<unknown, unknown>([
        [1, 'one'],
        ['1', 'string one'],
        [{ k: 'object key' }, [new Uint8Array([9])]],
        [undefined, null],
      ]),
      set: new Set([3, 1, 2, 'x']),
      bytes: new Uint8Array([0, 1, 255]),
      empty: new Uint8Array(0),
      view: big.subarray(1000, 1010),
      '#': 'a key that looks like a tag',
      nested: { '#': { '#': 'u' } },
      ['__proto__']: 'not a prototype',
      text: 'ünïcødé ✓ \u0000 \ud83d\ude00',
    };
    Object.defineProperty(value, '__proto__', { value: 'not a prototype', enumerable: true });
    const back = roundTrip(value) as typeof value;
    expect(back).toStrictEqual(value);
    expect(Object.is(back.numbers[1], -0)).toBe(true);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(back, '__proto__')).toBe(true);
    expect([...back.map.keys()]).toStrictEqual([...value.map.keys()]); // insertion order kept
    expect(back.view.byteLength).toBe(10);
    expect(back.view.buffer.byteLength).toBe(10); // a copy of just its bytes
    const large = roundTrip({ large: big }) as { large: Uint8Array };
    expect(Buffer.from(large.large).equals(Buffer.from(big))).toBe(true);
  });

  it('stores byte arrays raw, not as text: 1 MB of bytes costs ~1 MB', () => {
    const encoded = encodeValue({ run: new Uint8Array(1 << 20) });
    expect(encoded.byteLength).toBeLessThan((1 << 20) + 200);
  });

  it('round-trips arbitrary values (property test)', () => {
    const value = fc.anything({
      withMap: true,
      withSet: true,
      withBigInt: true,
      withBoxedValues: false,
      withDate: false,
      withNullPrototype: false,
      withObjectString: true,
      withTypedArray: false,
      withSparseArray: false,
      withUnicodeString: true,
    });
    fc.assert(
      fc.property(value, fc.uint8Array({ maxLength: 64 }), (v, bytes) => {
        const input = { v, bytes, inMap: new Map([[bytes, v]]) };
        expect(roundTrip(input)).toStrictEqual(input);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what it cannot round-trip exactly, naming where', () => {
    class Run {
      name = 'x';
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => encodeValue({ a: [new Run()] })).toThrow(new SnapshotCodecError('cannot encode a Run at $.a[0]'));
    expect(() => encodeValue({ f: () => 1 })).toThrow(/cannot encode function at \$\.f/);
    expect(() => encodeValue(new Float64Array(2))).toThrow(/cannot encode a Float64Array/);
    expect(() => encodeValue(new Date(0))).toThrow(/cannot encode a Date/);
    expect(() => encodeValue(cycle)).toThrow(/cycle at \$\.self/);
    // the same object twice is fine (two copies come back)
    const shared = { x: 1 };
    expect(roundTrip([shared, shared])).toStrictEqual([{ x: 1 }, { x: 1 }]);
  });

  it('rejects bytes that are not its format, truncated or of another document type', () => {
    expect(() => decodeValue(new TextEncoder().encode('{"a":1}'))).toThrow(/bad header/);
    const good = encodeValue({ a: new Uint8Array(100) });
    expect(() => decodeValue(good.subarray(0, 12))).toThrow(SnapshotCodecError);
    expect(() => decodeValue(good.subarray(0, good.byteLength - 50))).toThrow(/points outside the data/);
    expect(() => decodeTaskStateSnapshot(encodeValue({ format: 'completed-checkpoint', version: 1, body: {} }))).toThrow(/expected a task-state-snapshot document/);
    expect(() => decodeTaskStateSnapshot(encodeValue({ format: 'task-state-snapshot', version: 2, body: {} }))).toThrow(/version 2 is not supported/);
  });

  it('decodes a view onto a larger buffer (as IndexedDB or a network read may hand it over)', () => {
    const encoded = encodeValue({ n: [1, 2, 3], b: new Uint8Array([4, 5]) });
    const padded = new Uint8Array(encoded.byteLength + 16);
    padded.set(encoded, 7);
    expect(decodeValue(padded.subarray(7, 7 + encoded.byteLength))).toStrictEqual({ n: [1, 2, 3], b: new Uint8Array([4, 5]) });
  });
});

describe('the snapshot codec decoding with views (a file just read, which the reader owns)', () => {
  it('gives byte arrays that are views onto the bytes it decoded, not copies, and equal values', () => {
    const value = { run: new Uint8Array([1, 2, 3, 4, 5]), nested: [{ block: new Uint8Array(300).fill(7) }], n: 4 };
    const encoded = encodeValue(value);
    const viewed = decodeValue(encoded, { views: true }) as typeof value;
    expect(viewed).toStrictEqual(value);
    expect(viewed.run.buffer).toBe(encoded.buffer);
    expect(viewed.nested[0]!.block.buffer).toBe(encoded.buffer);
    const copied = decodeValue(encoded) as typeof value;
    expect(copied.run.buffer).not.toBe(encoded.buffer);
    expect(copied.run.buffer.byteLength).toBe(5);
  });

  it('still refuses a byte array that points outside the data', () => {
    const good = encodeValue({ a: new Uint8Array(100) });
    expect(() => decodeValue(good.subarray(0, good.byteLength - 50), { views: true })).toThrow(/points outside the data/);
  });
});

describe('the snapshot codec on real checkpoints of the simulation', () => {
  let lsmStorage: LsmStorageFactory;
  beforeAll(async () => {
    lsmStorage = await nodeLsmStorage();
  });

  /** Every checkpoint the run completed (up to 8), taken when it completed. */
  function completedCheckpoints(seed: number, rocksdb: boolean): CompletedCheckpoint[] {
    const base = randomFaultJob(seed, { mode: 'EXACTLY_ONCE', sink: 'two-phase-commit', unaligned: true });
    const scenario: Scenario = rocksdb
      ? { ...base, config: { ...base.config, 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true, 'state.backend.rocksdb.writebuffer.size': '16kb' } }
      : base;
    const sim = new Simulation(scenario, { lsmStorage });
    const seen: CompletedCheckpoint[] = [];
    while (seen.length < 8 && sim.step()) {
      const latest = sim.coordinator.store.getLatestCheckpoint();
      if (latest && latest !== seen.at(-1)) seen.push(latest);
    }
    return seen;
  }

  it('round-trips every task snapshot and completed checkpoint exactly (hashmap, and rocksdb incremental with shared runs)', () => {
    let snapshots = 0;
    let withSharedContents = 0;
    let checkpointCount = 0;
    for (const rocksdb of [false, true]) {
      for (let seed = 1; seed <= 5; seed++) {
        const checkpoints = completedCheckpoints(seed, rocksdb);
        checkpointCount += checkpoints.length;
        for (const checkpoint of checkpoints) {
          expect(decodeCompletedCheckpoint(encodeCompletedCheckpoint(checkpoint))).toStrictEqual(checkpoint);
          for (const snapshot of checkpoint.taskStates.values()) {
            const back: TaskStateSnapshot = decodeTaskStateSnapshot(encodeTaskStateSnapshot(snapshot));
            expect(back).toStrictEqual(snapshot);
            snapshots++;
            if (snapshot.sharedFiles?.some((f) => f.contents !== undefined)) withSharedContents++;
          }
        }
      }
    }
    expect(checkpointCount).toBeGreaterThan(10);
    expect(snapshots).toBeGreaterThan(30);
    expect(withSharedContents).toBeGreaterThan(0);
  });
});
