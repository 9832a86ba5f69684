/**
 * A scheduled fault that could not be carried out (`fault-not-applied`) in the reader's language:
 * a translated lead naming the fault type, then the engine's reason as it is (English in every
 * locale); every operation type has a name in every locale. The timeline's model keeps the event.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobOperationType } from '../../engine/job/job-operation.ts';
import { message } from '../../engine/messages/engine-message.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { faultNotAppliedText, faultTypeName, type Translate } from '../../web/i18n/fault-text.ts';
import { i18n } from '../../web/i18n/i18n.svelte.ts';
import { locales, type Locale, type MessageKey } from '../../web/i18n/messages.ts';
import { buildTimeline } from '../../web/timeline/timeline-model.ts';
import { FAIL_TASK_DURING_RESTART } from '../browser/health-scenarios.ts';

function translator(locale: Locale): Translate {
  const messages = locales[locale].messages;
  return (key: MessageKey, params = {}) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** A Record, so an operation type added later without an entry here is a type error. */
const TYPES: { [T in JobOperationType]: true } = {
  'fail-task': true,
  'kill-task-manager': true,
  'lose-host': true,
  'stall-task-manager': true,
  'corrupt-local-copy': true,
  'delete-local-copy': true,
  'slow-operator': true,
  'slow-remote-storage': true,
  'fail-remote-storage': true,
  'heal-remote-storage': true,
  'trigger-checkpoint': true,
  'trigger-savepoint': true,
  rescale: true,
  'restart-from-savepoint': true,
  cancel: true,
  'stop-with-savepoint': true,
};

const REASON = 'the job is RESTARTING; no task of count#0 runs to fail';

describe('faults not applied', () => {
  // The engine's Chinese comes with the page's zh-CN chunk, as on a page that switched to it.
  beforeAll(() => i18n.load('zh-CN'));

  it('names every operation type in every locale, the Chinese ones in Chinese', () => {
    for (const type of Object.keys(TYPES)) {
      expect(faultTypeName(type, translator('en')), type).toBe(locales.en.messages[`faultType.${type}` as MessageKey]);
      const zh = faultTypeName(type, translator('zh-CN'));
      expect(zh, type).toMatch(/[\u4e00-\u9fff]/);
      expect(zh.replace(/TaskManager|Checkpoint|Savepoint/g, ''), type).not.toMatch(/[A-Za-z]{3,}/);
    }
    expect(faultTypeName('unknown-fault', translator('zh-CN'))).toBe('unknown-fault');
  });

  it('leads with the translated fault type and "not applied", then the engine’s reason as it is', () => {
    const event = { faultType: 'fail-task', reason: REASON };
    expect(faultNotAppliedText(event, translator('en'))).toBe(`fail task not applied: ${REASON}`);
    expect(faultNotAppliedText(event, translator('zh-CN'))).toBe(`“让任务失败”未执行：${REASON}`);
    expect(faultNotAppliedText({ faultType: 'lose-host', reason: 'host-0 is the last host left' }, translator('en'))).toBe('lose host not applied: host-0 is the last host left');
  });

  it('renders the engine’s reason in the reader’s language when the event carries its message code', () => {
    const event = { faultType: 'fail-task', reason: REASON, problem: message('refusal.fail-task-not-running', { status: 'RESTARTING', vertex: 'count', subtask: 0 }) };
    expect(faultNotAppliedText(event, translator('en'), 'en')).toBe(`fail task not applied: ${REASON}`);
    expect(faultNotAppliedText(event, translator('zh-CN'), 'zh-CN')).toBe('“让任务失败”未执行：作业处于 RESTARTING 状态；count#0 没有正在运行的 task 可以让它失败');
    const corrupt = { faultType: 'corrupt-local-copy', reason: 'host-0 holds no local copy of source#1', problem: message('refusal.no-local-copy', { host: 'host-0', vertex: 'source', subtask: 1 }) };
    expect(faultNotAppliedText(corrupt, translator('en'), 'en')).toContain(corrupt.reason);
    expect(faultNotAppliedText(corrupt, translator('zh-CN'), 'zh-CN')).toContain('host-0 上没有 source#1 的本地副本');
  });

  it('has a scheduled fail-task during a restart reach the timeline’s model', () => {
    const validated = validateScenario(FAIL_TASK_DURING_RESTART);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const simulation = new Simulation(validated.scenario);
    simulation.runUntil(6000);
    const model = buildTimeline(simulation.events, simulation.now, 0);
    const problem = { code: 'refusal.fail-task-not-running', params: { status: 'RESTARTING', vertex: 'count', subtask: 0 } };
    expect(model.notApplied).toEqual([{ time: 3300, faultType: 'fail-task', reason: REASON, problem }]);
    // The kill that caused the restart is a fault; the refused fail-task is not one.
    expect(model.faults.map((f) => f.fault?.kind)).toEqual(['kill-task-manager']);
  });

  it('says in the reader’s language that a host holds no key-group handle of the key group a local-copy fault names', () => {
    const parsed = parseScenarioText(readFileSync('public/scenarios/partial-local-copy.yaml', 'utf8'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const file = parsed.value as { faults: Array<Record<string, unknown>> };
    // key group 0 is in count#0's range (0–63), so count#1's local copy has no handle of it
    file.faults[0] = { ...file.faults[0], key_group: 0 };
    const validated = validateScenario(file);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const simulation = new Simulation(validated.scenario);
    simulation.runUntil(3600);
    const notApplied = simulation.events.find((e) => e.type === 'fault-not-applied');
    expect(notApplied?.type === 'fault-not-applied' && notApplied.problem).toEqual(message('refusal.no-key-group-copy', { host: 'host-1', vertex: 'count', subtask: 1, keyGroup: 0 }));
    if (notApplied?.type !== 'fault-not-applied') return;
    expect(notApplied.reason).toBe('host-1 holds no local copy of count#1 with a key-group handle of key group 0 (key_group applies to full keyed snapshots)');
    expect(faultNotAppliedText(notApplied, translator('zh-CN'), 'zh-CN')).toContain('host-1 上没有 count#1 含 key group 0 的 key-group 句柄的本地副本');
  });
});
