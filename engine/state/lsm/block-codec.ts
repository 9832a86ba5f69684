import type { StateValue } from '../keyed-state-backend.ts';
import { TOMBSTONE, type LsmValue } from './internal-key.ts';

/**
 * A data block of a sorted run, as text: one mode character, then a JSON array of flat triples
 * `[keyGroup, key, value, keyGroup, key, value, …]`, a tombstone written as `null` (a state value
 * is never null).
 *
 * JSON cannot carry NaN, ±Infinity or -0, which state values may hold. A block with such a value
 * is written in mode `E`: those numbers become `{"\u0001n": "NaN"}`, and an object that happens to
 * have that single key is wrapped in `{"\u0001o": …}`. Every other block is plain JSON (mode
 * `J`) and parses at native speed. No compression: see the backend's doc comment.
 */
export type DecodedBlock = readonly unknown[];

const PLAIN = 'J';
const ESCAPED = 'E';
const NUM = '\u0001n';
const OBJ = '\u0001o';

export function encodeBlock(keyGroups: readonly number[], keys: readonly string[], values: readonly LsmValue[]): string {
  const flat: unknown[] = new Array(keys.length * 3);
  let escaped = false;
  for (let i = 0; i < keys.length; i++) {
    const v = values[i]!;
    if (v !== TOMBSTONE && !escaped && needsEscape(v)) escaped = true;
    flat[3 * i] = keyGroups[i];
    flat[3 * i + 1] = keys[i];
    flat[3 * i + 2] = v === TOMBSTONE ? null : v;
  }
  if (!escaped) return PLAIN + JSON.stringify(flat);
  for (let i = 2; i < flat.length; i += 3) if (flat[i] !== null) flat[i] = escape(flat[i] as StateValue);
  return ESCAPED + JSON.stringify(flat);
}

export function decodeBlock(text: string): DecodedBlock {
  const flat = JSON.parse(text.slice(1)) as unknown[];
  if (text[0] === ESCAPED) for (let i = 2; i < flat.length; i += 3) flat[i] = unescape(flat[i]);
  else if (text[0] !== PLAIN) throw new Error(`not a block (mode ${JSON.stringify(text[0])})`);
  return flat;
}

/** Entries in a decoded block. */
export function blockEntryCount(block: DecodedBlock): number {
  return block.length / 3;
}

export function blockKeyGroup(block: DecodedBlock, i: number): number {
  return block[3 * i] as number;
}

export function blockKey(block: DecodedBlock, i: number): string {
  return block[3 * i + 1] as string;
}

export function blockValue(block: DecodedBlock, i: number): LsmValue {
  const v = block[3 * i + 2];
  return v === null ? TOMBSTONE : (v as StateValue);
}

function needsEscape(v: StateValue): boolean {
  if (typeof v === 'number') return !Number.isFinite(v) || Object.is(v, -0);
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(needsEscape);
  for (const k in v) if (Object.hasOwn(v, k) && needsEscape((v as Record<string, StateValue>)[k]!)) return true;
  return false;
}

function escape(v: StateValue): unknown {
  if (typeof v === 'number') {
    return Number.isFinite(v) && !Object.is(v, -0) ? v : { [NUM]: Object.is(v, -0) ? '-0' : String(v) };
  }
  if (typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(escape);
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v);
  for (const k of keys) define(out, k, escape((v as Record<string, StateValue>)[k]!));
  return keys.length === 1 && (keys[0] === NUM || keys[0] === OBJ) ? { [OBJ]: out } : out;
}

function unescape(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = unescape(v[i]);
    return v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === NUM) return Number(o[NUM]);
  const target = keys.length === 1 && keys[0] === OBJ ? (o[OBJ] as Record<string, unknown>) : o;
  for (const k of Object.keys(target)) define(target, k, unescape(target[k]));
  return target;
}

/** Sets an own property, also for the key `__proto__` (plain assignment would set the prototype). */
function define(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
