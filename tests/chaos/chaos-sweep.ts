/**
 * Runs a range of chaos seeds and tallies them: faults injected and refused by kind, violations by
 * invariant, and for each failing seed its violations, the one command that replays it, the
 * scenario saved as a file `npx ckpt-lab run` loads (TigerBeetle's VOPR habit: a failure prints
 * its seed), the run's event trace, and a link that opens the same run in the playground paused
 * at its first violation. Shared by `npm run chaos`, `npm run soak` and the seeded-chaos test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { chaosCase } from '../../engine/chaos/chaos-case.ts';
import { runChaosCase } from '../../engine/chaos/chaos-run.ts';
import type { InvariantViolation } from '../../engine/run/invariants/invariant-checker.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import type { ChaosCase } from '../../engine/chaos/chaos-case.ts';
import { sharedRunLink } from '../../web/embed/shared-run.ts';

export const FAILING_SEEDS_DIR = 'test-artifacts/chaos';

export interface FailingSeed {
  seed: number;
  violations: InvariantViolation[];
  /** the scenario file written for it */
  file: string;
  replay: string;
  /** the run's event trace, one line per event the sim handled */
  trace: string;
  /** the playground (`npm start`) with this run, paused at its first violation */
  link: string;
  /** the fault kinds it injected, for the report */
  injected: Record<string, number>;
}

export interface ChaosTally {
  seeds: number;
  injected: Record<string, number>;
  notApplied: Record<string, number>;
  violations: Record<string, number>;
  failing: FailingSeed[];
  restarts: number;
  /** checkpoints completed over all seeds (for the progress line) */
  checkpoints: number;
  /** seeds by outcome: bounded FINISHED, unbounded RUNNING, other */
  finished: number;
  running: number;
  /** seeds whose failure-free run did not finish (or checkpoint after the faults) either: liveness not asked of them */
  livenessNotAsked: number;
  wallMs: number;
}

export function replayCommand(seed: number): string {
  return `npm run chaos -- --seeds 1 --from ${seed}`;
}

export function sweepChaos(from: number, seeds: number, options: { lsmStorage: LsmStorageFactory; onSeed?: (seed: number, tally: ChaosTally) => void }): ChaosTally {
  const started = performance.now();
  const tally: ChaosTally = { seeds: 0, injected: {}, notApplied: {}, violations: {}, failing: [], restarts: 0, checkpoints: 0, finished: 0, running: 0, livenessNotAsked: 0, wallMs: 0 };
  for (let seed = from; seed < from + seeds; seed++) {
    const c = chaosCase(seed);
    const result = runChaosCase(c, { lsmStorage: options.lsmStorage });
    tally.seeds++;
    tally.restarts += result.report.job.restarts;
    tally.checkpoints += (result.report.checkpoints as { counts: { completed: number } }).counts.completed;
    if (result.report.job.status === 'FINISHED') tally.finished++;
    if (result.report.job.status === 'RUNNING') tally.running++;
    if (!result.livenessAsked) tally.livenessNotAsked++;
    add(tally.injected, result.injected);
    add(tally.notApplied, result.notApplied);
    for (const v of result.violations) tally.violations[v.invariant] = (tally.violations[v.invariant] ?? 0) + 1;
    if (result.violations.length > 0) tally.failing.push(recordFailingSeed(c, result.violations, result.injected, options.lsmStorage));
    options.onSeed?.(seed, tally);
  }
  tally.wallMs = performance.now() - started;
  return tally;
}

/** Where `npm start` serves the playground; PLAYGROUND_URL names another. */
const PLAYGROUND_URL = process.env.PLAYGROUND_URL ?? 'http://127.0.0.1:5173/';

/**
 * What a failing seed leaves: its scenario (YAML `npx ckpt-lab run` loads), its trace (the seed run
 * again, deterministic, with the sim's trace on) and the link that opens it in the playground at
 * its first violation that has a time (the run's end when none has: the output is judged there).
 */
export function recordFailingSeed(c: ChaosCase, violations: InvariantViolation[], injected: Record<string, number>, lsmStorage: LsmStorageFactory): FailingSeed {
  mkdirSync(FAILING_SEEDS_DIR, { recursive: true });
  const file = `${FAILING_SEEDS_DIR}/seed-${c.seed}.yaml`;
  const yaml = stringify(c.document);
  writeFileSync(file, yaml);
  const lines: string[] = [];
  const again = runChaosCase(c, { lsmStorage, trace: (line) => lines.push(line) });
  const trace = `${FAILING_SEEDS_DIR}/seed-${c.seed}.trace.txt`;
  writeFileSync(trace, `${lines.join('\n')}\n`);
  const times = violations.flatMap((v) => (v.time === null ? [] : [v.time]));
  const link = sharedRunLink(PLAYGROUND_URL, yaml, c.operations, times.length > 0 ? Math.min(...times) : again.report.scenario.virtual_time_ms);
  writeFileSync(`${FAILING_SEEDS_DIR}/seed-${c.seed}.link.txt`, `${link}\n`);
  return { seed: c.seed, violations, file, replay: replayCommand(c.seed), injected, trace, link };
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}

/** A failing seed in a few lines: what broke, how to replay it, where the scenario is. */
export function describeFailingSeed(f: FailingSeed): string {
  const lines = f.violations.map((v) => `  ${v.invariant}${v.time === null ? '' : ` at ${Math.round(v.time)} ms`}: ${v.message}`);
  return [`seed ${f.seed} (faults: ${Object.entries(f.injected).map(([k, n]) => `${k}×${n}`).join(', ') || 'none applied'})`, ...lines, `  replay: ${f.replay}`, `  scenario: ${f.file} (npx ckpt-lab run ${f.file})`, `  trace: ${f.trace}`, `  open in the playground (npm start), paused at the violation: ${f.link}`].join('\n');
}

export function describeTally(t: ChaosTally): string {
  const kinds = (r: Record<string, number>) => Object.entries(r).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  return [
    `${t.seeds} seeds in ${(t.wallMs / 1000).toFixed(1)} s (${(t.wallMs / Math.max(1, t.seeds)).toFixed(0)} ms per seed); ${t.finished} finished, ${t.running} running at the end, ${t.restarts} restarts`,
    `liveness not asked of ${t.livenessNotAsked} seeds: their failure-free run did not finish or checkpoint after the faults either (a configuration Flink cannot make progress with)`,
    `faults injected: ${kinds(t.injected)}`,
    `refused when due: ${kinds(t.notApplied)}`,
    `violations: ${kinds(t.violations)}; failing seeds: ${t.failing.map((f) => f.seed).join(', ') || 'none'}`,
  ].join('\n');
}
