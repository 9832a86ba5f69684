/**
 * Runs a range of chaos seeds and tallies them: faults injected and refused by kind, violations by
 * invariant, and for each failing seed its violations, the one command that replays it, and the
 * scenario saved as a file `npx ckpt-lab run` loads (TigerBeetle's VOPR habit: a failure prints
 * its seed). Shared by `npm run chaos`, `npm run soak` and the seeded-chaos test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { chaosCase } from '../../engine/chaos/chaos-case.ts';
import { runChaosCase } from '../../engine/chaos/chaos-run.ts';
import type { InvariantViolation } from '../../engine/run/invariants/invariant-checker.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';

export const FAILING_SEEDS_DIR = 'test-artifacts/chaos';

export interface FailingSeed {
  seed: number;
  violations: InvariantViolation[];
  /** the scenario file written for it */
  file: string;
  replay: string;
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
    if (result.violations.length > 0) tally.failing.push({ seed, violations: result.violations, file: saveScenario(seed, c.document), replay: replayCommand(seed), injected: result.injected });
    options.onSeed?.(seed, tally);
  }
  tally.wallMs = performance.now() - started;
  return tally;
}

/** The failing seed's scenario, as YAML `npx ckpt-lab run` loads. */
function saveScenario(seed: number, document: Record<string, unknown>): string {
  mkdirSync(FAILING_SEEDS_DIR, { recursive: true });
  const file = `${FAILING_SEEDS_DIR}/seed-${seed}.yaml`;
  writeFileSync(file, stringify(document));
  return file;
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}

/** A failing seed in a few lines: what broke, how to replay it, where the scenario is. */
export function describeFailingSeed(f: FailingSeed): string {
  const lines = f.violations.map((v) => `  ${v.invariant}${v.time === null ? '' : ` at ${Math.round(v.time)} ms`}: ${v.message}`);
  return [`seed ${f.seed} (faults: ${Object.entries(f.injected).map(([k, n]) => `${k}×${n}`).join(', ') || 'none applied'})`, ...lines, `  replay: ${f.replay}`, `  scenario: ${f.file} (npx ckpt-lab run ${f.file})`].join('\n');
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
