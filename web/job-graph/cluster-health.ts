/**
 * What the cluster view and the break-things pickers show of the cluster's health, as plain
 * data: each TaskManager's heartbeat chip (registered, or unresponsive for how long), which hosts
 * are still there (a host lost with lose-host is gone for the rest of the run), and whether one
 * more host may be lost. No DOM, so it can be checked in Node.
 */
import type { TaskManagerHealth } from '../../engine/job/task-manager-liveness.ts';
import type { Topology } from '../../engine/job/topology.ts';
import { formatDuration } from '../dashboard/flink-format.ts';
import type { Translate } from '../i18n/fault-text.ts';

export interface HealthChip {
  state: TaskManagerHealth['state'];
  /** "registered", "no heartbeat for 1s 200ms" (the dashboard's durations) */
  text: string;
  /** the longer explanation, for the tooltip */
  hint: string;
}

/** The chip of TaskManager `id`; one the JobMaster has no word of yet counts as registered. */
export function healthChip(id: string, health: readonly TaskManagerHealth[], translate: Translate): HealthChip {
  const known = health.find((h) => h.id === id);
  if (!known || known.state === 'registered') {
    return { state: 'registered', text: translate('cluster.tm.registered'), hint: translate('cluster.tm.registeredHint', { tm: id }) };
  }
  const duration = formatDuration(known.silentForMs);
  return {
    state: 'unresponsive',
    text: translate('cluster.tm.noHeartbeat', { duration }),
    hint: translate('cluster.tm.noHeartbeatHint', { tm: id, duration }),
  };
}

/** The hosts still there, in the cluster's order. */
export function liveHosts(topology: Pick<Topology, 'hosts' | 'lostHosts'> | null): string[] {
  if (!topology) return [];
  const lost = new Set(topology.lostHosts);
  return topology.hosts.filter((h) => !lost.has(h));
}

export function isLostHost(topology: Pick<Topology, 'lostHosts'>, host: string): boolean {
  return topology.lostHosts.includes(host);
}

/**
 * Why no host may be lost now (the last one left: its TaskManagers would have nowhere to come
 * back), or undefined when one may. The JobMaster refuses it too; the page says so beforehand.
 */
export function loseHostBlocked(topology: Pick<Topology, 'hosts' | 'lostHosts'> | null, translate: Translate): string | undefined {
  const left = liveHosts(topology);
  return left.length === 1 ? translate('cluster.host.lastLeft', { host: left[0]! }) : undefined;
}
