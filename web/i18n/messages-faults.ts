/**
 * A `fault` event in words (its FaultDetail, engine/run/fault-event.ts), keyed `fault.<kind>`; the
 * placeholders are the detail's fields. Merged into `en` and `zhCN` in messages.ts. Flink's names
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

export const faultsZhCN: { readonly [K in keyof typeof faultsEn]: string } = {
  'fault.fail-task': '让任务 {vertex}#{subtask} 失败',
  'fault.kill-task-manager': '杀掉 {host} 上的 TaskManager {taskManager}；它在 {host} 上重启',
  'fault.lose-host': '主机 {host} 宕机（{taskManagers}）',
  'fault.stall-task-manager': 'TaskManager {taskManager} 停止响应；JobManager 在 heartbeat.timeout（{heartbeatTimeoutMs} 毫秒）后发现',
  'fault.corrupt-local-copy': '损坏 {host} 上 {vertex}#{subtask} 的本地副本：{paths}',
  'fault.delete-local-copy': '删除 {host} 上 {vertex}#{subtask} 的本地副本：{paths}',
  'fault.slow-operator': '让 {vertex} 变慢 ×{factor}',
  'fault.slow-remote-storage': '远程存储变慢 ×{factor}',
  'fault.fail-remote-storage': '远程存储的每个请求都失败',
  'fault.heal-remote-storage': '远程存储恢复正常',
  'fault.cancel-job': '取消作业',
  'fault.stop-with-savepoint': '停止作业并生成 Savepoint',
  'fault.stop-with-savepoint-drain': '先排空作业，再停止作业并生成 Savepoint',
  'fault.rescale': '从 Checkpoint {checkpointId} 把 {vertex} 的并行度调整为 {parallelism}',
  'fault.restart-from-savepoint': '从 Savepoint {savepointId} 重启',

  'faultType.fail-task': '让任务失败',
  'faultType.kill-task-manager': '杀掉 TaskManager',
  'faultType.lose-host': '主机宕机',
  'faultType.stall-task-manager': '让 TaskManager 卡住',
  'faultType.corrupt-local-copy': '损坏本地副本',
  'faultType.delete-local-copy': '删除本地副本',
  'faultType.slow-operator': '让算子变慢',
  'faultType.slow-remote-storage': '让远程存储变慢',
  'faultType.fail-remote-storage': '让远程存储失败',
  'faultType.heal-remote-storage': '修复远程存储',
  'faultType.trigger-checkpoint': '触发 Checkpoint',
  'faultType.trigger-savepoint': '触发 Savepoint',
  'faultType.rescale': '调整并行度',
  'faultType.restart-from-savepoint': '从 Savepoint 重启',
  'faultType.cancel': '取消作业',
  'faultType.stop-with-savepoint': '停止作业并生成 Savepoint',
  'fault.notApplied': '“{fault}”未执行：{reason}',
};
