import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's `gc()`, which `node --expose-gc` gives and `npm run bench` (plain tsx) does not: the flag
 * set at run time shows `gc` in contexts made after it. A bench calls it where it wants garbage
 * collected at a known moment, so that one measured run does not pay for another's garbage.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/** A full collection: the old generation too (before runs, so none starts with another's heap). */
export function collectAllGarbage(): void {
  gc({ type: 'major' });
}

/** A scavenge of the young generation: what the last slice allocated and dropped. */
export function collectYoungGarbage(): void {
  gc({ type: 'minor' });
}
