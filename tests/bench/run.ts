/**
 * `npm run bench`: speed figures as ratios measured side by side in one run, one JSON line per
 * figure. Never timed assertions: this prints, a person (or a later issue's CI step) reads.
 */
import { benchSimThroughput } from './sim-throughput.ts';
import { benchCheckpointOverhead } from './checkpoint-overhead.ts';
import { benchLsmBackend } from '../state/lsm-bench.ts';
import { benchIncrementalSize } from './incremental-size.ts';
import { benchStorageThroughput } from './storage-throughput.ts';
import { benchLiveThroughput } from './live-throughput.ts';

for (const bench of [benchSimThroughput, benchCheckpointOverhead]) {
  for (const figure of bench()) console.log(JSON.stringify(figure));
}
for (const figure of await benchLsmBackend()) console.log(JSON.stringify(figure));
for (const figure of await benchIncrementalSize()) console.log(JSON.stringify(figure));
// In headless Chromium: IndexedDB checkpoint storage against raw idb puts and gets of the same bytes.
for (const figure of await benchStorageThroughput()) console.log(JSON.stringify(figure));
// In headless Chromium: the live runtime (Web Worker TaskManagers) against the raw MessageChannel ceiling.
for (const figure of await benchLiveThroughput()) console.log(JSON.stringify(figure));
