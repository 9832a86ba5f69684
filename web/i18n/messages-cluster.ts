/**
 * UI text of the cluster view's health marks: each TaskManager's heartbeats as the JobMaster sees
 * them, and hosts lost with lose-host (merged into `en` and `zhCN` in messages.ts). Durations are
 * the dashboard's (flink-format.ts), in every locale.
 */

export const clusterEn = {
  'cluster.tm.registered': 'registered',
  'cluster.tm.registeredHint': 'TaskManager {tm} answers the JobManager’s heartbeats',
  'cluster.tm.noHeartbeat': 'no heartbeat for {duration}',
  'cluster.tm.noHeartbeatHint': 'TaskManager {tm} has not answered a heartbeat for {duration}; after heartbeat.timeout the JobManager declares it lost and its tasks fail over',
  'cluster.host.lost': 'lost',
  'cluster.host.lostHint': 'Host {host} was lost with its disk; its TaskManagers came back on the other hosts',
  'cluster.host.lastLeft': '{host} is the last host left: its TaskManagers would have nowhere to come back',
} as const;

export const clusterZhCN: { readonly [K in keyof typeof clusterEn]: string } = {
  'cluster.tm.registered': '已注册',
  'cluster.tm.registeredHint': 'TaskManager {tm} 正常响应 JobManager 的心跳',
  'cluster.tm.noHeartbeat': '{duration} 无心跳',
  'cluster.tm.noHeartbeatHint': 'TaskManager {tm} 已有 {duration} 没有响应心跳；超过 heartbeat.timeout 后 JobManager 判定它已丢失，它的任务随之故障转移',
  'cluster.host.lost': '已丢失',
  'cluster.host.lostHint': '主机 {host} 连同它的磁盘已丢失；它的 TaskManager 已在其他主机上重新启动',
  'cluster.host.lastLeft': '{host} 是仅剩的主机：它的 TaskManager 将无处重启',
};
