/** The Chinese of ../messages-cluster.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { clusterEn } from '../messages-cluster.ts';

export const clusterZhCN: { readonly [K in keyof typeof clusterEn]: string } = {
  'cluster.tm.registered': '已注册',
  'cluster.tm.registeredHint': 'TaskManager {tm} 正常响应 JobManager 的心跳',
  'cluster.tm.noHeartbeat': '{duration} 无心跳',
  'cluster.tm.noHeartbeatHint': 'TaskManager {tm} 已有 {duration} 没有响应心跳；超过 heartbeat.timeout 后 JobManager 判定它已丢失，它的任务随之故障转移',
  'cluster.host.lost': '已丢失',
  'cluster.host.lostHint': '主机 {host} 连同它的磁盘已丢失；它的 TaskManager 已在其他主机上重新启动',
  'cluster.host.lastLeft': '{host} 是仅剩的主机：它的 TaskManager 将无处重启',
};
