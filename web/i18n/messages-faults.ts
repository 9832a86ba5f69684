/**
 * A `fault` event in words (its FaultDetail, engine/run/fault-event.ts), keyed `fault.<kind>`; the
 * placeholders are the detail's fields. Merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale. Flink's names
 * (TaskManager, heartbeat.timeout, savepoint ids) stay as they are, as elsewhere.
 */

export const faultsEn = {
  'fault.fail-task': 'fail task {vertex}#{subtask}',
  'fault.kill-task-manager': 'kill TaskManager {taskManager} on {host}; it restarts on {host}',
  'fault.lose-host': 'lose host {host} ({taskManagers})',
  'fault.stall-task-manager': 'stall TaskManager {taskManager}; the JobManager notices after heartbeat.timeout ({heartbeatTimeoutMs} ms)',
  'fault.corrupt-local-copy': 'corrupt local copy of {vertex}#{subtask} on {host}: {paths}',
  'fault.delete-local-copy': 'delete local copy of {vertex}#{subtask} on {host}: {paths}',
  'fault.slow-operator': 'slow {vertex} by ×{factor}',
  'fault.slow-remote-storage': 'remote storage ×{factor} slower',
  'fault.fail-remote-storage': 'remote storage fails every request',
  'fault.heal-remote-storage': 'remote storage works again',
  'fault.cancel-job': 'cancel the job',
  'fault.stop-with-savepoint': 'stop the job with a savepoint',
  'fault.stop-with-savepoint-drain': 'drain the job, then stop it with a savepoint',
  'fault.rescale': 'rescale {vertex} to parallelism {parallelism} from checkpoint {checkpointId}',
  'fault.restart-from-savepoint': 'restart from savepoint {savepointId}',

  // What each fault type (and operation) is called, without its target: a scheduled one that could
  // not be carried out names its type only (`fault-not-applied`).
  'faultType.fail-task': 'fail task',
  'faultType.kill-task-manager': 'kill TaskManager',
  'faultType.lose-host': 'lose host',
  'faultType.stall-task-manager': 'stall TaskManager',
  'faultType.corrupt-local-copy': 'corrupt local copy',
  'faultType.delete-local-copy': 'delete local copy',
  'faultType.slow-operator': 'slow operator',
  'faultType.slow-remote-storage': 'slow remote storage',
  'faultType.fail-remote-storage': 'fail remote storage',
  'faultType.heal-remote-storage': 'heal remote storage',
  'faultType.trigger-checkpoint': 'trigger checkpoint',
  'faultType.trigger-savepoint': 'trigger savepoint',
  'faultType.rescale': 'rescale',
  'faultType.restart-from-savepoint': 'restart from savepoint',
  'faultType.cancel': 'cancel the job',
  'faultType.stop-with-savepoint': 'stop with savepoint',
  /** `reason` is the engine's, in English, in every locale */
  'fault.notApplied': '{fault} not applied: {reason}',
} as const;
