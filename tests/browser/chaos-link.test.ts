/**
 * A failing chaos seed's link (tests/chaos/chaos-sweep.ts writes one) opens the very run in the
 * playground, paused at the violation: the page's sim, given the seed's scenario, its operator
 * requests and the time, stands where the chaos runner's sim stood, fault for fault.
 */
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chaosCase } from '../../engine/chaos/chaos-case.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { runReport } from '../../engine/run/run-report.ts';
import { sharedRunLink } from '../../web/embed/shared-run.ts';
import { en } from '../../web/i18n/messages.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';

/** Seed 69: keyed counts rescaled at 111 and 565 ms among thirteen faults; 2 s is past both. */
const SEED = 69;
const AT_MS = 2000;

/** What both runs are compared on: the faults, restores, restarts, checkpoint counts and output so far. */
function essentials(report: Pick<ReturnType<typeof runReport>, 'faults' | 'restores' | 'job' | 'checkpoints' | 'output' | 'scenario'>) {
  const counts = (report.checkpoints as { counts: Record<string, number> }).counts;
  return {
    time: report.scenario.virtual_time_ms,
    faults: report.faults,
    restores: report.restores.map((r) => ({ time: r.time, checkpointId: r.checkpointId, isSavepoint: r.isSavepoint, subtasks: r.subtasks.length })),
    job: report.job,
    counts,
    records: report.output.totalRecords,
  };
}

describe('a chaos seed opened from its link', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ locale: 'en-US' });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('stands paused where the chaos runner was at that time, with the same faults, rescales, restores and checkpoints', async () => {
    const c = chaosCase(SEED);
    const sim = new Simulation(c.scenario, { operations: c.operations });
    sim.runUntil(AT_MS);
    const expected = essentials(runReport(sim, { duplicates: 0, missing: 0 }));
    expect(expected.faults.filter((f) => f.applied && f.description.includes('rescale')).length).toBe(2);
    expect(expected.restores.length).toBeGreaterThanOrEqual(2);

    const page = session.page;
    await page.goto(sharedRunLink(`${session.baseUrl}/`, stringify(c.document), c.operations, AT_MS));
    await expect
      .poll(() => page.evaluate(() => window.playground!.status().then((s) => [s.scenario?.name, s.time, s.running])), { timeout: 60_000 })
      .toEqual([`chaos seed ${SEED}`, AT_MS, false]);
    const shown = essentials(await page.evaluate(() => window.playground!.stats()));
    expect(shown).toEqual(expected);
    // paused, as a seek leaves it: Run goes on from here
    await expect(page.getByRole('button', { name: en['controls.run'], exact: true }).isEnabled()).resolves.toBe(true);
    expect(session.errors).toEqual([]);
  });
});
