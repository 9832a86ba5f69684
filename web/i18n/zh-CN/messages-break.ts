/** The Chinese of ../messages-break.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { breakEn } from '../messages-break.ts';

export const breakZhCN: { readonly [K in keyof typeof breakEn]: string } = {
  'break.stallTm': '让 TaskManager 卡住',
  'break.stallHint': 'TaskManager 不再响应但没有死（如长时间 GC 停顿）：JobManager 在 heartbeat.timeout 之后发现，并重启它的任务',
  'break.localCopy': '本地副本',
  'break.localCopyTarget': '{host} 上的 {task}',
  'break.deleteLocalCopy': '删除本地副本',
  'break.deleteHint': '删除所选子任务在其主机上的任务本地副本：下次恢复时找不到本地副本，改为读取远程副本',
  'break.remoteStorage': '远程存储',
  'break.remoteFactor': '远程存储减速倍数',
  'break.slowRemote': '设置存储速度',
  'break.failRemote': '让远程存储失败',
  'break.failRemoteHint': '每次上传和下载都失败：在修复之前，Checkpoint 都会因 IO 错误失败',
  'break.healRemote': '修复远程存储',
  'break.restartFromSavepoint': '从最新的 Savepoint 恢复运行',
  'break.cancelJob': '取消作业',
  'break.cancelHint': 'Flink 的 cancel：只有 execution.checkpointing.externalized-checkpoint-retention 为 RETAIN_ON_CANCELLATION 时才保留已完成的 Checkpoint',
  'break.done.stallTm': 'TaskManager {tm} 已停止响应；JobManager 会在 heartbeat.timeout 之后发现。',
  'break.done.corrupt': '已损坏 {host} 上 {task} 的本地副本。下一个完成的 checkpoint 会写入新的副本：请在那之前让该 task 失败，即可看到恢复回退到远端存储。',
  'break.done.deleteLocalCopy': '已删除 {host} 上 {task} 的本地副本。下一个完成的 checkpoint 会写入新的副本：请在那之前让该 task 失败，即可看到恢复回退到远端存储。',
  'break.done.slowRemote': '远程存储现在慢了 {factor} 倍。',
  'break.done.normalRemote': '远程存储恢复正常速度。',
  'break.done.failRemote': '远程存储现在每个请求都失败。',
  'break.done.healRemote': '远程存储已恢复正常。',
  'break.done.restartFromSavepoint': '正在从最新的 Savepoint 重启。',
  'break.done.cancelRetained': '作业已取消：已完成的 Checkpoint 被保留（{retention}）。',
  'break.done.cancelDeleted': '作业已取消：已完成的 Checkpoint 被删除（{retention}）。',
  'shortcuts.stallTm': '让“制造故障”中所选的 TaskManager 卡住',
  'shortcuts.deleteLocalCopy': '删除“制造故障”中所选子任务的本地副本',
};
