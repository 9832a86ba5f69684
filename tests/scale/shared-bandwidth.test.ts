import { describe, expect, it } from 'vitest';
import { sharedTransferMs } from '../../engine/scale/shared-bandwidth.ts';
import { transferMs } from '../../engine/storage/transfer-cost.ts';

const MB = 1024 * 1024;
const unlimited = { latencyMs: 50, perTransferMbPerS: 100, perHostMbPerS: Infinity, totalMbPerS: Infinity };

describe('transfers sharing bandwidth', () => {
  it('take the per-transfer time alone, as the record-level runtime charges them', () => {
    expect(sharedTransferMs([{ host: 'h', bytes: 100 * MB }], unlimited)).toEqual([transferMs(100 * MB, 50, 100)]);
  });

  it('split a host’s network between the transfers of that host only', () => {
    const [a, b, c] = sharedTransferMs(
      [
        { host: 'h0', bytes: 100 * MB },
        { host: 'h0', bytes: 100 * MB },
        { host: 'h1', bytes: 100 * MB },
      ],
      { ...unlimited, perHostMbPerS: 100 },
    );
    expect(a).toBeCloseTo(50 + 2000, 6);
    expect(b).toBeCloseTo(50 + 2000, 6);
    expect(c).toBeCloseTo(50 + 1000, 6);
  });

  it('give the store’s share of a finished small transfer to the large ones still moving', () => {
    const [small, large] = sharedTransferMs(
      [
        { host: 'h0', bytes: 1 * MB },
        { host: 'h1', bytes: 100 * MB },
      ],
      { ...unlimited, totalMbPerS: 100 },
    );
    // both at 50 MB/s until the small one ends after 20 ms, then the large one alone at 100 MB/s
    expect(small).toBeCloseTo(50 + 20, 6);
    expect(large).toBeCloseTo(50 + 20 + 990, 6);
  });
});
