/**
 * The cluster view's health marks as data (web/job-graph/cluster-health.ts): each TaskManager's
 * heartbeat chip in English and Chinese with the dashboard's durations, the hosts still there
 * after a lose-host, and why the last host left cannot be lost, checked on a simulated run.
 */
import { describe, expect, it } from 'vitest';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import type { Translate } from '../../web/i18n/fault-text.ts';
import { locales, type Locale, type MessageKey } from '../../web/i18n/messages.ts';
import { healthChip, isLostHost, liveHosts, loseHostBlocked } from '../../web/job-graph/cluster-health.ts';
import { HEALTH_HEARTBEAT_TIMEOUT_MS, healthScenario } from '../browser/health-scenarios.ts';

function translator(locale: Locale): Translate {
  const messages = locales[locale].messages;
  return (key: MessageKey, params = {}) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

const en = translator('en');
const zh = translator('zh-CN');

function simulation(): Simulation {
  const validated = validateScenario(healthScenario('Cluster health'));
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  return new Simulation(validated.scenario);
}

describe('heartbeat chips', () => {
  it('says registered, then how long a stalled TaskManager has been silent, until heartbeat.timeout replaces it', () => {
    const sim = simulation();
    sim.runUntil(3000);
    const chips = (locale: Translate) => Object.fromEntries(sim.topology().taskManagers.map((tm) => [tm.id, healthChip(tm.id, sim.jobMaster.taskManagerHealth(sim.now), locale)]));
    expect(Object.values(chips(en)).map((c) => [c.state, c.text])).toEqual([
      ['registered', 'registered'],
      ['registered', 'registered'],
      ['registered', 'registered'],
    ]);
    expect(sim.stallTaskManager('tm-1')).toBeUndefined();
    sim.runUntil(4200);
    expect(chips(en)['tm-1']).toEqual({
      state: 'unresponsive',
      text: 'no heartbeat for 1s 200ms',
      hint: 'TaskManager tm-1 has not answered a heartbeat for 1s 200ms; after heartbeat.timeout the JobManager declares it lost and its tasks fail over',
    });
    expect(chips(zh)['tm-1']!.text).toBe('1s 200ms 无心跳');
    expect(chips(zh)['tm-0']!.text).toBe('已注册');
    expect(chips(en)['tm-0']!.state).toBe('registered');
    sim.runUntil(3000 + HEALTH_HEARTBEAT_TIMEOUT_MS - 1);
    expect(chips(en)['tm-1']!.text).toBe('no heartbeat for 4s 999ms');
    sim.runUntil(3000 + HEALTH_HEARTBEAT_TIMEOUT_MS);
    expect(chips(en)['tm-1']).toMatchObject({ state: 'registered', text: 'registered' });
  });

  it('counts a TaskManager the JobMaster has no word of as registered', () => {
    expect(healthChip('tm-9', [], en)).toMatchObject({ state: 'registered', text: 'registered' });
    expect(healthChip('tm-2', [{ id: 'tm-2', host: 'host-1', state: 'unresponsive', silentForMs: 65_000 }], en).text).toBe('no heartbeat for 1m 5s');
  });
});

describe('lost hosts', () => {
  it('leaves a lost host out of the hosts still there, and blocks losing the last one', () => {
    const sim = simulation();
    sim.runUntil(2000);
    expect(liveHosts(sim.topology())).toEqual(['host-0', 'host-1', 'host-2']);
    expect(loseHostBlocked(sim.topology(), en)).toBeUndefined();
    expect(sim.loseHost('host-2')).toBeUndefined();
    const topology = sim.topology();
    expect(topology.hosts).toEqual(['host-0', 'host-1', 'host-2']);
    expect(isLostHost(topology, 'host-2')).toBe(true);
    expect(isLostHost(topology, 'host-1')).toBe(false);
    expect(liveHosts(topology)).toEqual(['host-0', 'host-1']);
    // Its TaskManager came back elsewhere: no TaskManager is left on the lost host.
    expect(topology.taskManagers.filter((tm) => tm.host === 'host-2')).toEqual([]);
    expect(loseHostBlocked(topology, en)).toBeUndefined();

    sim.runUntil(6000);
    expect(sim.loseHost('host-1')).toBeUndefined();
    expect(liveHosts(sim.topology())).toEqual(['host-0']);
    const blocked = loseHostBlocked(sim.topology(), en);
    // The page says beforehand what the JobMaster would answer.
    expect(blocked).toBe(sim.loseHost('host-0'));
    expect(blocked).toBe('host-0 is the last host left: its TaskManagers would have nowhere to come back');
    expect(loseHostBlocked(sim.topology(), zh)).toBe('host-0 是仅剩的主机：它的 TaskManager 将无处重启');
  });

  it('has no hosts without a topology', () => {
    expect(liveHosts(null)).toEqual([]);
    expect(loseHostBlocked(null, en)).toBeUndefined();
  });
});
