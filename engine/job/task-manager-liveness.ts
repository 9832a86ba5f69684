import type { TaskManagerInfo } from './cluster-topology.ts';

/** What the JobMaster knows of one TaskManager, as the cluster view shows it. */
export interface TaskManagerHealth {
  id: string;
  host: string;
  /** `registered`: heard from in time; `unresponsive`: heartbeats unanswered for `silentForMs` (configured ms) */
  state: 'registered' | 'unresponsive';
  silentForMs: number;
}

/**
 * The TaskManagers' liveness, kept by the JobMaster apart from the job's attempts (Flink's
 * HeartbeatManager in the JobMaster monitors TaskExecutors, not executions): a TaskManager that
 * went silent stays silent whatever failovers happen meanwhile, until heartbeat.timeout declares
 * it lost. A TaskManager id stands for its current process; a lost one is replaced by a new
 * process (the same id in place, or a new id elsewhere).
 */
export class TaskManagerLiveness {
  readonly #registered = new Set<string>();
  /** job ms since which each silent TaskManager left its heartbeats unanswered */
  readonly #silentSince = new Map<string, number>();
  readonly #stalled = new Set<string>();

  constructor(ids: readonly string[]) {
    for (const id of ids) this.#registered.add(id);
  }

  isRegistered(id: string): boolean {
    return this.#registered.has(id);
  }

  isStalled(id: string): boolean {
    return this.#stalled.has(id);
  }

  /** A stall fault hit it: it is alive but will not answer. */
  stalled(id: string, now: number): void {
    this.#stalled.add(id);
    this.silent(id, now);
  }

  silent(id: string, since: number): void {
    if (!this.#silentSince.has(id)) this.#silentSince.set(id, since);
  }

  /** job ms since which `id` has been silent, or undefined while it answers */
  silentSince(id: string): number | undefined {
    return this.#silentSince.get(id);
  }

  heard(id: string): void {
    if (!this.#stalled.has(id)) this.#silentSince.delete(id);
  }

  /** The process of `id` is gone and `replacement` (maybe the same id) takes its place, fresh. */
  replaced(id: string, replacement: string): void {
    this.#registered.delete(id);
    this.#silentSince.delete(id);
    this.#stalled.delete(id);
    this.#registered.add(replacement);
  }

  health(tm: TaskManagerInfo, now: number): TaskManagerHealth {
    const since = this.#silentSince.get(tm.id);
    return { id: tm.id, host: tm.host, state: since === undefined ? 'registered' : 'unresponsive', silentForMs: since === undefined ? 0 : Math.max(0, now - since) };
  }
}
