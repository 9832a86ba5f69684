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

/** Starts a TaskManager process; `name` shows in the browser's devtools. */
export type TaskManagerLauncher = (name: string) => TaskManagerProcess;

/**
 * One Web Worker per TaskManager: the live runtime's processes.
 *
 * Comlink's FinalizationRegistry holds the endpoint of a gateway until the gateway is collected,
 * and the gateway stays reachable from the worker's own listeners (the callbacks of calls it never
 * answered), so a terminated Worker held as the endpoint kept itself, its listeners and through
 * them the whole JobManager of a disposed run alive. The endpoint lets go of the worker instead.
 */
export const launchWorkerTaskManager: TaskManagerLauncher = (name) => {
  let worker: Worker | undefined = new Worker(new URL('../task-manager.worker.ts', import.meta.url), { type: 'module', name });
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
