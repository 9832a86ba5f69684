import * as Comlink from 'comlink';
import type { TaskManagerInfo } from '../../engine/job/cluster-topology.ts';
import { wallNow } from '../job-clock.ts';
import type { HeartbeatPayload, RegisterRequest, ReportBatch } from '../protocol.ts';
import type { TaskManagerEntry, TaskManagerLauncher, TaskManagerProcess } from './task-manager-process.ts';

/** The JobManager's view of one registered TaskManager process. */
export interface TaskManagerConnection {
  readonly info: TaskManagerInfo;
  readonly process: TaskManagerProcess;
  readonly reportPort: MessagePort;
  /** resolves once the process registered; rejects when it crashed or failed to register first */
  readonly ready: Promise<void>;
  /** wall-clock ms of the last heartbeat answer (or of the start of monitoring); undefined before registration */
  lastHeartbeat: number | undefined;
  /** heartbeat requests sent since the last answer */
  unanswered: number;
  latest: HeartbeatPayload | undefined;
}

/** What the pool tells the runtime; the runtime hands it on to the JobMaster. */
export interface TaskManagerPoolListener {
  reports(from: TaskManagerConnection, batch: ReportBatch): void;
  /** the process is gone on its own (it crashed, or never started) */
  lost(id: string, cause: string): void;
  heard(id: string): void;
  /** heartbeat requests left unanswered for `silentMs` of configured time */
  missed(id: string, silentMs: number): void;
}

export interface TaskManagerPoolOptions {
  launch: TaskManagerLauncher;
  /** the worker entry every process starts from (default: `default`) */
  entry?: TaskManagerEntry;
  /** wall ms between heartbeat requests, and of heartbeat.timeout */
  heartbeatIntervalMs: number;
  heartbeatTimeoutMs: number;
  /** configured ms per wall ms of heartbeat (the inverse of the heartbeat scale) */
  configuredPerWallMs: number;
  /** what a new TaskManager registers with (its storage, its rocksdb directory) */
  registration: (info: TaskManagerInfo, incarnation: number) => Omit<RegisterRequest, 'reportPort'>;
  listener: TaskManagerPoolListener;
}

/**
 * The live runtime's TaskManager processes (Flink's ResourceManager side of the JobManager): it
 * starts and registers them, asks each for a heartbeat every heartbeat.interval and says who went
 * quiet, and terminates them. Whether a TaskManager is lost is the JobMaster's call.
 */
export class TaskManagerPool {
  readonly #options: TaskManagerPoolOptions;
  readonly #connections = new Map<string, TaskManagerConnection>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #seq = 0;
  /** TaskManager processes started so far, replacements included */
  launched = 0;

  constructor(options: TaskManagerPoolOptions) {
    this.#options = options;
  }

  get(id: string): TaskManagerConnection | undefined {
    return this.#connections.get(id);
  }

  all(): TaskManagerConnection[] {
    return [...this.#connections.values()];
  }

  has(id: string): boolean {
    return this.#connections.has(id);
  }

  /** Resolves once every process started so far registered (or failed to). */
  async allReady(): Promise<void> {
    await Promise.all(this.all().map((tm) => tm.ready.catch(() => {})));
  }

  /**
   * Starts the process of a TaskManager and registers it (Flink: the ResourceManager gives the
   * JobManager a new TaskExecutor). `ready` rejects when the process crashes or fails to register
   * first; a crash at any time is reported as lost.
   */
  start(info: TaskManagerInfo): TaskManagerConnection {
    const process = this.#options.launch(`TaskManager ${info.id} (${info.host})`, this.#options.entry);
    this.launched++;
    const reports = new MessageChannel();
    let crash: (message: string) => void = () => {};
    const crashed = new Promise<never>((_, reject) => (crash = (message) => reject(new Error(message))));
    const request = { ...this.#options.registration(info, this.launched), reportPort: reports.port2 };
    const registered = process.gateway.register(Comlink.transfer(request, [reports.port2]));
    const ready = Promise.race([registered, crashed]).then(() => undefined);
    const tm: TaskManagerConnection = { info, process, reportPort: reports.port1, ready, lastHeartbeat: undefined, unanswered: 0, latest: undefined };
    ready.then(
      () => void (tm.lastHeartbeat ??= wallNow()),
      (error: unknown) => this.#lost(tm, `TaskManager ${info.id} on ${info.host} did not start: ${error instanceof Error ? error.message : String(error)}`),
    );
    reports.port1.onmessage = (event: MessageEvent<ReportBatch>) => {
      if (this.#connections.get(info.id) === tm) this.#options.listener.reports(tm, event.data);
    };
    process.onCrash((message) => {
      crash(message);
      this.#lost(tm, `TaskManager ${info.id} on ${info.host} crashed: ${message}`);
    });
    this.#connections.set(info.id, tm);
    return tm;
  }

  /** Kills a TaskManager's process and forgets it; the JobMaster asked for it. */
  terminate(id: string): void {
    const tm = this.#connections.get(id);
    if (!tm) return;
    this.#connections.delete(id);
    close(tm);
  }

  /** Monitoring starts now for all: the first to register must not time out waiting for the last. */
  startHeartbeats(): void {
    for (const tm of this.#connections.values()) tm.lastHeartbeat = wallNow();
    this.#timer = setInterval(() => this.#heartbeat(), this.#options.heartbeatIntervalMs);
  }

  stopHeartbeats(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  dispose(): void {
    this.stopHeartbeats();
    for (const tm of this.#connections.values()) close(tm);
    this.#connections.clear();
  }

  #lost(tm: TaskManagerConnection, cause: string): void {
    if (this.#connections.get(tm.info.id) !== tm) return;
    this.#options.listener.lost(tm.info.id, cause);
  }

  /**
   * Flink's HeartbeatManager: ask every TaskManager, and say who left requests unanswered. The
   * silence counts towards heartbeat.timeout only once the unanswered requests cover it: after the
   * main thread itself stalled, a timer can run before the answers queued meanwhile are read, and
   * a live TaskManager must not be declared lost for that.
   */
  #heartbeat(): void {
    const { heartbeatIntervalMs, heartbeatTimeoutMs, configuredPerWallMs, listener } = this.#options;
    const seq = ++this.#seq;
    const wall = wallNow();
    const requestsPerTimeout = Math.max(2, Math.ceil(heartbeatTimeoutMs / heartbeatIntervalMs));
    for (const tm of [...this.#connections.values()]) {
      if (tm.lastHeartbeat === undefined) continue;
      if (tm.unanswered >= 2) {
        const silent = (wall - tm.lastHeartbeat) * configuredPerWallMs;
        const timeout = heartbeatTimeoutMs * configuredPerWallMs;
        listener.missed(tm.info.id, tm.unanswered >= requestsPerTimeout ? silent : Math.min(silent, timeout - 1));
        if (this.#connections.get(tm.info.id) !== tm) continue;
      }
      tm.unanswered++;
      tm.process.gateway.heartbeat(seq).then(
        (payload) => {
          tm.lastHeartbeat = wallNow();
          tm.unanswered = 0;
          tm.latest = payload;
          if (this.#connections.get(tm.info.id) === tm) listener.heard(tm.info.id);
        },
        () => {},
      );
    }
  }
}

function close(tm: TaskManagerConnection): void {
  tm.reportPort.onmessage = null;
  tm.reportPort.close();
  tm.process.terminate();
}
