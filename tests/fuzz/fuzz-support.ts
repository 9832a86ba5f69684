/**
 * What every entry-point fuzzer shares: one fixed seed (fast-check prints it, with the shrunk
 * counterexample, on a failure), hostile values and texts, and the checks each input must pass —
 * no exception escapes, no polluted prototypes. Bounded time is not timed here (speed is for
 * `npm run bench`): the bounds are the refusals made before any parsing (text length, nesting
 * depth, value count, YAML aliases, problems read), each asserted by its own test; an input that
 * hung would fail its test at the test timeout. Each file counts the inputs it tried
 * and prints the count once (README, "Bad input").
 */
import fc from 'fast-check';
import { afterAll, expect } from 'vitest';

/** Issue 16's fuzzers all start from this seed: a failure replays with the same inputs. */
export const FUZZ_SEED = 16;

/** Keys that reach an object's prototype when an assignment or a merge is careless. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Strings that have broken parsers and pages: markup, bidi overrides, BOM, lone surrogates, NUL, huge figures. */
export const HOSTILE_STRINGS = [
  '</script><img src=x onerror=alert(1)>',
  '<!--',
  '{{constructor.constructor("alert(1)")()}}',
  '\u202Etxt.exe',
  '\uFEFF',
  '\uD800',
  '\uDFFF\uD800',
  '\u0000',
  '\u001b[31mred',
  '�',
  '1e308',
  '1e999',
  '-0',
  '9223372036854775807',
  'NaN',
  '10 parsecs',
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '单词计数',
];

export const HOSTILE_NUMBERS = [1e308, -1e308, 1.7976931348623157e308, 5e-324, 1e30, -1, -0, 0, 0.5, 2 ** 53, 2 ** 53 + 2, 2 ** 31, 2 ** 32, -(2 ** 63), 9223372036854775807];

export const hostileKey: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 12 }));

export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.boolean(),
  fc.constant(null),
);

/**
 * A JSON-like tree whose maps are lists of entries, so a key may appear twice and `__proto__`
 * stays an own key (a plain object literal would set the prototype instead).
 */
export type Tree = { scalar: unknown } | { list: Tree[] } | { entries: Array<[string, Tree]> };

export const hostileTree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar.map((scalar) => ({ scalar })),
    fc.array(tie('tree'), { maxLength: 4 }).map((list) => ({ list })),
    fc.array(fc.tuple(hostileKey, tie('tree')), { maxLength: 4 }).map((entries) => ({ entries })),
  ),
})).tree;

/** JSON text of a tree, keys repeated as they come. */
export function treeJson(tree: Tree): string {
  if ('scalar' in tree) return JSON.stringify(tree.scalar) ?? 'null';
  if ('list' in tree) return `[${tree.list.map(treeJson).join(',')}]`;
  return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${treeJson(value)}`).join(',')}}`;
}

/** The tree as a value, each key an own property (the last of repeated keys wins, as in JSON.parse). */
export function treeValue(tree: Tree): unknown {
  if ('scalar' in tree) return tree.scalar;
  if ('list' in tree) return tree.list.map(treeValue);
  const object: Record<string, unknown> = {};
  for (const [key, value] of tree.entries) Object.defineProperty(object, key, { value: treeValue(value), enumerable: true, writable: true, configurable: true });
  return object;
}

/** `n` levels of `{"a": …}` (JSON) or of `[` (YAML flow), around a number. */
export function deeplyNestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** Puts `insert` into `text` at a position and removes `remove` characters there. */
export const textEdit = fc.record({ at: fc.nat(), remove: fc.nat({ max: 8 }), insert: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('{', '}', '[', ']', ':', ',', '"', '\n', '  ', '- ', '&a ', '*a', '<<: ', '!!binary ', '\uFEFF', '__proto__: ', ...HOSTILE_STRINGS)) });

export function applyEdits(text: string, edits: ReadonlyArray<{ at: number; remove: number; insert: string }>): string {
  return edits.reduce((t, { at, remove, insert }) => {
    const i = at % (t.length + 1);
    return t.slice(0, i) + insert + t.slice(i + remove);
  }, text);
}

/** The prototypes a careless merge would write to, as they are before the fuzzing. */
const PRISTINE = [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) => Object.getOwnPropertyNames(p).sort());

/** No input may have added a property to a built-in prototype. */
export function expectNoPollution(): void {
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect([Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) => Object.getOwnPropertyNames(p).sort())).toEqual(PRISTINE);
}

/** Runs one input through an entry point: it answers without an exception and pollutes no prototype. */
export function answersSafely<T>(run: () => T): T {
  const result = run();
  expectNoPollution();
  return result;
}

/** The inputs a file tried, printed once when it is done. */
export class InputCounter {
  #tried = 0;

  constructor(entryPoint: string) {
    afterAll(() => console.log(`fuzz ${entryPoint}: ${this.#tried} inputs tried (seed ${FUZZ_SEED})`));
  }

  count<T>(value: T): T {
    this.#tried++;
    return value;
  }
}

/** fast-check's parameters for every fuzzer: the fixed seed and a counted number of runs. */
export function runs(numRuns: number): { seed: number; numRuns: number } {
  return { seed: FUZZ_SEED, numRuns };
}
