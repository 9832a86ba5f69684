/**
 * Runs in the page (Chromium), imported through the Vite dev server by tests/bench/lsm-opfs.ts:
 * starts the LSM-on-OPFS bench worker and hands back what it measured.
 */
import type { LsmOpfsBenchRequest, LsmOpfsBenchResult } from './lsm-opfs-bench.worker.ts';

export function runLsmOpfsBench(request: LsmOpfsBenchRequest): Promise<LsmOpfsBenchResult> {
  const worker = new Worker(new URL('./lsm-opfs-bench.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<LsmOpfsBenchResult>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ ok: true; result: LsmOpfsBenchResult } | { ok: false; error: string }>) => {
      if (event.data.ok) resolve(event.data.result);
      else reject(new Error(event.data.error));
    };
    worker.onerror = (event) => reject(new Error(event.message || 'the bench worker failed to start'));
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}
