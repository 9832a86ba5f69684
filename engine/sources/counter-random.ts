/**
 * A counter-based random number: the same (seed, stream, counter) always gives the same number,
 * so a replayable source can produce record i without replaying records 0..i-1. The mixing is
 * SplitMix32-style finalisation of the three inputs.
 */
export function counterUniform(seed: number, stream: number, counter: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 0x632be5ab, 0xc2b2ae35);
  h = mix32(h ^ Math.imul(counter | 0, 0x27d4eb2f) ^ Math.imul(Math.floor(counter / 4294967296), 0x165667b1));
  h = mix32(h + 0x6d2b79f5);
  return (h >>> 0) / 4294967296;
}

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return x ^ (x >>> 16);
}
