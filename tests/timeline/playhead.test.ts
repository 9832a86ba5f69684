/** The timeline's playhead: pixels to virtual time, and where the keys take it. */
import { describe, expect, it } from 'vitest';
import { SEEK_STEP_MS, seekKeyTarget, timeAtX } from '../../web/timeline/playhead.ts';

describe('playhead', () => {
  it('maps a position on the axis to virtual time, within the run', () => {
    const domain = { from: 10_000, to: 20_000 };
    expect(timeAtX(12, 12, 1000, domain, 30_000)).toBe(10_000);
    expect(timeAtX(512, 12, 1000, domain, 30_000)).toBe(15_000);
    expect(timeAtX(2000, 12, 1000, domain, 18_000)).toBe(18_000);
    expect(timeAtX(-50, 12, 1000, { from: 0, to: 1000 }, 1000)).toBe(0);
  });

  it('steps by a second with the arrows, ten with Shift or the page keys, and jumps with Home and End', () => {
    expect(seekKeyTarget('ArrowLeft', false, 5000, 9000)).toBe(5000 - SEEK_STEP_MS);
    expect(seekKeyTarget('ArrowRight', false, 5000, 9000)).toBe(6000);
    expect(seekKeyTarget('ArrowRight', true, 5000, 9000, 60_000)).toBe(15_000);
    expect(seekKeyTarget('PageDown', false, 5000, 9000)).toBe(0);
    expect(seekKeyTarget('Home', false, 5000, 9000)).toBe(0);
    expect(seekKeyTarget('End', false, 5000, 9000, 60_000)).toBe(9000);
    expect(seekKeyTarget('ArrowRight', true, 5000, 9000)).toBe(9000);
    expect(seekKeyTarget('a', false, 5000, 9000)).toBeUndefined();
  });
});
