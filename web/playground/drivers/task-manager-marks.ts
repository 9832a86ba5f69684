/**
 * The live runtime's TaskManager workers, counted from performance marks: the page shows the
 * count without loading the live runtime (live-page-driver.ts, loaded when a live run starts).
 */

/** performance.mark names, one mark per TaskManager worker; `detail` is the worker's name. */
export const TASK_MANAGER_STARTED_MARK = 'checkpoint-playground:task-manager-started';
export const TASK_MANAGER_TERMINATED_MARK = 'checkpoint-playground:task-manager-terminated';

/** TaskManager Web Workers started on this page and not terminated, counted from the performance marks. */
export function taskManagerWorkersRunning(): number {
  return performance.getEntriesByName(TASK_MANAGER_STARTED_MARK).length - performance.getEntriesByName(TASK_MANAGER_TERMINATED_MARK).length;
}
