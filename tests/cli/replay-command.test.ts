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
    - { id: source, type: source, source: { kind: sequence, keys: 12, rate_per_s: 1000, count: 1500 } }
    - { id: count, type: keyed-aggregate, aggregate: count }
    - { id: sink, type: sink, sink: two-phase-commit }
  edges:
    - { from: source, to: count, partitioning: hash }
    - { from: count, to: sink, partitioning: forward }
config: { parallelism.default: 3, execution.checkpointing.interval: 300 ms }
cluster: { hosts: 1, task_managers_per_host: 3, slots_per_task_manager: 1 }
expectations:
  - { type: job-status, status: FINISHED }
  - { type: min-completed-checkpoints, value: 2 }
`;

/** A session recorded from a sim run, as the live driver would export it. */
function recordedSession(): { text: string; sinkRecords: number; completed: number } {
  const parsed = parseScenarioText(SCENARIO);
  if (!parsed.ok) throw new Error('scenario does not parse');
  const valid = validateScenario(parsed.value);
  if (!valid.ok) throw new Error('scenario is not valid');
  const recorder = new SessionRecorder();
  const sim = new Simulation(valid.scenario, { recorder });
  sim.runToEnd();
  const completed = sim.events.filter((e) => e.type === 'checkpoint-completed').length;
  return { text: JSON.stringify(sessionDocument(SCENARIO, sim.seed, recorder.log(sim.now + 1))), sinkRecords: sim.sinkOutput.totalRecords, completed };
}

const reader = (files: Record<string, string>) => (path: string) =>
  path in files ? { ok: true as const, text: files[path]! } : { ok: false as const, message: `cannot read session file "${path}": no such file` };

describe('ckpt-lab replay', () => {
  it('replays a recorded session and reports it as `run --json` does, exit code 0 when expectations hold', () => {
    const session = recordedSession();
    const result = runReplayCommand(['session.json', '--json'], reader({ 'session.json': session.text }));
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout) as { output: { totalRecords: number }; checkpoints: { counts: { completed: number } }; job: { status: string } };
    expect(report.job.status).toBe('FINISHED');
    expect(report.output.totalRecords).toBe(session.sinkRecords);
    expect(report.checkpoints.counts.completed).toBe(session.completed);
  });

  it('prints a summary naming what was replayed', () => {
    const result = runReplayCommand(['session.json'], reader({ 'session.json': recordedSession().text }));
    expect(result.stdout).toMatch(/^replayed 9 subtask recordings, \d+ checkpoint triggers, 0 faults\nRecorded keyed counts — seed 4/);
  });

  it('exits with 2 and names the field of an invalid document; nothing runs', () => {
    const doc = JSON.parse(recordedSession().text) as { recording: { subtasks: Array<{ subtask: unknown }> } };
    doc.recording.subtasks[0]!.subtask = -1;
    const result = runReplayCommand(['bad.json'], reader({ 'bad.json': JSON.stringify(doc) }));
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('bad.json is not a valid session document; nothing was run.\nrecording.subtasks[0].subtask: -1 is out of range (allowed: an integer at least 0)');
  });

  it('exits with 2 and says where the replay diverged', () => {
    const doc = JSON.parse(recordedSession().text) as { recording: { subtasks: Array<{ vertex: string; subtask: number; gates: number[][] }> } };
    const sink2 = doc.recording.subtasks.find((s) => s.vertex === 'sink' && s.subtask === 2)!;
    sink2.gates[0]![0] = 5;
    const result = runReplayCommand(['diverging.json'], reader({ 'diverging.json': JSON.stringify(doc) }));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^ckpt-lab replay: replay diverged: sink#2 \(attempt 0\): input gate 0, position 0 \(run 0\): the recording names channel 5, but the gate has 1 channels/);
  });

  it('names a missing file and a missing argument', () => {
    expect(runReplayCommand(['nope.json'], reader({})).stderr).toBe('ckpt-lab replay: cannot read session file "nope.json": no such file\n');
    const missing = runReplayCommand([], reader({}));
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^ckpt-lab replay: missing SESSION/);
  });
});
