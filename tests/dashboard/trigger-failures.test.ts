/**
 * The checkpoints that failed before they were created, as the Overview and the History list
 * them (web/dashboard/trigger-failures.ts, said by web/i18n/trigger-failure-text.ts): only the
 * failed triggers, not the decider's drops; newest first; with their reason and what it means, in
 * en and zh-CN; and, in a real run, exactly the failures the counts hold that the history does not.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../engine/run/job-events.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { CheckpointingStatisticsDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import { triggerFailures } from '../../web/dashboard/trigger-failures.ts';
import type { Translate } from '../../web/i18n/fault-text.ts';
import { locales, type Locale, type MessageKey } from '../../web/i18n/messages.ts';
import { EXPLAINED_TRIGGER_FAILURE_REASONS, triggerFailureText } from '../../web/i18n/trigger-failure-text.ts';

function translator(locale: Locale): Translate {
  const messages = locales[locale].messages;
  return (key: MessageKey, params = {}) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

const dropped = (time: number, reason: string, isSavepoint?: boolean): JobEvent =>
  isSavepoint === undefined ? { type: 'checkpoint-request-dropped', time, reason } : { type: 'checkpoint-request-dropped', time, reason, isSavepoint };

describe('triggerFailures', () => {
  it('lists the refused triggers newest first, and none of the decider’s drops', () => {
    const events: JobEvent[] = [
      { type: 'checkpoint-triggered', time: 1000, checkpointId: 1, isSavepoint: false },
      dropped(1500, 'MINIMUM_TIME_BETWEEN_CHECKPOINTS', false),
      dropped(3200, 'NOT_ALL_REQUIRED_TASKS_RUNNING', false),
      dropped(3300, 'TOO_MANY_CHECKPOINT_REQUESTS', false),
      dropped(3400, 'NOT_ALL_REQUIRED_TASKS_RUNNING', true),
      dropped(9000, 'CHECKPOINT_COORDINATOR_SHUTDOWN', false),
      // a trace recorded before the event said whether it was a savepoint
      dropped(9100, 'NOT_ALL_REQUIRED_TASKS_RUNNING'),
    ];
    expect(triggerFailures(events)).toEqual([
      { time: 9100, reason: 'NOT_ALL_REQUIRED_TASKS_RUNNING', isSavepoint: false },
      { time: 3400, reason: 'NOT_ALL_REQUIRED_TASKS_RUNNING', isSavepoint: true },
      { time: 3200, reason: 'NOT_ALL_REQUIRED_TASKS_RUNNING', isSavepoint: false },
    ]);
  });
});

describe('a trigger failure in the UI languages', () => {
  const failure = { time: 3200, reason: 'NOT_ALL_REQUIRED_TASKS_RUNNING', isSavepoint: false };

  it.each<[Locale, boolean, string]>([
    ['en', false, 'Checkpoint trigger refused at 0:03.200: NOT_ALL_REQUIRED_TASKS_RUNNING — not all tasks were running'],
    ['en', true, 'Savepoint trigger refused at 0:03.200: NOT_ALL_REQUIRED_TASKS_RUNNING — not all tasks were running'],
    ['zh-CN', false, 'Checkpoint 触发在 0:03.200 被拒绝：NOT_ALL_REQUIRED_TASKS_RUNNING — 并非所有任务都在运行'],
    ['zh-CN', true, 'Savepoint 触发在 0:03.200 被拒绝：NOT_ALL_REQUIRED_TASKS_RUNNING — 并非所有任务都在运行'],
  ])('%s, savepoint %s: the time, Flink’s reason and what it means', (locale, isSavepoint, start) => {
    expect(triggerFailureText({ ...failure, isSavepoint }, translator(locale)).startsWith(start)).toBe(true);
  });

  it('shows a reason it cannot explain as Flink’s constant alone', () => {
    expect(triggerFailureText({ ...failure, reason: 'IO_EXCEPTION' }, translator('en'))).toBe('Checkpoint trigger refused at 0:03.200: IO_EXCEPTION');
  });

  it('explains every reason in Chinese, other than Flink’s own names', () => {
    for (const reason of EXPLAINED_TRIGGER_FAILURE_REASONS) {
      const text = locales['zh-CN'].messages[`checkpoints.triggerFailures.why.${reason}` as MessageKey];
      expect(text, reason).toMatch(/[\u4e00-\u9fff]/);
      expect(text.replace(/barrier/g, ''), reason).not.toMatch(/[A-Za-z]{3,}/);
    }
  });
});

describe('a real run with a restart (public/scenarios/at-least-once-duplicates.yaml)', () => {
  it('lists exactly the failed checkpoints the counts hold and the history does not', () => {
    const text = parseScenarioText(readFileSync('public/scenarios/at-least-once-duplicates.yaml', 'utf8'));
    if (!text.ok) throw new Error('the bundled scenario does not parse');
    const validated = validateScenario(text.value);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const simulation = new Simulation(validated.scenario);
    simulation.runToEnd();
    const doc = simulation.coordinator.stats.checkpointingStatistics() as CheckpointingStatisticsDocument;
    const listed = triggerFailures(simulation.events);
    expect(listed.map((f) => f.reason)).toEqual(['NOT_ALL_REQUIRED_TASKS_RUNNING']);
    expect(doc.history.length).toBeLessThan(10); // every checkpoint with an id is still in the history
    const failedInHistory = doc.history.filter((e) => e.status === 'FAILED').length;
    expect(doc.counts.failed).toBe(failedInHistory + listed.length);
    expect(doc.counts.total).toBe(doc.history.length + listed.length);
    expect(doc.counts.total).toBe(doc.counts.in_progress + doc.counts.completed + doc.counts.failed);
  });
});
