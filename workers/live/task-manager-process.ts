import * as Comlink from 'comlink';
import type { TaskManagerGateway } from '../protocol.ts';

/** The JobManager's handle on one TaskManager process. */
export interface TaskManagerProcess {
  readonly gateway: Comlink.Remote<TaskManagerGateway>;
  /** Kills the process at once (Worker.terminate()): its state and in-flight data are gone. */
  terminate(): void;
  /** The process crashed on its own (the worker's script failed); the JobManager treats it as lost. */
  onCrash(listener: (message: string) => void): void;
}

/**
 * The worker entry a process starts from: `rocksdb` also loads the working database's modules as
 * it starts (rocksdb.task-manager.worker.ts), where `default` leaves them until a deployment needs them.
 */
export type TaskManagerEntry = 'default' | 'rocksdb';

/** Starts a TaskManager process; `name` shows in the browser's devtools. */
export type TaskManagerLauncher = (name: string, entry?: TaskManagerEntry) => TaskManagerProcess;

/**
 * One Web Worker per TaskManager: the live runtime's processes.
 *
 * Comlink's FinalizationRegistry holds the endpoint of a gateway until the gateway is collected,
 * and the gateway stays reachable from the worker's own listeners (the callbacks of calls it never
 * answered), so a terminated Worker held as the endpoint kept itself, its listeners and through
 * them the whole JobManager of a disposed run alive. The endpoint lets go of the worker instead.
 */
export const launchWorkerTaskManager: TaskManagerLauncher = (name, entry = 'default') => {
  // Two literal URLs: Vite finds a worker's entry only as `new Worker(new URL('…', import.meta.url))`.
  let worker: Worker | undefined =
    entry === 'rocksdb'
      ? new Worker(new URL('../rocksdb.task-manager.worker.ts', import.meta.url), { type: 'module', name })
      : new Worker(new URL('../task-manager.worker.ts', import.meta.url), { type: 'module', name });
  const endpoint: Comlink.Endpoint = {
    postMessage: (message, transfer) => worker?.postMessage(message, transfer ?? []),
    addEventListener: (type, listener, options) => worker?.addEventListener(type, listener, options),
    removeEventListener: (type, listener, options) => worker?.removeEventListener(type, listener, options),
  };
  return {
    gateway: Comlink.wrap<TaskManagerGateway>(endpoint),
    terminate: () => {
      worker?.terminate();
      worker = undefined;
    },
    onCrash: (listener) => worker?.addEventListener('error', (event) => listener(event.message || 'the worker failed to start')),
  };
};
