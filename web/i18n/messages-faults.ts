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
  'fault.rescale': 'rescale {vertex} to parallelism {parallelism} from checkpoint {checkpointId}',
  'fault.restart-from-savepoint': 'restart from savepoint {savepointId}',
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
  'fault.rescale': '从 Checkpoint {checkpointId} 把 {vertex} 的并行度调整为 {parallelism}',
  'fault.restart-from-savepoint': '从 Savepoint {savepointId} 重启',
};
