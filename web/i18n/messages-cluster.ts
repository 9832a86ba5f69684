/**
 * UI text of the cluster view's health marks: each TaskManager's heartbeats as the JobMaster sees
 * them, and hosts lost with lose-host (merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale). Durations are
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
