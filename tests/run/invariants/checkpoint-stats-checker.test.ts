import { describe, expect, it } from 'vitest';
import { CheckpointStatsChecker } from '../../../engine/run/invariants/checkpoint-stats-checker.ts';
import { runScenario } from '../../../engine/run/run-report.ts';
import type { RunReport } from '../../../engine/run/run-report.ts';
import type { JobEvent } from '../../../engine/run/job-events.ts';
import { keyedCountJob } from '../../support/scenario-builder.ts';

/** A real run with checkpoints and a failover: its statistics are the good case. */
function realRun(): { report: RunReport; events: readonly JobEvent[] } {
  const scenario = { ...keyedCountJob({ count: 3000 }), config: { 'execution.checkpointing.interval': 200 }, faults: [{ at_ms: 1500, type: 'fail-task' as const, vertex: 'count', subtask: 0 }] };
  const { report, simulation } = runScenario(scenario);
  return { report, events: simulation.events };
}

function verdict(report: RunReport, events: readonly JobEvent[]): string[] {
  const checker = new CheckpointStatsChecker();
  events.forEach((e) => checker.onEvent(e));
  return checker.verdict({ scenario: keyedCountJob(), report, oracle: { ahead: { duplicates: 0 } } }).map((v) => v.message);
}

/** The report with its checkpoints document changed by `edit` (a deep copy). */
function tampered(report: RunReport, edit: (doc: any, details: any) => void): RunReport {
  const copy = structuredClone(report);
  edit(copy.checkpoints, copy.checkpointDetails);
  return copy;
}

describe('the checkpoint statistics checker', () => {
  const { report, events } = realRun();
  const counts = (report.checkpoints as { counts: { completed: number; restored: number } }).counts;

  it('passes the statistics of a real run with checkpoints and a restore', () => {
    expect(counts.completed).toBeGreaterThan(2);
    expect(counts.restored).toBe(1);
    expect(verdict(report, events)).toEqual([]);
  });

  it.each<[string, (doc: any, details: any) => void, string]>([
    ['counts that do not add up', (d) => (d.counts.in_progress += d.counts.total + 1), 'is not total'],
    ['a total that disagrees with the triggers seen', (d) => (d.counts.total += 1), 'checkpoints were triggered'],
    ['a restored count that disagrees with the restores seen', (d) => (d.counts.restored = 0), 'restores happened'],
    ['more acknowledged subtasks than subtasks', (d) => (d.history[0].num_acknowledged_subtasks = d.history[0].num_subtasks + 1), 'subtasks acknowledged'],
    ['a negative size', (d) => (d.history[0].checkpointed_size = -1), 'checkpointed_size is -1'],
    ['a negative duration of an acknowledged checkpoint', (d) => (d.history[0].end_to_end_duration = -5), 'end_to_end_duration is -5'],
    ['an acknowledgement before the trigger', (d) => (d.history[0].latest_ack_timestamp = d.history[0].trigger_timestamp - 1), 'before its trigger'],
    ['a summary out of order', (d) => (d.summary.state_size.min = d.summary.state_size.max + 1), 'out of order'],
    ['vertices whose subtasks do not sum to the checkpoint\'s', (_d, details) => (Object.values<any>(Object.values<any>(details)[0].tasks)[0].num_subtasks += 1), 'its vertices have'],
  ])('flags %s', (_what, edit, fragment) => {
    const messages = verdict(tampered(report, edit), events);
    expect(messages.some((m) => m.includes(fragment)), messages.join('\n')).toBe(true);
  });
});
