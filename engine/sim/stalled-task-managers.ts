import type { SimEvent } from './sim-event.ts';

type HeartbeatMissed = Extract<SimEvent, { type: 'heartbeat-missed' }>;

/**
 * The sim's TaskManagers that stopped answering without dying, and the JobMaster's unanswered
 * heartbeat requests to them: one check per heartbeat.interval from the stall on, the last at
 * exactly heartbeat.timeout after it began. Checks are keyed by the TaskManager's process
 * (`incarnation`, +1 per start), not by the job's attempt: liveness outlives failovers, and a
 * process that was replaced takes its checks with it.
 */
export class StalledTaskManagers {
  readonly #stalled = new Set<string>();
  readonly #incarnation = new Map<string, number>();

  constructor(
    private readonly heartbeat: () => { heartbeatInterval: number; heartbeatTimeout: number },
    private readonly schedule: (at: number, event: HeartbeatMissed) => void,
  ) {}

  has(taskManager: string): boolean {
    return this.#stalled.size > 0 && this.#stalled.has(taskManager);
  }

  /** A TaskManager process (re)started. */
  started(taskManager: string): void {
    this.#incarnation.set(taskManager, (this.#incarnation.get(taskManager) ?? 0) + 1);
  }

  /** The processes died: nothing of them is stalled any more. */
  terminated(taskManagers: readonly string[]): void {
    for (const id of taskManagers) this.#stalled.delete(id);
  }

  /** The TaskManager freezes now; the first heartbeat check follows. */
  stall(taskManager: string, now: number): void {
    this.#stalled.add(taskManager);
    this.#scheduleCheck(taskManager, now, now);
  }

  /**
   * A check came due: unless it belongs to a process that is gone or answers again, `report`
   * tells the JobMaster how long the TaskManager has been silent; the next check follows while it
   * stays stalled.
   */
  check(event: HeartbeatMissed, now: number, report: (silentMs: number) => void): void {
    if (!this.#stalled.has(event.taskManager) || (this.#incarnation.get(event.taskManager) ?? 0) !== event.incarnation) return;
    report(now - event.since);
    if (this.#stalled.has(event.taskManager)) this.#scheduleCheck(event.taskManager, event.since, now);
  }

  #scheduleCheck(taskManager: string, since: number, now: number): void {
    const { heartbeatInterval, heartbeatTimeout } = this.heartbeat();
    const checks = Math.floor((now - since) / heartbeatInterval) + 1;
    const at = Math.min(since + checks * heartbeatInterval, since + heartbeatTimeout);
    this.schedule(at, { type: 'heartbeat-missed', taskManager, incarnation: this.#incarnation.get(taskManager) ?? 0, since });
  }
}
