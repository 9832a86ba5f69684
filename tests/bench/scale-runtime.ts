/**
 * The scale runtime's speed (issue 15): wall time of one hour of job time for the shipped
 * production-scale scenario (parallelism 1,000 on 100 hosts, 1 TB of keyed state, checkpoints
 * every minute, a TaskManager kill and a host loss; aim under 10 s in Node), and the wall time
 * per simulated hour as the parallelism grows from 10 to 10,000 with the same faults, whose cost
 * per subtask must not grow (the ratio of the cost per subtask at 10,000 to that at 1,000).
 */
import { readFileSync } from 'node:fs';
import { ScaleRuntime } from '../../engine/scale/scale-runtime.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { scaleScenario } from '../scale/scale-scenarios.ts';
import { median } from './median.ts';
import type { BenchFigure } from './sim-throughput.ts';

const ROUNDS = 3;
const PARALLELISMS = [10, 100, 1000, 10_000];

function shippedScenario(): Scenario {
  const text = parseScenarioText(readFileSync('public/scenarios/production-scale.yaml', 'utf8'));
  const valid = text.ok ? validateScenario(text.value) : text;
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  return valid.scenario;
}

/** An hour at `parallelism`, ten subtask indexes per host, 1 GB of state per keyed subtask, a kill and a host loss. */
function sweepScenario(parallelism: number): Scenario {
  return scaleScenario({
    parallelism,
    hosts: Math.max(2, parallelism / 10),
    ratePerSubtask: 2000,
    countCostUs: 250,
    scale: { state_size: `${parallelism} gb`, state_churn_per_s: `${parallelism} mb` },
    faults: [
      { at: '20 min', type: 'kill-task-manager', task_manager: 'tm-0' },
      { at: '40 min', type: 'lose-host', host: 'host-1' },
    ],
    until: '1 h',
  });
}

/** Median wall ms of running `scenario` to its end. */
function wallMs(scenario: Scenario): { ms: number; checkpoints: number; restores: number } {
  const runs: number[] = [];
  let last: ScaleRuntime | undefined;
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    last = new ScaleRuntime(scenario);
    last.runToEnd();
    runs.push(performance.now() - start);
  }
  const counts = (last!.coordinator.stats.checkpointingStatistics() as { counts: { completed: number } }).counts;
  return { ms: median(runs), checkpoints: counts.completed, restores: last!.restores.length };
}

export function* benchScaleRuntime(): Generator<BenchFigure> {
  const shipped = wallMs(shippedScenario());
  yield { figure: 'scale_hour_p1000_1tb.wall_s', value: Math.round(shipped.ms) / 1000, unit: 's', completed_checkpoints: shipped.checkpoints, restores: shipped.restores, rounds: ROUNDS };
  const perSubtask = new Map<number, number>();
  for (const parallelism of PARALLELISMS) {
    const run = wallMs(sweepScenario(parallelism));
    perSubtask.set(parallelism, run.ms / (3 * parallelism));
    yield { figure: `scale_hour_p${parallelism}.wall_ms`, value: Math.round(run.ms), unit: 'ms', subtasks: 3 * parallelism, completed_checkpoints: run.checkpoints, restores: run.restores, aim: 'informational' };
  }
  const growth = perSubtask.get(10_000)! / perSubtask.get(1000)!;
  yield { figure: 'scale_cost_per_subtask_p10000_vs_p1000.ratio', value: Math.round(growth * 100) / 100, unit: 'ratio', note: 'wall time per subtask at parallelism 10,000 over that at 1,000: at most 1 when the cost grows no faster than linearly' };
}
