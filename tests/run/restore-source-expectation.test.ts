import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import { failureLine } from '../../engine/run/expectation-failure.ts';
import type { ExpectationSpec } from '../../engine/scenario/scenario-types.ts';

// local-recovery.yaml: tm-1 is killed at 4 s (restore 1: every keyed subtask reads its local
// copy), host-1 is lost at 8 s (restore 2: count#1 moves to the other host and reads remote).
type Case = [name: string, spec: Omit<Extract<ExpectationSpec, { type: 'restore-source' }>, 'type'>, held: boolean, line: string];
const cases: Case[] = [
  ['a subtask that restored locally every time', { vertex: 'count', subtask: 0, source: 'local' }, true, 'expected count#0 to restore from local, got local in restore 1, local in restore 2'],
  ['the killed TaskManager restarting on its host (restore 1)', { vertex: 'count', subtask: 1, source: 'local', restore: 1 }, true, 'expected count#1 to restore from local in restore 1, got local'],
  ['the lost host: remote with its reason (restore 2)', { vertex: 'count', subtask: 1, source: 'remote', reason: 'different-slot', restore: 2 }, true, 'expected count#1 to restore from remote (different-slot) in restore 2, got remote (different-slot)'],
  ['local in every restore, when the second was remote', { vertex: 'count', subtask: 1, source: 'local' }, false, 'expected count#1 to restore from local, got remote (different-slot) in restore 2'],
  ['local after the host was lost', { vertex: 'count', subtask: 1, source: 'local', restore: 2 }, false, 'expected count#1 to restore from local in restore 2, got remote (different-slot)'],
  ['remote for another reason than the one seen', { vertex: 'count', subtask: 1, source: 'remote', reason: 'corrupt', restore: 2 }, false, 'expected count#1 to restore from remote (corrupt) in restore 2, got remote (different-slot)'],
  ['a restore the run did not have', { vertex: 'count', subtask: 0, source: 'local', restore: 3 }, false, 'expected count#0 to restore from local in restore 3, got no restore 3 (restores in the run: 2)'],
  ['a source without state: remote, its local copy missing', { vertex: 'source', subtask: 0, source: 'remote', reason: 'missing' }, true, 'expected source#0 to restore from remote (missing), got remote (missing) in restore 1, remote (missing) in restore 2'],
];

function runLocalRecovery(expectations: ExpectationSpec[]) {
  const text = parseScenarioText(readFileSync('public/scenarios/local-recovery.yaml', 'utf8'));
  const valid = text.ok ? validateScenario(text.value) : undefined;
  if (!valid?.ok) throw new Error('public/scenarios/local-recovery.yaml is not valid');
  return runScenario({ ...valid.scenario, expectations }).report.expectations;
}

describe('the restore-source expectation against local-recovery.yaml', () => {
  const results = runLocalRecovery(cases.map(([, spec]) => ({ type: 'restore-source', ...spec })));

  it.each(cases.map((c, i) => [c[0], i] as const))('%s', (_name, i) => {
    const [, , held, line] = cases[i]!;
    expect({ held: results[i]!.held, line: failureLine(results[i]!) }).toEqual({ held, line });
  });
});
