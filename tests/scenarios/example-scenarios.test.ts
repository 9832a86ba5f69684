import { beforeAll, describe, expect, it } from 'vitest';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import type { JobEvent } from '../../engine/run/job-events.ts';

const DIR = 'public/scenarios';
const files = readdirSync(DIR).filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('schema.json') && f !== 'index.json');

function load(file: string): Scenario {
  const text = parseScenarioText(readFileSync(join(DIR, file), 'utf8'));
  if (!text.ok) throw new Error(`${file}: ${JSON.stringify(text.errors)}`);
  const valid = validateScenario(text.value);
  if (!valid.ok) throw new Error(`${file}: ${JSON.stringify(valid.errors)}`);
  return valid.scenario;
}

/** For every consecutive pair: how long the first took, and the pause from its completion to the next trigger. */
function gapsBetweenCheckpoints(events: readonly JobEvent[]): Array<{ duration: number; gap: number }> {
  const pairs: Array<{ duration: number; gap: number }> = [];
  let last: { trigger: number; completion?: number } | undefined;
  for (const e of events) {
    if (e.type === 'checkpoint-triggered') {
      if (last?.completion !== undefined) pairs.push({ duration: last.completion - last.trigger, gap: e.time - last.completion });
      last = { trigger: e.time };
    }
    if (e.type === 'checkpoint-completed' && last) last.completion = e.time;
  }
  return pairs;
}

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

describe('the example scenarios', () => {
  it('includes the four checkpointing lessons', () => {
    for (const f of ['exactly-once-under-failures.yaml', 'at-least-once-duplicates.yaml', 'always-checkpointing.yaml', 'min-pause.yaml']) expect(files).toContain(f);
  });

  for (const file of files) {
    it(`${file} runs and every expectation it states holds`, () => {
      const { report } = runScenario(load(file), { lsmStorage });
      expect(report.expectations.length).toBeGreaterThan(0);
      for (const e of report.expectations) expect(e.held, `${file}: ${JSON.stringify(e)}`).toBe(true);
    }, 120_000);
  }

  it('shows no gap between consecutive checkpoints when they take longer than the interval', () => {
    const { simulation } = runScenario(load('always-checkpointing.yaml'), { lsmStorage });
    // Once the state has grown, checkpoints take longer than the 1 s interval, and the next one
    // starts the moment the previous completes: the job is always checkpointing.
    const slow = gapsBetweenCheckpoints(simulation.events).filter((p) => p.duration > 1000);
    expect(slow.length).toBeGreaterThanOrEqual(5);
    for (const { gap } of slow) expect(gap).toBeLessThan(1);
  }, 120_000);

  it('keeps at least the min pause between a completion and the next trigger, dropping early triggers', () => {
    const { simulation } = runScenario(load('min-pause.yaml'), { lsmStorage });
    const pairs = gapsBetweenCheckpoints(simulation.events);
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    for (const { gap } of pairs) expect(gap).toBeGreaterThanOrEqual(2000 - 1e-6);
    const drops = simulation.events.filter((e) => e.type === 'checkpoint-request-dropped' && e.reason === 'MINIMUM_TIME_BETWEEN_CHECKPOINTS');
    expect(drops.length).toBeGreaterThan(0);
    const counts = (simulation.coordinator.stats.checkpointingStatistics() as { counts: { failed: number } }).counts;
    expect(counts.failed).toBe(0); // a min-pause drop is not a failed checkpoint
  }, 120_000);
});
