/**
 * Session files for `ckpt-lab replay`: whatever the file holds, the reader returns the document
 * or messages naming each bad field, and a document it accepts replays to a report or to a
 * divergence (exit 0, 1 or 2) — never an internal error (exit 3) or an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runReplayCommand } from '../../engine/cli/replay-command.ts';
import { SessionRecorder } from '../../engine/replay/session-recorder.ts';
import { decodeSessionDocument, sessionDocument } from '../../engine/replay/session-document.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { allPaths, type FileValue } from '../scenario/scenario-samples.ts';
import { applyEdits, hostileTree, InputCounter, PROTOTYPE_KEYS, runs, textEdit, treeJson, treeValue, answersSafely } from './fuzz-support.ts';

const counter = new InputCounter('session files (ckpt-lab replay)');

const SCENARIO = `
version: 1
name: Fuzzed session
seed: 3
job:
  vertices:
    - { id: source, type: source, source: { kind: sequence, keys: 4, rate_per_s: 1000, count: 40 } }
    - { id: count, type: keyed-aggregate, aggregate: count }
    - { id: sink, type: sink }
  edges:
    - { from: source, to: count, partitioning: hash }
    - { from: count, to: sink, partitioning: forward }
config: { parallelism.default: 2, execution.checkpointing.interval: 10 ms }
cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 1 }
faults:
  - { at: 25 ms, type: fail-task, vertex: count, subtask: 1 }
`;

/** A real recording, small enough that planting into any of its fields is cheap. */
const RECORDED = ((): Record<string, FileValue> => {
  const parsed = parseScenarioText(SCENARIO);
  const valid = parsed.ok ? validateScenario(parsed.value) : parsed;
  if (!valid.ok) throw new Error('the fuzzed session’s scenario is not valid');
  const recorder = new SessionRecorder();
  const sim = new Simulation(valid.scenario, { recorder });
  sim.runToEnd();
  return JSON.parse(JSON.stringify(sessionDocument(SCENARIO, sim.seed, recorder.log(sim.now + 1)))) as Record<string, FileValue>;
})();
const PATHS = allPaths(RECORDED);

function decode(text: string) {
  return answersSafely(() => {
    const reading = decodeSessionDocument(counter.count(text));
    if (!reading.ok) {
      expect(reading.errors.length).toBeGreaterThan(0);
      for (const e of reading.errors) expect(e.message.trim()).not.toBe('');
    }
    return reading;
  });
}

/** The recording with one field replaced by a hostile value, or a hostile key added beside it. */
function planted(path: (string | number)[], value: unknown, asKey: string | undefined): string {
  const copy = structuredClone(RECORDED) as Record<string, unknown>;
  let parent: Record<string, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string, unknown>;
  const key = asKey ?? String(path[path.length - 1] ?? 'extra');
  Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
  return JSON.stringify(copy);
}

const plantedSession = fc.record({
  path: fc.constantFrom(...PATHS),
  value: fc.oneof(hostileTree.map(treeValue), fc.constantFrom(1e30, -1, 999, 1e308, 2 ** 53, 'tm-99', 'host-9', 'count', [], {})),
  asKey: fc.option(fc.constantFrom(...PROTOTYPE_KEYS), { nil: undefined, freq: 5 }),
});

describe('fuzzing session files', () => {
  it('reads a real session with one field made hostile, naming the field when it refuses', () => {
    fc.assert(fc.property(plantedSession, ({ path, value, asKey }) => void decode(planted(path, value, asKey))), runs(150));
  });

  it('reads hostile JSON trees and a real session broken by random edits', () => {
    const text = fc.oneof(hostileTree.map(treeJson), fc.array(textEdit, { minLength: 1, maxLength: 4 }).map((edits) => applyEdits(JSON.stringify(RECORDED), edits)));
    fc.assert(fc.property(text, (t) => void decode(t)), runs(300));
  });

  it('replays what it accepts to a report or a divergence, never an internal error', () => {
    // Numbers moved within what the reader accepts: the replay, not the reader, must cope.
    const numeric = PATHS.filter((p) => typeof p[p.length - 1] === 'number' || ['time', 'endTime', 'checkpointId', 'at_ms', 'subtask', 'attempt'].includes(String(p[p.length - 1])));
    const nudged = fc.record({ path: fc.constantFrom(...numeric), value: fc.constantFrom(0, 1, 2, 3, 5, 17, 250, 100_000, -1, -2, -3, -4) });
    fc.assert(
      fc.property(nudged, ({ path, value }) => {
        const text = planted(path, value, undefined);
        if (!decode(text).ok) return;
        const result = runReplayCommand(['session.json'], () => ({ ok: true, text }));
        expect([0, 1, 2]).toContain(result.exitCode);
      }),
      runs(Number(process.env.FUZZ_REPLAYS ?? 25)),
    );
  });
});
