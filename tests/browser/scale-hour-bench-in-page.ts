/**
 * Runs in the page (Chromium), imported through the Vite dev server by
 * tests/bench/scale-runtime-browser.ts: runs a scale scenario in a worker and counts the
 * main-thread tasks over 50 ms meanwhile (the page must stay responsive while the worker works).
 */
import type { ScaleHourReply, ScaleHourResult } from './scale-hour-bench.worker.ts';

export interface ScaleHourInPage extends ScaleHourResult {
  /** main-thread tasks over 50 ms from posting the scenario to the answer */
  longTasks: number;
  longestTaskMs: number;
}

export async function runScaleHour(scenarioText: string): Promise<ScaleHourInPage> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const worker = new Worker(new URL('./scale-hour-bench.worker.ts', import.meta.url), { type: 'module' });
  try {
    const result = await new Promise<ScaleHourResult>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<ScaleHourReply>) => (event.data.ok ? resolve(event.data.result) : reject(new Error(event.data.error)));
      worker.onerror = (event) => reject(new Error(event.message || 'the scale bench worker failed to start'));
      worker.postMessage(scenarioText);
    });
    return { ...result, longTasks: tasks.length, longestTaskMs: Math.max(0, ...tasks) };
  } finally {
    observer.disconnect();
    worker.terminate();
  }
}
