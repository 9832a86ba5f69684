import { describe, expect, it } from 'vitest';
import { keysForStateBytes, stateBytesOfKeys } from '../../engine/reproduce/model-state-keys.ts';
import { entrySizeBytes } from '../../engine/state/state-size.ts';

/** The independent oracle: every key's entry, summed one by one. */
function summed(keys: number): number {
  let bytes = 0;
  for (let i = 0; i < keys; i++) bytes += entrySizeBytes(`key-${i}`, 1);
  return bytes;
}

describe('the model’s key count for a state size', () => {
  it.each([1, 9, 10, 11, 99, 100, 101, 1_000, 12_345])('%i keys hold the bytes their entries sum to', (keys) => {
    expect(stateBytesOfKeys(keys)).toBe(summed(keys));
  });

  it.each([1, 21, 8_356, 28_275, 1_000_000])('the fewest keys reaching %i bytes reach it, one key fewer does not', (bytes) => {
    const keys = keysForStateBytes(bytes);
    expect(stateBytesOfKeys(keys)).toBeGreaterThanOrEqual(bytes);
    if (keys > 1) expect(stateBytesOfKeys(keys - 1)).toBeLessThan(bytes);
  });
});
