/**
 * `ckpt-lab check --live`'s browser: starts the app's Vite dev server on 127.0.0.1, launches the
 * system Chromium headless through playwright-core (a fresh persistent profile: an incognito
 * context makes OPFS far slower), opens the live check page (web/live/live-check.ts) and runs each
 * scenario there on real Web Worker TaskManagers, one after the other.
 *
 * Node-only, outside engine/ (which launches nothing) and outside web/ (the browser bundle must
 * not pull in playwright): ckpt-lab.mjs hands runScenariosLive to engine/cli as a LiveCheckRunner.
 * playwright-core and vite are devDependencies: they are imported only here, when a live check
 * runs, so every other command works from an install without them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { LiveCheckOutcome, LiveCheckRequest, LiveCheckRunner } from '../engine/cli/live-check-runner.ts';
import { parseScenarioText, validateScenario } from '../engine/scenario/scenario-validator.ts';
import type { LiveCheckRun } from '../web/live/live-check.ts';
import { CHROMIUM_CANDIDATE_PATHS, findChromium } from './chromium-path.ts';
import { CHROMIUM_ARGS, startAppDevServer } from './app-dev-server.ts';


/** Wall ms the dev server may take to build the page on first load (it optimizes dependencies then). */
const PAGE_READY_MS = 180_000;
/** Wall ms a run may take beyond its run length (boot, restarts, the reference run, clean-up). */
const RUN_MARGIN_MS = 120_000;
/** Wall ms a run without a run length (it runs until the job ends) may take. */
const UNTIL_FINISHED_MS = 600_000;

export const runScenariosLive: LiveCheckRunner = async (requests, showProgress) => {
  let executablePath: string;
  try {
    executablePath = findChromium(process.env, CHROMIUM_CANDIDATE_PATHS, 'ckpt-lab check --live');
  } catch (error) {
    return { unavailable: (error as Error).message };
  }
  const tools = await browserTools();
  if ('unavailable' in tools) return tools;
  const server = await startAppDevServer(tools.createServer, 'error');
  const profileDir = await mkdtemp(join(tmpdir(), 'ckpt-lab-live-check-'));
  try {
    const context = await tools.chromium.launchPersistentContext(profileDir, { executablePath, headless: true, args: CHROMIUM_ARGS }).catch((error: Error) => error);
    // A browser that does not start is the machine's problem, not a bug: said like a missing one.
    if (context instanceof Error) return { unavailable: `Chromium at ${executablePath} did not start: ${context.message.split('\n')[0]}` };
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const outcomes: LiveCheckOutcome[] = [];
      for (const [i, request] of requests.entries()) {
        showProgress?.(`${request.file} (${i + 1} of ${requests.length}): running live in Chromium`);
        outcomes.push(await runOne(page, server.baseUrl, request));
      }
      return { outcomes };
    } finally {
      await context.close();
    }
  } finally {
    await rm(profileDir, { recursive: true, force: true });
    await server.server.close();
  }
};

/** playwright-core and vite, or why they cannot be loaded. */
async function browserTools(): Promise<{ chromium: typeof import('playwright-core').chromium; createServer: typeof import('vite').createServer } | { unavailable: string }> {
  try {
    const [{ chromium }, { createServer }] = await Promise.all([import('playwright-core'), import('vite')]);
    return { chromium, createServer };
  } catch (error) {
    return { unavailable: `needs the packages playwright-core and vite (devDependencies: run npm install in a checkout of the playground): ${(error as Error).message}` };
  }
}


/**
 * One scenario on a fresh load of the page, so nothing of the previous run (workers, timers) is
 * left; a run the page rejects, or one that overruns its time, did not run.
 */
async function runOne(page: Page, baseUrl: string, request: LiveCheckRequest): Promise<LiveCheckOutcome> {
  await page.goto(`${baseUrl}/live/live-check.html`);
  await page.waitForFunction(() => window.liveCheck !== undefined, null, { timeout: PAGE_READY_MS });
  const limitMs = wallLimitMs(request.text);
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<LiveCheckOutcome>((done) => {
    timer = setTimeout(() => done({ ran: false, reason: `it did not reach its run length or end within ${Math.round(limitMs / 1000)} s of wall-clock time` }), limitMs);
  });
  const run = page.evaluate((text) => window.liveCheck!.run(text), request.text).then(
    (r: LiveCheckRun): LiveCheckOutcome => ({ ran: true, expectations: r.expectations }),
    (error: Error): LiveCheckOutcome => ({ ran: false, reason: error.message.replace(/^page\.evaluate: (Error: )?/, '').split('\n')[0]! }),
  );
  try {
    return await Promise.race([run, overrun]);
  } finally {
    clearTimeout(timer);
  }
}

/** The wall-clock time a live run of the scenario may take: its run length at speed 1, and the margin. */
function wallLimitMs(text: string): number {
  const parsed = parseScenarioText(text);
  const valid = parsed.ok ? validateScenario(parsed.value) : undefined;
  const until = valid?.ok ? valid.scenario.run.until_ms : Infinity;
  return Number.isFinite(until) ? until + RUN_MARGIN_MS : UNTIL_FINISHED_MS;
}

