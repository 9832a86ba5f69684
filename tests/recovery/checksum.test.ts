import { describe, expect, it } from 'vitest';
import { checksum, fnv1a32, stableJson } from '../../engine/recovery/checksum.ts';

describe('fnv1a32', () => {
  it.each([
    ['', '811c9dc5'],
    ['a', 'e40c292c'],
    ['foobar', 'bf9cf968'],
  ])('matches the published FNV-1a test vector for %j', (text, hash) => {
    expect(fnv1a32(text)).toBe(hash);
  });

  it('hashes UTF-8 bytes (é is c3 a9), not UTF-16 code units (e9)', () => {
    expect(fnv1a32('é')).toBe('1e9de8c1');
  });
});

describe('stableJson', () => {
  it('writes object keys in sorted order whatever order they were set in', () => {
    expect(stableJson({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,2]},"b":1}');
    expect(stableJson({ a: { c: 'x', d: [1, 2] }, b: 1 })).toBe(stableJson({ b: 1, a: { d: [1, 2], c: 'x' } }));
  });

  it('skips undefined fields and writes undefined array items as null, as JSON does', () => {
    expect(stableJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  });

  it.each<[string, unknown, unknown]>([
    ['Map entries', new Map([['k', 1]]), new Map([['k', 2]])],
    ['Set members', new Set([1]), new Set([2])],
    ['typed array bytes', new Uint8Array([1, 2]), new Uint8Array([1, 3])],
    ['NaN and Infinity', [Number.NaN], [Number.POSITIVE_INFINITY]],
    ['a bigint', { n: 1n }, { n: 2n }],
  ])('keeps %s that plain JSON would drop or merge', (_what, a, b) => {
    expect(stableJson(a)).not.toBe(stableJson(b));
  });

  it('writes a Map the same whatever order its entries were inserted in', () => {
    expect(stableJson(new Map([['a', 1], ['b', 2]]))).toBe(stableJson(new Map([['b', 2], ['a', 1]])));
  });

  it('refuses a cyclic value instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => stableJson(cyclic)).toThrow(/cycle/);
  });

  it('accepts the same object twice when it is not its own ancestor', () => {
    const shared = { x: 1 };
    expect(stableJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('checksum', () => {
  it('is the same for equal snapshots and differs when one value changes', () => {
    const a = { subtask: { vertexId: 'count', subtaskIndex: 0 }, stateSize: 10, checkpointedSize: 10, keyedState: { k: [1, 2, 3] } };
    const b = { checkpointedSize: 10, stateSize: 10, keyedState: { k: [1, 2, 3] }, subtask: { subtaskIndex: 0, vertexId: 'count' } };
    expect(checksum(a)).toBe(checksum(b));
    expect(checksum({ ...a, keyedState: { k: [1, 2, 4] } })).not.toBe(checksum(a));
  });
});
