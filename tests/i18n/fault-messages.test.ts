/**
 * Fault events in the reader's language: every kind of FaultDetail has a message in every locale,
 * the English one says exactly what the event's `description` says (one wording for the CLI and
 * the UI), and the Chinese one is Chinese, with the same placeholders. The simulation's fault
 * events carry the detail their description was made from.
 */
import { describe, expect, it } from 'vitest';
import { describeFault, type FaultDetail, type FaultKind } from '../../engine/run/fault-event.ts';
import { readFileSync } from 'node:fs';
import { parseScenarioText } from '../../engine/scenario/scenario-text.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { faultText, type Translate } from '../../web/i18n/fault-text.ts';
import { locales, type Locale, type MessageKey } from '../../web/i18n/messages.ts';

/** One fault of every kind (a Record, so a new kind without an example is a type error here). */
const EXAMPLES: { [K in FaultKind]: FaultDetail & { kind: K } } = {
  'fail-task': { kind: 'fail-task', vertex: 'counts', subtask: 1 },
  'kill-task-manager': { kind: 'kill-task-manager', taskManager: 'tm-1', host: 'host-0' },
  'lose-host': { kind: 'lose-host', host: 'host-1', taskManagers: ['tm-2', 'tm-3'] },
  'stall-task-manager': { kind: 'stall-task-manager', taskManager: 'tm-0', heartbeatTimeoutMs: 50_000 },
  'corrupt-local-copy': { kind: 'corrupt-local-copy', host: 'host-0', vertex: 'counts', subtask: 0, paths: ['aid_tm-0/jid_j/vtx_counts_sti_0/chk_3'] },
  'delete-local-copy': { kind: 'delete-local-copy', host: 'host-0', vertex: 'counts', subtask: 0, paths: ['a/chk_3', 'a/chk_4'] },
  'slow-operator': { kind: 'slow-operator', vertex: 'counts', factor: 4 },
  'slow-remote-storage': { kind: 'slow-remote-storage', factor: 10 },
  'fail-remote-storage': { kind: 'fail-remote-storage' },
  'heal-remote-storage': { kind: 'heal-remote-storage' },
  'cancel-job': { kind: 'cancel-job' },
  'stop-with-savepoint': { kind: 'stop-with-savepoint' },
  'stop-with-savepoint-drain': { kind: 'stop-with-savepoint-drain' },
  rescale: { kind: 'rescale', vertex: 'counts', parallelism: 3, checkpointId: 7 },
  'restart-from-savepoint': { kind: 'restart-from-savepoint', savepointId: 5 },
};

function translator(locale: Locale): Translate {
  const messages = locales[locale].messages;
  return (key: MessageKey, params = {}) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** English words that may stay in Chinese text: Flink's names, and the examples' own values. */
const KEPT_IN_ENGLISH = /TaskManager|JobManager|heartbeat\.timeout|Checkpoint|Savepoint|counts|tm-\d|host-\d|aid_\S+|a\/chk_\d/g;

describe('fault events in the UI languages', () => {
  it('has a message for every kind of fault in every locale, with the same placeholders as in English', () => {
    for (const kind of Object.keys(EXAMPLES) as FaultKind[]) {
      const key = `fault.${kind}` as MessageKey;
      expect(locales.en.messages[key], key).toBeTypeOf('string');
      expect(placeholders(locales['zh-CN'].messages[key]), key).toEqual(placeholders(locales.en.messages[key]));
    }
  });

  it('says in English exactly what the event’s description says', () => {
    for (const fault of Object.values(EXAMPLES)) {
      expect(faultText({ description: describeFault(fault), fault }, translator('en'))).toBe(describeFault(fault));
    }
  });

  it('says every fault in Chinese, naming what it hit', () => {
    const zh = translator('zh-CN');
    for (const fault of Object.values(EXAMPLES)) {
      const text = faultText({ description: describeFault(fault), fault }, zh);
      expect(text, fault.kind).toMatch(/[\u4e00-\u9fff]/);
      expect(text.replace(KEPT_IN_ENGLISH, ''), fault.kind).not.toMatch(/[A-Za-z]{3,}/);
      for (const value of Object.values(fault).filter((v) => typeof v === 'number')) expect(text, fault.kind).toContain(String(value));
    }
  });

  it('keeps the English description of an event that carries no detail (an older trace)', () => {
    expect(faultText({ description: 'kill tm-1' }, translator('zh-CN'))).toBe('kill tm-1');
  });

  it('has the simulation’s fault events carry the detail their description was made from', () => {
    const text = parseScenarioText(readFileSync('public/scenarios/exactly-once-under-failures.yaml', 'utf8'));
    if (!text.ok) throw new Error('the bundled scenario does not parse');
    const validated = validateScenario(text.value);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const simulation = new Simulation(validated.scenario);
    simulation.runUntil(3600);
    expect(simulation.slowRemoteStorage(10)).toBeUndefined();
    expect(simulation.cancel()).toBeUndefined();
    const faults = simulation.events.flatMap((e) => (e.type === 'fault' ? [e] : []));
    expect(faults.map((e) => e.fault?.kind)).toEqual(['fail-task', 'kill-task-manager', 'slow-remote-storage', 'cancel-job']);
    for (const event of faults) expect(event.description).toBe(describeFault(event.fault!));
  });
});
