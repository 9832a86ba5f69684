import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { chaosCase } from '../../engine/chaos/chaos-case.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe('a chaos case drawn from a seed', () => {
  it('is the same case for the same seed', () => {
    expect(chaosCase(77)).toEqual(chaosCase(77));
    expect(chaosCase(77).document).not.toEqual(chaosCase(78).document);
  });

  it('saves as a YAML file that loads back into exactly the scenario that ran', () => {
    for (const seed of [3, 26, 62]) {
      const c = chaosCase(seed);
      const text = parseScenarioText(stringify(c.document));
      expect(text.ok, `seed ${seed}`).toBe(true);
      const valid = validateScenario(text.ok ? text.value : undefined);
      expect(valid.ok && valid.scenario, `seed ${seed}`).toEqual(c.scenario);
    }
  });

  it('covers the scenario shapes and configurations the issue lists, over 300 seeds', () => {
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      const { scenario, bounded, operations } = chaosCase(seed);
      const config = scenario.config;
      seen.add(scenario.job.name);
      seen.add(bounded ? 'bounded' : 'unbounded');
      seen.add(String(config['execution.checkpointing.mode']));
      seen.add(`unaligned ${config['execution.checkpointing.unaligned.enabled']}`);
      if (config['execution.checkpointing.aligned-checkpoint-timeout'] !== undefined) seen.add('aligned timeout');
      seen.add(`backend ${config['state.backend.type'] ?? 'hashmap'}`);
      if (config['execution.checkpointing.incremental'] === true) seen.add('incremental');
      if (config['execution.state-recovery.from-local'] === true) seen.add('local recovery');
      seen.add(String(config['restart-strategy.type']));
      for (const v of scenario.job.vertices) if (v.operator.type === 'sink') seen.add(`sink ${v.operator.sink}`);
      for (const o of operations) seen.add(o.operation.type);
      for (const f of scenario.faults) seen.add(f.type);
    }
    const wanted = [
      ...['chaos-count', 'chaos-sum', 'chaos-window', 'chaos-filter', 'chaos-join', 'chaos-words'],
      ...['bounded', 'unbounded', 'EXACTLY_ONCE', 'AT_LEAST_ONCE', 'unaligned true', 'unaligned false', 'aligned timeout'],
      ...['backend hashmap', 'backend rocksdb', 'incremental', 'local recovery', 'fixed-delay', 'exponential-delay', 'sink plain', 'sink two-phase-commit'],
      ...['rescale', 'restart-from-savepoint', 'fail-task', 'kill-task-manager', 'lose-host', 'stall-task-manager', 'slow-operator', 'slow-remote-storage'],
      ...['fail-remote-storage', 'heal-remote-storage', 'corrupt-local-copy', 'delete-local-copy', 'trigger-checkpoint', 'trigger-savepoint'],
    ];
    expect(wanted.filter((w) => !seen.has(w))).toEqual([]);
  });

  it('injects nothing in the liveness phase but the healing of what is still broken', () => {
    for (const seed of SEEDS) {
      const c = chaosCase(seed);
      const late = c.scenario.faults.filter((f) => f.at_ms >= c.safetyEndMs);
      const healing = late.every((f) => f.type === 'heal-remote-storage' || ((f.type === 'slow-remote-storage' || f.type === 'slow-operator') && f.factor === 1));
      expect(healing, `seed ${seed}: ${JSON.stringify(late)}`).toBe(true);
      expect(c.operations.every((o) => o.at_ms < c.safetyEndMs), `seed ${seed}`).toBe(true);
    }
  });
});
