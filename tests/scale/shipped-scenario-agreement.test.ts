/**
 * The scale runtime against the record-level sim on every shipped scenario small enough for both
 * (agreement-scope.ts says which, over which job time, and which figures are left out and why):
 * the same file run once moving every record and once as flows, its keyed state derived from its
 * keys (engine/scale/key-space-state.ts). Checkpoint durations and sizes (median and largest),
 * each restore's slowest subtask and each catch-up must agree within 15%; every figure's error,
 * and every scenario or figure left out with its reason, is printed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runReport, type RunReport } from '../../engine/run/run-report.ts';
import { ScaleRuntime } from '../../engine/scale/scale-runtime.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { agreementScope, type Figure } from './agreement-scope.ts';
import { loadShippedScenario, SHIPPED_SCENARIO_FILES } from '../support/shipped-scenarios.ts';

const TOLERANCE = 0.15;


const load = loadShippedScenario;
const shipped = SHIPPED_SCENARIO_FILES
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((file) => ({ file, scenario: load(file), scope: agreementScope(load(file)) }));
const compared = shipped.flatMap((s) => (s.scope.runs ? [{ ...s, scope: s.scope }] : []));

interface Figures {
  durations: number[];
  sizes: number[];
  /** per restore: its slowest subtask, ms (the job runs again once it has its state) */
  restoreMs: number[];
  /** per restore: restored → caught up, ms; null when the next failure came first */
  catchUpMs: Array<number | null>;
}

function figures(report: RunReport): Figures {
  const history = (report.checkpoints as { history: Array<{ status: string; end_to_end_duration: number; checkpointed_size: number }> }).history.filter((h) => h.status === 'COMPLETED');
  return {
    durations: history.map((h) => h.end_to_end_duration),
    sizes: history.map((h) => h.checkpointed_size),
    restoreMs: report.restores.map((r) => Math.max(...r.subtasks.map((s) => s.durationMs))),
    catchUpMs: report.restores.map((r) => r.catchUpMs),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function agree(file: string, what: string, recordLevel: number, flows: number): void {
  const error = Math.abs(flows - recordLevel) / recordLevel;
  console.log(`${file}: ${what}: records ${recordLevel.toFixed(1)}, scale ${flows.toFixed(1)}, error ${(error * 100).toFixed(1)}%`);
  expect(error, `${file}: ${what}`).toBeLessThanOrEqual(TOLERANCE);
}

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
  for (const { file, scope } of shipped) {
    if (!scope.runs) console.log(`${file}: left out: ${scope.reason}`);
    else if (scope.window) console.log(`${file}: ${scope.window}`);
  }
});

function run(scenario: Scenario, untilMs: number): { records: Figures; scale: Figures } {
  const within = { ...scenario, run: { until_ms: untilMs } };
  const simulation = new Simulation(within, { lsmStorage });
  simulation.runToEnd();
  // The same file in the scale runtime: without a `scale` section, its state comes from its keys.
  const scale = new ScaleRuntime({ ...within, runtime: 'scale' });
  scale.runToEnd();
  return { records: figures(runReport(simulation, { duplicates: 0, missing: 0 })), scale: figures(runReport(scale, { duplicates: 0, missing: 0 })) };
}

describe('the scale runtime agrees with the record-level sim within 15% on the shipped scenarios', () => {
  it('compares the shipped records scenarios small enough for both, and leaves out production-scale, which only the scale runtime can run', () => {
    expect(compared.map((s) => s.file)).toContain('local-recovery.yaml');
    // the fifteen records scenarios shipped with this test
    expect(compared.length).toBeGreaterThanOrEqual(15);
    expect(shipped.find((s) => s.file === 'production-scale.yaml')?.scope.runs).toBe(false);
  });

  it.each(compared)('on $file', ({ file, scenario, scope }) => {
    const { records, scale } = run(scenario, scope.untilMs);
    const left = (figure: Figure) => {
      const reason = scope.excluded[figure];
      if (reason) console.log(`${file}: ${figure} left out: ${reason}`);
      return reason !== undefined;
    };
    expect(scale.durations.length, `${file}: completed checkpoints`).toBe(records.durations.length);
    if (!left('checkpoint duration')) {
      agree(file, 'checkpoint end-to-end duration (median), ms', median(records.durations), median(scale.durations));
      agree(file, 'checkpoint end-to-end duration (largest), ms', Math.max(...records.durations), Math.max(...scale.durations));
    }
    if (!left('checkpointed size (median)')) agree(file, 'checkpointed size (median), bytes', median(records.sizes), median(scale.sizes));
    if (!left('checkpointed size (largest)')) agree(file, 'checkpointed size (largest), bytes', Math.max(...records.sizes), Math.max(...scale.sizes));
    expect(scale.restoreMs.length, `${file}: restores`).toBe(records.restoreMs.length);
    if (!left('restore time')) records.restoreMs.forEach((ms, i) => agree(file, `restore ${i + 1}, slowest subtask, ms`, ms, scale.restoreMs[i]!));
    if (!left('catch-up time')) {
      records.catchUpMs.forEach((ms, i) => {
        if (ms === null) return expect(scale.catchUpMs[i], `${file}: restore ${i + 1} never caught up before the next failure`).toBeNull();
        agree(file, `restore ${i + 1}, catch-up, ms`, ms, scale.catchUpMs[i] ?? Infinity);
      });
    }
  }, 120_000);
});
