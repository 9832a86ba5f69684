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

/** One Web Worker per TaskManager: the live runtime's processes. */
export const launchWorkerTaskManager: TaskManagerLauncher = (name) => {
  const worker = new Worker(new URL('../task-manager.worker.ts', import.meta.url), { type: 'module', name });
  return {
    gateway: Comlink.wrap<TaskManagerGateway>(worker),
    terminate: () => worker.terminate(),
    onCrash: (listener) => worker.addEventListener('error', (event) => listener(event.message || 'the worker failed to start')),
  };
};
