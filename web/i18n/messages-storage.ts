/** UI text of the cluster and storage view (merged into `en` and `zhCN` in messages.ts). */

export const storageEn = {
  'storage.panelTitle': 'Cluster and checkpoint storage',
  'storage.localDisk': 'Local disk',
  'storage.localDisk.empty': 'No task-local copies yet.',
  'storage.localDisk.off': 'Task-local recovery is off: no local copies are written.',
  'storage.localCopy.label': 'Local copy of {subtask}, checkpoint {id}, on {host}',
  'storage.more': '… and {n} more',
  'storage.remote': 'Remote checkpoint storage',
  'storage.remote.empty': 'No completed checkpoint is retained yet.',
  'storage.retained': 'Retained checkpoints',
  'storage.dirMeta': '{files} files, {size}',
  'storage.latest': 'latest',
  'storage.sharedMeta': '{n} files, {size}',
  'storage.savepoints': 'Savepoints',
} as const;

export const storageZhCN: { readonly [K in keyof typeof storageEn]: string } = {
  'storage.panelTitle': '集群与 Checkpoint 存储',
  'storage.localDisk': '本地磁盘',
  'storage.localDisk.empty': '还没有任务本地副本。',
  'storage.localDisk.off': '任务本地恢复未开启：不写本地副本。',
  'storage.localCopy.label': '{host} 上 {subtask} 的本地副本，Checkpoint {id}',
  'storage.more': '……还有 {n} 个',
  'storage.remote': '远程 Checkpoint 存储',
  'storage.remote.empty': '还没有保留的已完成 Checkpoint。',
  'storage.retained': '保留的 Checkpoint',
  'storage.dirMeta': '{files} 个文件，{size}',
  'storage.latest': '最新',
  'storage.sharedMeta': '{n} 个文件，{size}',
  'storage.savepoints': 'Savepoint',
};
