import type { JobClock } from './protocol.ts';

/**
 * Wall-clock time that every thread of a page agrees on: the time origin differs per worker, the
 * sum does not (to within the timer resolution).
 */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Job time (ms since the job started) at wall-clock time `wall`. */
export function jobTimeAt(clock: JobClock, wall: number): number {
  return clock.originJobMs + (wall - clock.originWallMs) * clock.speed;
}

/** Wall-clock time at which the job clock reads `jobTime`. */
export function wallTimeAt(clock: JobClock, jobTime: number): number {
  return clock.originWallMs + (jobTime - clock.originJobMs) / clock.speed;
}

/** A clock that reads `jobTime` now and runs at `speed` from here on. */
export function clockFrom(jobTime: number, speed: number, wall: number = wallNow()): JobClock {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
  return { originWallMs: wall, originJobMs: jobTime, speed };
}
