import { describe, expect, it } from 'vitest';
import { runReplayCommand } from '../../engine/cli/replay-command.ts';
import { SessionRecorder } from '../../engine/replay/session-recorder.ts';
import { sessionDocument } from '../../engine/replay/session-document.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';

const SCENARIO = `
version: 1
name: Recorded keyed counts
seed: 4
job:
  vertices:
    - { id: source, type: source, source: { kind: sequence, keys: 12, rate_per_s: 1000, count: 600 } }
    - { id: count, type: keyed-aggregate, aggregate: count }
    - { id: sink, type: sink, sink: plain }
  edges:
    - { from: source, to: count, partitioning: hash }
    - { from: count, to: sink, partitioning: hash }
config: { parallelism.default: 3, execution.checkpointing.interval: 200 ms }
cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 }
`;

/** A session recorded from a sim run, as the live driver exports it; each test edits a copy. */
const RECORDED: string = (() => {
  const parsed = parseScenarioText(SCENARIO);
  const valid = parsed.ok ? validateScenario(parsed.value) : parsed;
  if (!valid.ok) throw new Error('the test scenario is not valid');
  const recorder = new SessionRecorder();
  const sim = new Simulation(valid.scenario, { recorder });
  sim.runToEnd();
  return JSON.stringify(sessionDocument(SCENARIO, sim.seed, recorder.log(sim.now + 1)));
})();

interface EditableSession {
  seed: unknown;
  recording: { faults: unknown[]; restarts: unknown[] };
}

function replayEdited(edit: (doc: EditableSession) => void) {
  const doc = JSON.parse(RECORDED) as EditableSession;
  edit(doc);
  return runReplayCommand(['session.json'], () => ({ ok: true, text: JSON.stringify(doc) }));
}

const INVALID = 'ckpt-lab replay: session.json is not a valid session document; nothing was run.\n';

describe('ckpt-lab replay of a session that cannot have been recorded', () => {
  it.each([
    [1e30, 'seed: expected an integer, got the number 1e+30 (allowed: an integer)'],
    [-1, 'seed: -1 is out of range (allowed: an integer at least 0 and at most 4294967295)'],
  ])('refuses the seed %s, exit 2', (seed, message) => {
    expect(replayEdited((doc) => (doc.seed = seed))).toEqual({ stdout: '', stderr: `${INVALID}${message}\n`, exitCode: 2 });
  });

  it('refuses a recorded rescale beyond the cluster’s slots, which the live run could not have made', () => {
    const result = replayEdited((doc) => (doc.recording.restarts = [{ time: 300, operation: 'rescale', checkpointId: 1, vertex: 'count', parallelism: 999 }]));
    expect(result.stderr).toBe(`${INVALID}recording.restarts[0].parallelism: 999 is more than the cluster's 3 slots, so the live run cannot have rescaled to it (allowed: an integer at least 1 and at most 3)\n`);
    expect(result.exitCode).toBe(2);
  });

  it('exits 2 saying it cannot follow a recorded rescale the replay never got to make', () => {
    const result = replayEdited((doc) => (doc.recording.restarts = [{ time: 300, operation: 'rescale', checkpointId: 99, vertex: 'count', parallelism: 2 }]));
    expect(result.stderr).toMatch(/^ckpt-lab replay: replay diverged: rescale of count to 2 recorded at 300 ms: the replay reached [\d.]+ ms without being able to make it \(it restores checkpoint 99, which the replay never completed/);
    expect(result.exitCode).toBe(2);
  });

  it.each([
    [{ type: 'kill-task-manager', at_ms: 300, task_manager: 'tm-9' }, 'recording.faults[0].fault.task_manager: the cluster has no tm-9 (allowed: tm-0 … tm-2)'],
    [{ type: 'kill-task-manager', at_ms: 300 }, 'recording.faults[0].fault.task_manager: required field is missing (allowed: tm-0 … tm-2)'],
    [{ type: 'lose-host', at_ms: 300, host: 'host-1' }, 'recording.faults[0].fault.host: the cluster has no host-1 (allowed: host-0)'],
    [{ type: 'fail-task', at_ms: 300, vertex: 'count', subtask: 3 }, 'recording.faults[0].fault.subtask: "count" has parallelism 3, so it has no subtask 3 (allowed: a subtask index from 0 to 2)'],
  ])('refuses a recorded fault on what the scenario does not have: %j', (fault, message) => {
    expect(replayEdited((doc) => (doc.recording.faults = [{ time: 300, fault }]))).toEqual({ stdout: '', stderr: `${INVALID}${message}\n`, exitCode: 2 });
  });

  it('still replays the recording as it was', () => {
    expect(replayEdited(() => undefined).exitCode).toBe(0);
  });
});
