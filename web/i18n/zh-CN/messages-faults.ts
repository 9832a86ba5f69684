/** The Chinese of ../messages-faults.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { faultsEn } from '../messages-faults.ts';

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
