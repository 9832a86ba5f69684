/**
 * The key space the scale runtime derives a records scenario's keyed state from, against the
 * records themselves: the sources' real splits read record by record, each key placed by Flink's
 * key-group assignment, each entry sized as the state backends size it.
 */
import { describe, expect, it } from 'vitest';
import { assignKeyToParallelOperator, assignToKeyGroup, computeOperatorIndexForKeyGroup } from '../../engine/keys/key-group-assignment.ts';
import { KeySpace, type KeyedSource } from '../../engine/scale/key-space.ts';
import { createSplit } from '../../engine/sources/create-split.ts';
import { compressSnapshot } from '../../engine/state/snapshot-compression.ts';
import { encodeBlock } from '../../engine/state/lsm/block-codec.ts';
import { MapOperator } from '../../engine/operators/map-operator.ts';
import { entrySizeBytes } from '../../engine/state/state-size.ts';

const MAX_PARALLELISM = 128;

function space(source: KeyedSource, sourceParallelism: number, parallelism: number): KeySpace {
  return new KeySpace(source, sourceParallelism, MAX_PARALLELISM, parallelism, (kg) => computeOperatorIndexForKeyGroup(MAX_PARALLELISM, parallelism, kg));
}

type SourceWithKeys = Exclude<KeyedSource, { kind: 'words' }>;

/** Per subtask: the bytes of one count entry per distinct key the splits' first `records` records carry. */
function stateOfRecords(source: SourceWithKeys, sourceParallelism: number, parallelism: number, records: number): number[] {
  const seen = new Set<string>();
  for (let s = 0; s < sourceParallelism; s++) {
    const split = createSplit(source, 7, s);
    for (let i = 0; i < records; i++) seen.add(split.recordAt(i).key);
  }
  const bytes = new Array<number>(parallelism).fill(0);
  for (const key of seen) bytes[assignKeyToParallelOperator(key, MAX_PARALLELISM, parallelism)]! += entrySizeBytes(key, 1);
  return bytes;
}

