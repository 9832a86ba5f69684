/**
 * Run links (`#scenario=…&operations=<base64 JSON>&at=<ms>`, web/embed/shared-run.ts), as the
 * playground page reads its address: any `operations` and `at` give the run, or a ShareLinkError
 * whose message names the part and what it may hold — never another exception, a polluted
 * prototype, or an operation the JobMaster's types do not have.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeScenario, ShareLinkError } from '../../web/embed/share-link.ts';
import { MAX_SHARED_OPERATIONS, sharedRunFromHash } from '../../web/embed/shared-run.ts';
import { answersSafely, HOSTILE_NUMBERS, HOSTILE_STRINGS, hostileKey, hostileTree, InputCounter, runs, treeJson } from './fuzz-support.ts';

const counter = new InputCounter('run links (&operations=, &at=)');
const SCENARIO = `#scenario=${encodeScenario('version: 1\nname: x\n')}`;

function openRunLink(hash: string): void {
  answersSafely(() => {
    counter.count(hash);
    try {
      const run = sharedRunFromHash(hash);
      if (!run) return;
      expect(run.operations.length).toBeLessThanOrEqual(MAX_SHARED_OPERATIONS);
      for (const { at_ms, operation } of run.operations) {
        expect(Number.isFinite(at_ms) && at_ms >= 0).toBe(true);
        expect(['rescale', 'restart-from-savepoint', 'cancel']).toContain(operation.type);
        expect(Object.getPrototypeOf(operation)).toBe(Object.prototype);
      }
      if (run.atMs !== undefined) expect(Number.isFinite(run.atMs) && run.atMs >= 0).toBe(true);
    } catch (error) {
      expect(error).toBeInstanceOf(ShareLinkError);
      expect((error as Error).message).toMatch(/^(the link's (scenario|at|operations) |operation \d+ of the link: )/);
    }
  });
}

const operation = fc.record(
  {
    at_ms: fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.double(), fc.string({ maxLength: 6 })),
    operation: fc.oneof(
      fc.record({ type: fc.constantFrom('rescale', 'restart-from-savepoint', 'cancel', '__proto__', ''), vertex: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...HOSTILE_STRINGS)), parallelism: fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.integer()), savepoint: fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.integer()) }, { requiredKeys: ['type'] }),
      fc.dictionary(hostileKey, fc.string({ maxLength: 4 }), { maxKeys: 3 }),
    ),
  },
  { requiredKeys: [] },
);

describe('fuzzing run links', () => {
  it('reads any list of operator requests, well-formed or hostile, or says which one is wrong', () => {
    const list = fc.array(operation, { maxLength: 6 }).map((ops) => JSON.stringify(ops));
    const raw = fc.oneof(list, hostileTree.map(treeJson), fc.string({ maxLength: 30 }));
    fc.assert(fc.property(raw, (json) => openRunLink(`${SCENARIO}&operations=${encodeScenario(json)}`)), runs(400));
  });

  it('reads any at and any operations text, base64 or not', () => {
    const value = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_NUMBERS).map(String));
    fc.assert(fc.property(value, value, (at, ops) => openRunLink(`${SCENARIO}&at=${at}&operations=${ops}`)), runs(300));
  });

  it('refuses more operator requests than a link holds', () => {
    const many = JSON.stringify(Array.from({ length: MAX_SHARED_OPERATIONS + 1 }, (_, i) => ({ at_ms: i, operation: { type: 'cancel' } })));
    openRunLink(`${SCENARIO}&operations=${encodeScenario(many)}`);
    expect(() => sharedRunFromHash(`${SCENARIO}&operations=${encodeScenario(many)}`)).toThrow(/^the link's operations are not a base64url JSON list of at most 100/);
  });
});
