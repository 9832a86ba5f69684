/**
 * The seam between `ckpt-lab check --live` and the browser that runs it. engine/ launches no
 * browser: the entry point (ckpt-lab.mjs) injects node/live-check.ts, which starts the app's dev
 * server and headless Chromium and runs each scenario on the live runtime (web/live/live-check.ts).
 * Dependencies point inward: node/ knows engine/, engine/ only knows this type.
 */
import type { ExpectationResult } from '../run/expectations.ts';
import type { ShowProgress } from './command-result.ts';

/** A scenario file that validated, as the user wrote it. */
export interface LiveCheckRequest {
  file: string;
  text: string;
}

/** One scenario on the live runtime: its expectations as checked at its run length (or once the job ended), or why it did not run. */
export type LiveCheckOutcome = { ran: true; expectations: ExpectationResult[] } | { ran: false; reason: string };

/**
 * Runs the scenarios one after the other in one browser; `unavailable` when there is no browser
 * to run them in (no Chromium, no playwright-core): nothing ran.
 */
export type LiveCheckRunner = (requests: readonly LiveCheckRequest[], showProgress?: ShowProgress) => Promise<{ outcomes: LiveCheckOutcome[] } | { unavailable: string }>;
