import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HeapKeyedStateBackend } from '../../engine/state/heap-keyed-state-backend.ts';
import type { KeyedStateSnapshot, KeyGroupSnapshot, StateValue } from '../../engine/state/keyed-state-backend.ts';
import { entrySizeBytes } from '../../engine/state/state-size.ts';
import { decodeValue, encodeValue } from '../../engine/storage/snapshot-codec.ts';

/**
 * The heap backend's snapshots are copy-on-write (Flink's CopyOnWriteStateMap): a snapshot keeps
 * the key-group maps it saw and the backend copies a map before writing to it again. Checked
 * against an independent model: every snapshot must equal a deep copy taken at the same moment,
 * whatever is written afterwards, whether it is read at once, later, or never until the end.
 */
const RANGE = { start: 8, end: 15 };

type Command =
  | { op: 'put'; state: string; keyGroup: number; key: string; value: StateValue }
  | { op: 'delete'; state: string; keyGroup: number; key: string }
  | { op: 'snapshot'; readNow: boolean };

/** state → key group → key → value, in first-write order as the backend keeps its states */
type Model = Map<string, Map<number, Map<string, StateValue>>>;

// Key groups 6, 7 and 16 lie outside the range: the backend keeps those apart, and they must be copied on write too.
const keyGroup = fc.integer({ min: 6, max: 16 });
const state = fc.constantFrom('count', 'sum', 'window');
const key = fc.constantFrom('a', 'b', 'c', 'key-1', 'key-2', 'key\u0000100');
const value: fc.Arbitrary<StateValue> = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.record({ count: fc.integer(), last: fc.integer() }));
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('put' as const), state, keyGroup, key, value }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), state, keyGroup, key }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('snapshot' as const), readNow: fc.boolean() }) },
);

function apply(model: Model, c: Exclude<Command, { op: 'snapshot' }>): void {
  let groups = model.get(c.state);
  if (c.op === 'delete') {
    groups?.get(c.keyGroup)?.delete(c.key);
    return;
  }
  if (!groups) model.set(c.state, (groups = new Map()));
  let group = groups.get(c.keyGroup);
  if (!group) groups.set(c.keyGroup, (group = new Map()));
  group.set(c.key, c.value);
}

/** What a snapshot of the model holds now, built as a deep copy: non-empty key groups in order, keys sorted. */
function modelSnapshot(model: Model): KeyedStateSnapshot {
  const byGroup = new Map<number, KeyGroupSnapshot>();
  let sizeBytes = 0;
  for (const [name, groups] of model) {
    for (const [kg, entries] of groups) {
      if (entries.size === 0) continue;
      let group = byGroup.get(kg);
      if (!group) byGroup.set(kg, (group = { keyGroup: kg, states: {} }));
      group.states[name] = structuredClone([...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
      for (const [k, v] of entries) sizeBytes += entrySizeBytes(k, v);
    }
  }
  const keyGroups = [...byGroup.values()].sort((a, b) => a.keyGroup - b.keyGroup);
  return { keyGroupRange: { ...RANGE }, keyGroups, sizeBytes };
}

describe('copy-on-write heap snapshots', () => {
  it('equal a deep copy taken at the same moment, whatever is written afterwards', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 120 }), (commands) => {
        const backend = new HeapKeyedStateBackend(RANGE);
        const model: Model = new Map();
        const taken: Array<{ snapshot: KeyedStateSnapshot; expected: string }> = [];
        for (const c of commands) {
          if (c.op !== 'snapshot') {
            if (c.op === 'put') backend.put(c.state, c.keyGroup, c.key, c.value);
            else backend.delete(c.state, c.keyGroup, c.key);
            apply(model, c);
            continue;
          }
          const snapshot = backend.snapshot();
          const expected = JSON.stringify(modelSnapshot(model));
          // read at once (an upload right away) or only at the end (a checkpoint read on restore)
          if (c.readNow) expect(JSON.stringify(snapshot)).toBe(expected);
          taken.push({ snapshot, expected });
        }
        for (const { snapshot, expected } of taken) expect(JSON.stringify(snapshot)).toBe(expected);
        // and the live state went on unchanged by the copies
        expect(JSON.stringify(backend.snapshot())).toBe(JSON.stringify(modelSnapshot(model)));
      }),
      { numRuns: 300, seed: 16 },
    );
  });

  it('restores from a snapshot taken before later writes the state as it was then', () => {
    const backend = new HeapKeyedStateBackend(RANGE);
    for (let i = 0; i < 200; i++) backend.put('count', 8 + (i % 8), `key-${i}`, i);
    const snapshot = backend.snapshot();
    for (let i = 0; i < 200; i++) backend.put('count', 8 + (i % 8), `key-${i}`, -i);
    for (let i = 0; i < 50; i++) backend.delete('count', 8 + (i % 8), `key-${i}`);
    backend.put('late', 9, 'x', 1);

    const restored = new HeapKeyedStateBackend(RANGE);
    restored.restore([snapshot]);
    expect(restored.entryCount()).toBe(200);
    expect(restored.get('count', 8, 'key-0')).toBe(0);
    expect(restored.get('count', 15, 'key-199')).toBe(199);
    expect(restored.get('late', 9, 'x')).toBeUndefined();
    expect(backend.get('count', 15, 'key-199')).toBe(-199);
  });

  it('survive a structured clone, a JSON round trip and the checkpoint storage codec with their key groups', () => {
    const backend = new HeapKeyedStateBackend(RANGE);
    backend.put('count', 10, 'k', { count: 2, last: 5 });
    const snapshot = backend.snapshot();
    backend.put('count', 10, 'k', 0);
    const expected = [{ keyGroup: 10, states: { count: [['k', { count: 2, last: 5 }]] } }];
    expect(structuredClone(snapshot).keyGroups).toEqual(expected);
    expect(JSON.parse(JSON.stringify(snapshot)).keyGroups).toEqual(expected);
    expect({ ...snapshot }.keyGroups).toEqual(expected);
    expect((decodeValue(encodeValue(snapshot)) as KeyedStateSnapshot).keyGroups).toEqual(expected);
  });
});
