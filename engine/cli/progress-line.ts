/**
 * The one line a long CLI run shows on a terminal while it runs (`ckpt-lab run`, `check`, and
 * `npm run chaos` / `soak`): how far the job got, its checkpoints and its restarts. English, as
 * the rest of `run` and `check` output (only `inspect` takes --lang).
 */
import type { RunProgress } from '../run/run-progress.ts';

export function runProgressLine(p: RunProgress): string {
  const time = p.untilMs === null ? `job time ${seconds(p.jobTimeMs)}` : `job time ${seconds(p.jobTimeMs)} of ${seconds(p.untilMs)}`;
  if (p.phase === 'reference') return `failure-free reference run: ${time}`;
  const checkpoints = `${count(p.completedCheckpoints, 'checkpoint', 'checkpoints')} completed, ${p.failedCheckpoints} failed`;
  return `${time}, ${checkpoints}, ${count(p.restarts, 'restart', 'restarts')}, job ${p.jobStatus}`;
}

/** A chaos sweep's line: seeds done of the range, failing seeds, and checkpoints and restarts so far. */
export function chaosProgressLine(p: { seed: number; done: number; of: number; failing: number; checkpoints: number; restarts: number }): string {
  const so = `${count(p.checkpoints, 'checkpoint', 'checkpoints')} completed, ${count(p.restarts, 'restart', 'restarts')}`;
  return `seed ${p.seed} (${p.done} of ${p.of}), ${count(p.failing, 'failing seed', 'failing seeds')}, ${so}`;
}

function count(n: number, one: string, other: string): string {
  return `${n} ${n === 1 ? one : other}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
