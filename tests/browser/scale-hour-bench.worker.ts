/**
 * The scale runtime's hour in a worker of headless Chromium, as the capacity planner runs its
 * sweep: parse and validate the scenario text, run it to its end, and say how long that took in
 * the worker. Started by scale-hour-bench-in-page.ts for tests/bench/scale-runtime-browser.ts.
 */
import { ScaleRuntime } from '../../engine/scale/scale-runtime.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';

export interface ScaleHourResult {
  wallMs: number;
  completedCheckpoints: number;
  restores: number;
}

export type ScaleHourReply = { ok: true; result: ScaleHourResult } | { ok: false; error: string };

const scope = self as unknown as { postMessage(reply: ScaleHourReply): void; onmessage: ((event: MessageEvent<string>) => void) | null };

scope.onmessage = (event) => {
  const text = parseScenarioText(event.data);
  const valid = text.ok ? validateScenario(text.value) : text;
  if (!valid.ok) {
    scope.postMessage({ ok: false, error: JSON.stringify(valid.errors) });
    return;
  }
  const start = performance.now();
  const runtime = new ScaleRuntime(valid.scenario);
  runtime.runToEnd();
  const wallMs = performance.now() - start;
  const counts = (runtime.coordinator.stats.checkpointingStatistics() as { counts: { completed: number } }).counts;
  scope.postMessage({ ok: true, result: { wallMs, completedCheckpoints: counts.completed, restores: runtime.restores.length } });
};
