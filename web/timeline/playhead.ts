/**
 * The timeline's playhead, as numbers: which virtual time a position on the axis means, and where
 * a key press on the playhead (a slider) takes it. Pure, so it can be checked without a browser.
 */

/** Arrow keys move the playhead by this much; with Shift, and PageUp/PageDown, ten times as far. */
export const SEEK_STEP_MS = 1000;

export interface AxisDomain {
  from: number;
  to: number;
}

/** The virtual time at `x` (pixels from the plot's left edge, `left` being where `from` is drawn), within [0, max]. */
export function timeAtX(x: number, left: number, width: number, domain: AxisDomain, max: number): number {
  const time = domain.from + ((x - left) / Math.max(1, width)) * (domain.to - domain.from);
  return Math.round(Math.min(max, Math.max(0, time)));
}

/**
 * Where a key moves the playhead from `time` (ms), within [0, max] (past the recorded branch the
 * run simply goes on, up to its run length); undefined for a key the playhead does not handle.
 * Home and End go to the start and to `end`, how far the branch was run.
 */
export function seekKeyTarget(key: string, shift: boolean, time: number, end: number, max = end): number | undefined {
  const step = shift ? 10 * SEEK_STEP_MS : SEEK_STEP_MS;
  let target: number;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      target = time - step;
      break;
    case 'ArrowRight':
    case 'ArrowUp':
      target = time + step;
      break;
    case 'PageDown':
      target = time - 10 * SEEK_STEP_MS;
      break;
    case 'PageUp':
      target = time + 10 * SEEK_STEP_MS;
      break;
    case 'Home':
      target = 0;
      break;
    case 'End':
      target = end;
      break;
    default:
      return undefined;
  }
  return Math.min(max, Math.max(0, target));
}
