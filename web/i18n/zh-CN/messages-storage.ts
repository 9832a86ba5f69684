/** The Chinese of ../messages-storage.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { storageEn } from '../messages-storage.ts';

export const storageZhCN: { readonly [K in keyof typeof storageEn]: string } = {
  'storage.panelTitle': '集群与 Checkpoint 存储',
  'storage.localDisk': '本地磁盘',
  'storage.localDisk.empty': '还没有任务本地副本。',
  'storage.localDisk.off': '任务本地恢复未开启：不写本地副本。',
  'storage.localCopy.label': '{host} 上 {subtask} 的本地副本，Checkpoint {id}',
  'storage.rocksdbWorkingDb': 'RocksDB 工作目录',
  'storage.rocksdbWorkingDb.title': '{taskManager} 的 wa-sqlite LSM 工作数据库，代替 RocksDB 的 state.backend.rocksdb.localdir，位于本主机的 OPFS 目录 {path}',
  'storage.more': '……还有 {n} 个',
  'storage.remote': '远程 Checkpoint 存储',
  'storage.remote.empty': '还没有保留的已完成 Checkpoint。',
  'storage.retained': '保留的 Checkpoint',
  'storage.dirMeta': '{files} 个文件，{size}',
  'storage.latest': '最新',
  'storage.sharedMeta': '{n} 个文件，{size}',
  'storage.savepoints': 'Savepoint',
  'storage.database': 'IndexedDB 数据库 «{name}» 中',
  'storage.database.meta': '{files} 个文件，{size}；shared/：{shared}',
  'storage.database.none': '没有 chk-N 目录',
  'storage.database.behind': '写入中……',
  'storage.database.error': '最近一次存储错误：{message}',
  'storage.cost': '按对象存储计费：每个请求 {latency} ms，{bandwidth} MB/s',
  'storage.cost.title': '真实的读写落在 IndexedDB 中，并按这个代价模型放慢（场景的 costs.remote_latency_ms 与 costs.remote_bandwidth_mb_per_s），所以远程存储永远不会像本地磁盘那样快。',
  'storage.cost.slow': '因故障放慢 ×{factor}',
  'storage.cost.failing': '故障中：写入被拒绝',
  'storage.rocksdbWorkingDb.titleIndexedDb': '{taskManager} 的 wa-sqlite LSM 工作数据库，代替 RocksDB 的 state.backend.rocksdb.localdir，位于 IndexedDB 数据库 {path}（此浏览器不提供 OPFS）',
};