describe('the key space of a source', () => {
  const sequence: SourceWithKeys = { kind: 'sequence', keys: 5000, rate_per_s: 1000 };

  it('gives each subtask exactly the entries of the sequence keys its sources have read', () => {
    for (const records of [0, 1, 1234, 5000, 9000]) expect(space(sequence, 2, 3).stateBytes(records)).toEqual(stateOfRecords(sequence, 2, 3, records));
  });

  it('expects the distinct keys random records carry within 2% in all and 6% per subtask, skewed or not', () => {
    const sum = (bytes: number[]) => bytes.reduce((a, b) => a + b, 0);
    for (const skew of [0, 1.1]) {
      const random: SourceWithKeys = { kind: 'random', keys: 20_000, rate_per_s: 1000, skew, value_min: 1, value_max: 1 };
      const expected = space(random, 2, 4).stateBytes(10_000);
      const actual = stateOfRecords(random, 2, 4, 10_000);
      expect(Math.abs(sum(expected) - sum(actual)) / sum(actual)).toBeLessThan(0.02);
      // about a thousand keys per subtask: a few percent is the draw's own spread
      actual.forEach((bytes, subtask) => expect(Math.abs(expected[subtask]! - bytes) / bytes).toBeLessThan(0.06));
    }
  });

  it('counts the sequence keys written between two offsets once each, wrapping around the key space', () => {
    const keys = space(sequence, 1, 1);
    const all = keys.stateBytes(5000)[0]!;
    expect(keys.touchedBytes(4000, 6000)[0]).toBeCloseTo(keys.stateBytes(5000)[0]! - (keys.stateBytes(4000)[0]! - keys.stateBytes(1000)[0]!), 6);
    expect(keys.touchedBytes(100, 5100)[0]).toBeCloseTo(all, 6);
  });

  it('compresses a count’s snapshot within 10% of what snappy makes of the real records’ counts, per key group', () => {
    const random: SourceWithKeys = { kind: 'random', keys: 20_000, rate_per_s: 1000, skew: 0, value_min: 1, value_max: 1 };
    const counts = new Map<string, number>();
    for (let s = 0; s < 2; s++) {
      const split = createSplit(random, 7, s);
      for (let i = 0; i < 10_000; i++) counts.set(split.recordAt(i).key, (counts.get(split.recordAt(i).key) ?? 0) + 1);
    }
    const groups = new Map<number, Array<[string, number]>>();
    for (const [key, count] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const group = assignToKeyGroup(key, MAX_PARALLELISM);
      groups.set(group, [...(groups.get(group) ?? []), [key, count]]);
    }
    const real = [...groups].reduce((n, [keyGroup, entries]) => n + compressSnapshot({ keyGroupRange: { start: keyGroup, end: keyGroup }, keyGroups: [{ keyGroup, states: { aggregate: entries } }], sizeBytes: 0 }).sizeBytes, 0);
    const keys = space(random, 2, 1);
    const modelled = keys.stateBytes(10_000)[0]! * keys.compressionRatio('aggregate', 10_000)[0]!;
    expect(Math.abs(modelled - real) / real).toBeLessThan(0.1);
  });

  it('sizes the entries a memtable flush writes as the SST block codec encodes them, a key in every run it was written to', () => {
    const keys = space(sequence, 1, 1);
    const names = Array.from({ length: 1000 }, (_, i) => `key-${i}`);
    const encoded = encodeBlock(names.map((k) => assignToKeyGroup(k, MAX_PARALLELISM)), names, names.map(() => 1)).length;
    expect(Math.abs(keys.flushedSstBytes(0, 1000, Infinity)[0]! - encoded) / encoded).toBeLessThan(0.02);
    // two passes over 1,000 keys: one run holds each key once; a write buffer of half the keys
    // flushes four runs, each key in two of them
    const thousand = space({ kind: 'sequence', keys: 1000, rate_per_s: 1000 }, 1, 1);
    const once = thousand.flushedSstBytes(0, 2000, Infinity)[0]!;
    expect(once).toBeCloseTo(thousand.flushedSstBytes(0, 1000, Infinity)[0]!, 6);
    expect(thousand.flushedSstBytes(0, 2000, thousand.stateBytes(1000)[0]! / 2 + 1)[0]).toBeCloseTo(2 * once, -2);
  });

  it('holds the words a split-words map makes of the lines read so far, each word once, where its key group puts it', () => {
    const lines = ['To be or not to be', "that's the question", 'whether tis nobler'];
    const words = space({ kind: 'words', lines, rate_per_s: 10 }, 2, 2);
    const split = new MapOperator('split-words');
    for (const read of [0, 1, 2, 3, 7]) {
      const seen = new Set<string>();
      for (const line of lines.slice(0, Math.min(read, lines.length))) split.processRecord({ key: line, value: 1, timestamp: 0 }, 0, { collect: (r) => seen.add(r.key) });
      const expected = [0, 0];
      for (const word of seen) expected[assignKeyToParallelOperator(word, MAX_PARALLELISM, 2)]! += entrySizeBytes(word, 1);
      expect(words.stateBytes(read)).toEqual(expected);
    }
  });

  it('gives the subtask holding the hottest key the largest share of a skewed source, and even shares to a sequence', () => {
    const skewed = space({ kind: 'random', keys: 1000, rate_per_s: 1000, skew: 1.1, value_min: 1, value_max: 1 }, 1, 4);
    const hot = assignKeyToParallelOperator('key-0', MAX_PARALLELISM, 4);
    expect(Math.max(...skewed.recordShare)).toBe(skewed.recordShare[hot]);
    expect(skewed.recordShare.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    for (const share of space(sequence, 1, 4).recordShare) expect(share).toBeCloseTo(0.25, 1);
  });
});
