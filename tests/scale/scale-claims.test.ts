/**
 * The articles' claims about scale, as expectations of the scale runtime: more parallelism at a
 * fixed total state means shorter checkpoints per subtask; incremental uploads follow the churn
 * and full ones the state size; catch-up after a failure needs spare capacity and is faster the
 * more there is. Each figure is printed beside the claim it checks.
 */
import { describe, expect, it } from 'vitest';
import { ScaleRuntime } from '../../engine/scale/scale-runtime.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import { scaleScenario, type ScaleJob } from './scale-scenarios.ts';

interface LatestCompleted {
  end_to_end_duration: number;
  checkpointed_size: number;
  state_size: number;
}

function latestCheckpoint(job: ScaleJob): LatestCompleted {
  const runtime = new ScaleRuntime(scaleScenario(job));
  runtime.runToEnd();
  return (runtime.coordinator.stats.checkpointingStatistics() as { latest: { completed: LatestCompleted } }).latest.completed;
}

const base: ScaleJob = { parallelism: 50, hosts: 10, ratePerSubtask: 1000, countCostUs: 500, scale: { state_size: '200 gb' }, until: '3 min' };

describe('the articles’ claims in the scale runtime', () => {
  it('doubling the parallelism at a fixed total state roughly halves the checkpoint time', () => {
    const full = { 'execution.checkpointing.incremental': false };
    const at50 = latestCheckpoint({ ...base, config: full });
    const at100 = latestCheckpoint({ ...base, parallelism: 100, config: full });
    const ratio = at100.end_to_end_duration / at50.end_to_end_duration;
    console.log(`checkpoint at parallelism 50: ${at50.end_to_end_duration.toFixed(0)} ms, at 100: ${at100.end_to_end_duration.toFixed(0)} ms, ratio ${ratio.toFixed(3)}`);
    expect(ratio).toBeGreaterThan(0.45);
    expect(ratio).toBeLessThan(0.6);
  });

  it('incremental checkpoints upload in proportion to the churn, whatever the state size', () => {
    const churn = (perS: string, size: string) => latestCheckpoint({ ...base, scale: { state_size: size, state_churn_per_s: perS } }).checkpointed_size;
    const low = churn('10 mb', '200 gb');
    const high = churn('20 mb', '200 gb');
    const bigger = churn('10 mb', '400 gb');
    console.log(`incremental checkpointed size: churn 10 MB/s ${low}, 20 MB/s ${high}, 10 MB/s with twice the state ${bigger}`);
    expect(high / low).toBeCloseTo(2, 1);
    expect(bigger / low).toBeCloseTo(1, 2);
  });

  it('full checkpoints upload the whole state, in proportion to its size, whatever the churn', () => {
    const full = (size: string, perS: string) => latestCheckpoint({ ...base, config: { 'execution.checkpointing.incremental': false }, scale: { state_size: size, state_churn_per_s: perS } }).checkpointed_size;
    const small = full('200 gb', '10 mb');
    console.log(`full checkpointed size: 200 GB ${small}, 400 GB ${full('400 gb', '10 mb')}`);
    expect(full('400 gb', '10 mb') / small).toBeCloseTo(2, 2);
    expect(full('200 gb', '100 mb') / small).toBeCloseTo(1, 2);
  });

  it('catches up faster with more spare capacity, and never without any', () => {
    // capacity 1e6 / cost per subtask against 1,000 records/s in: spare capacity = capacity / rate − 1
    const catchUp = (countCostUs: number) =>
      runScenario(scaleScenario({ ...base, countCostUs, faults: [{ at: '90 s', type: 'kill-task-manager', task_manager: 'tm-0' }], until: '20 min' })).report.restores[0]!.catchUpMs;
    const spare = { '25%': catchUp(800), '100%': catchUp(500), '300%': catchUp(250), none: catchUp(1000) };
    console.log(`catch-up after a TaskManager kill by spare capacity: ${JSON.stringify(spare)}`);
    expect(spare['100%']!).toBeLessThan(spare['25%']!);
    expect(spare['300%']!).toBeLessThan(spare['100%']!);
    expect(spare.none).toBeNull();
  });
});
