import { describe, expect, it } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { readFileSync } from 'node:fs';

/** The shipped example of a partial local copy (count#0 on host-0, count#1 on host-1), with these faults. */
function job(faults: Scenario['faults']): Scenario {
  const parsed = parseScenarioText(readFileSync('public/scenarios/partial-local-copy.yaml', 'utf8'), 'yaml');
  if (!parsed.ok) throw new Error('partial-local-copy.yaml does not parse');
  const valid = validateScenario(parsed.value);
  if (!valid.ok) throw new Error('partial-local-copy.yaml is not valid');
  return { ...valid.scenario, faults, expectations: [] };
}

function run(scenario: Scenario): Simulation {
  const sim = new Simulation(scenario);
  sim.runToEnd();
  return sim;
}

describe('a restore that mixes local and remote handles within one subtask', () => {
  for (const [type, reason] of [
    ['delete-local-copy', 'partial'],
    ['corrupt-local-copy', 'corrupt'],
  ] as const) {
    it(`reads only the key-group handle a ${type} fault hit from remote, the rest locally, exactly once`, () => {
      const scenario = job([
        { at_ms: 3500, type, host: 'host-0', vertex: 'count', subtask: 0, key_group: 0 },
        { at_ms: 3600, type: 'fail-task', vertex: 'count', subtask: 1 },
      ]);
      const sim = run(scenario);
      const fault = sim.events.flatMap((e) => (e.type === 'fault' && e.fault?.kind === type ? [e.fault] : []))[0];
      expect(fault).toMatchObject({ keyGroup: 0 });
      const count0 = sim.restores[0]!.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 0)!;
      expect([count0.source, count0.reason]).toEqual(['remote', reason]);
      const keyed = count0.handles!.filter((h) => h.kind === 'key-groups');
      expect(keyed.map((h) => [h.keyGroupRange!.start, h.source])).toEqual([
        [0, 'remote'],
        [keyed[1]!.keyGroupRange!.start, 'local'],
        [keyed[2]!.keyGroupRange!.start, 'local'],
        [keyed[3]!.keyGroupRange!.start, 'local'],
      ]);
      expect(count0.remoteBytes).toBe(count0.bytes - keyed.filter((h) => h.source === 'local').reduce((n, h) => n + h.bytes, 0));
      expect(count0.remoteBytes).toBeGreaterThan(0);
      expect(count0.remoteBytes).toBeLessThan(count0.bytes / 2);
      const reference = run({ ...scenario, faults: [] });
      expect(sim.sinkOutput.compareTo(reference.sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
    });
  }

  it('mixes a snappy-compressed full snapshot too, one compressed key group stream per handle, exactly once', () => {
    const base = job([
      { at_ms: 3500, type: 'delete-local-copy', host: 'host-0', vertex: 'count', subtask: 0, key_group: 0 },
      { at_ms: 3600, type: 'fail-task', vertex: 'count', subtask: 1 },
    ]);
    const scenario = { ...base, config: { ...base.config, 'execution.checkpointing.snapshot-compression': true } };
    const sim = run(scenario);
    const count0 = sim.restores[0]!.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 0)!;
    expect(new Set(count0.handles!.map((h) => h.source))).toEqual(new Set(['local', 'remote']));
    expect(sim.sinkOutput.compareTo(run({ ...scenario, faults: [] }).sinkOutput)).toEqual({ duplicates: 0, missing: 0 });
  });

  it('reports the handles of a fully local restore as local and of a remote one with its reason', () => {
    const sim = run(job([
      { at_ms: 3500, type: 'delete-local-copy', host: 'host-0', vertex: 'count', subtask: 0 },
      { at_ms: 3600, type: 'fail-task', vertex: 'count', subtask: 1 },
    ]));
    const [count0, count1] = sim.restores[0]!.subtasks.filter((s) => s.vertexId === 'count');
    expect(new Set(count0!.handles!.map((h) => `${h.source}:${h.reason}`))).toEqual(new Set(['remote:missing']));
    expect(new Set(count1!.handles!.map((h) => h.source))).toEqual(new Set(['local']));
  });

  it('models each handle’s read by its bytes over the cost of where it came from', () => {
    const scenario = job([
      { at_ms: 3500, type: 'delete-local-copy', host: 'host-0', vertex: 'count', subtask: 0, key_group: 0 },
      { at_ms: 3600, type: 'fail-task', vertex: 'count', subtask: 1 },
    ]);
    const count0 = run(scenario).restores[0]!.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 0)!;
    const { costs } = scenario;
    // Said independently of the code: one request per handle, latency plus bytes over bandwidth (MiB/s); nothing for an empty handle.
    const expected = (bytes: number, latencyMs: number, mbPerS: number) => (bytes > 0 ? latencyMs + (bytes / (mbPerS * 1024 * 1024)) * 1000 : 0);
    const keyed = count0.handles!.filter((h) => h.kind === 'key-groups' && h.bytes > 0);
    expect(new Set(keyed.map((h) => h.source))).toEqual(new Set(['local', 'remote']));
    for (const h of count0.handles!) {
      const cost = h.source === 'local' ? expected(h.bytes, costs.local_latency_ms, costs.local_bandwidth_mb_per_s) : expected(h.bytes, costs.remote_latency_ms, costs.remote_bandwidth_mb_per_s);
      expect(h.durationMs, `${h.kind} ${h.keyGroupRange?.start} ${h.source}`).toBeCloseTo(cost, 9);
    }
  });
});
