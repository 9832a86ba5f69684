/** `--until DURATION`, as `ckpt-lab run` and `ckpt-lab compare` read it: a Flink duration of job time, more than 0. */
import { parseDuration } from '../config/duration.ts';

/** The milliseconds `value` names, or what is wrong with it. */
export function readUntil(value: string): { ms: number } | { problem: string } {
  const d = parseDuration(value);
  if (!d.ok) return { problem: `--until must be a duration such as "500 ms", "10 s" or "2 min": ${d.message}` };
  if (d.ms <= 0) return { problem: `--until must be more than 0, got "${value}"` };
  return { ms: d.ms };
}
