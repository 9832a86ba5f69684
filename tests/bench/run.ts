/**
 * `npm run bench`: speed figures as ratios measured side by side in one run, one JSON line per
 * figure. Never timed assertions: this prints, a person (or a later issue's CI step) reads.
 */
import { benchSimThroughput } from './sim-throughput.ts';

const figures = [...benchSimThroughput()];
for (const f of figures) console.log(JSON.stringify(f));
