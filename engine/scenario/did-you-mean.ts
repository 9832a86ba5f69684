/**
 * The nearest valid name for a misspelt one, or nothing when no name is near enough to be a
 * plausible slip. Case is ignored, because `Parallelism` for `parallelism` is a slip too.
 */

import { closest, distance } from 'fastest-levenshtein';

/** Never suggest a name more than this many edits away, however long it is. */
const MAX_EDITS = 3;

const SEPARATORS = ['.', '_', '-'];

export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0 || input === '') return undefined;
  const wanted = input.toLowerCase();
  const lowered = candidates.map((c) => c.toLowerCase());
  const pick = (i: number) => (i >= 0 ? candidates[i] : undefined);
  return (
    pick(lowered.indexOf(wanted)) ??
    pick(extendedName(wanted, lowered)) ??
    pick(nearByEdits(wanted, lowered)) ??
    pick(uniquePart(wanted, lowered))
  );
}

/** A name with something added: `at_ms` for `at`, `…interval.ms` for `…interval`. */
function extendedName(wanted: string, lowered: string[]): number {
  const matches = lowered
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => SEPARATORS.some((sep) => wanted.startsWith(`${c}${sep}`)))
    .sort((a, b) => b.c.length - a.c.length);
  return matches[0]?.i ?? -1;
}

/** A part of exactly one longer name: `interval` for `execution.checkpointing.interval`. */
function uniquePart(wanted: string, lowered: string[]): number {
  const containing = lowered.flatMap((c, i) =>
    SEPARATORS.some((sep) => c.endsWith(`${sep}${wanted}`) || c.startsWith(`${wanted}${sep}`)) ? [i] : [],
  );
  return containing.length === 1 ? (containing[0] as number) : -1;
}

function nearByEdits(wanted: string, lowered: string[]): number {
  const swapped = lowered.findIndex((c) => isOneSwapAway(wanted, c));
  if (swapped >= 0) return swapped;
  const best = closest(wanted, lowered);
  return isPlausibleTypo(wanted, distance(wanted, best)) ? lowered.indexOf(best) : -1;
}

/** Two neighbouring letters swapped: one slip of the fingers, though Levenshtein counts two. */
function isOneSwapAway(a: string, b: string): boolean {
  if (a.length !== b.length || a.length < 2) return false;
  const differ = [...a].flatMap((char, i) => (char === b[i] ? [] : [i]));
  const [i, j] = differ;
  return differ.length === 2 && j === (i as number) + 1 && a[i as number] === b[j] && a[j] === b[i as number];
}

/**
 * Small relative to the length, and smaller than the last dotted segment: otherwise
 * `execution.checkpointing.foo` would "match" `execution.checkpointing.dir`.
 */
function isPlausibleTypo(input: string, edits: number): boolean {
  const allowed = Math.min(MAX_EDITS, Math.max(1, Math.floor(input.length / 4)));
  const lastSegment = input.slice(input.lastIndexOf('.') + 1);
  return edits <= allowed && edits < lastSegment.length;
}
