import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import { keyedCountJob } from '../support/scenario-builder.ts';
import { runSideBySide } from './sliced-side-by-side.ts';

function countJob(recordsPerSource: number, checkpointIntervalMs?: number): Simulation {
  const base = keyedCountJob({ keys: 50, rate: 1e9, count: recordsPerSource, parallelism: 2, countCostUs: 10 });
  return new Simulation(checkpointIntervalMs === undefined ? base : { ...base, config: { 'execution.checkpointing.interval': checkpointIntervalMs } });
}

describe('two simulations run side by side in turns', () => {
  it('runs both to their end, the longer one alone once the other finished', () => {
    const short = countJob(3_000);
    const long = countJob(20_000, 20);
    const times = runSideBySide(short, long);
    expect(short.job.status).toBe('FINISHED');
    expect(long.job.status).toBe('FINISHED');
    expect(short.sinkOutput.totalRecords).toBe(6_000);
    expect(long.sinkOutput.totalRecords).toBe(40_000);
    expect(long.events.some((e) => e.type === 'checkpoint-completed')).toBe(true);
    expect(Number.isFinite(times.aCpuMs) && Number.isFinite(times.bCpuMs)).toBe(true);
  });

  it('leaves each simulation where running it alone to its end leaves it', () => {
    const alone = countJob(10_000, 20);
    alone.runToEnd();
    const sideA = countJob(10_000, 20);
    const sideB = countJob(10_000);
    runSideBySide(sideA, sideB);
    expect(sideA.now).toBe(alone.now);
    expect(alone.events.some((e) => e.type === 'checkpoint-completed')).toBe(true);
    expect(sideA.events).toEqual(alone.events);
    expect(sideA.sinkOutput.totalRecords).toBe(alone.sinkOutput.totalRecords);
  });
});
