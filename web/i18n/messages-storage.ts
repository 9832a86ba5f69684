/** UI text of the cluster and storage view (merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale). */

export const storageEn = {
  'storage.panelTitle': 'Cluster and checkpoint storage',
  'storage.localDisk': 'Local disk',
  'storage.localDisk.empty': 'No task-local copies yet.',
  'storage.localDisk.off': 'Task-local recovery is off: no local copies are written.',
  'storage.localCopy.label': 'Local copy of {subtask}, checkpoint {id}, on {host}',
  'storage.rocksdbWorkingDb': 'RocksDB working directory',
  'storage.rocksdbWorkingDb.title':
    'The wa-sqlite LSM working database of {taskManager}, standing in for RocksDB\'s state.backend.rocksdb.localdir, in this host\'s OPFS directory {path}',
  'storage.rocksdbWorkingDb.titleIndexedDb':
    'The wa-sqlite LSM working database of {taskManager}, standing in for RocksDB\'s state.backend.rocksdb.localdir, in the IndexedDB database {path} (this browser offers no OPFS)',
  'storage.more': '… and {n} more',
  'storage.remote': 'Remote checkpoint storage',
  'storage.remote.empty': 'No completed checkpoint is retained yet.',
  'storage.retained': 'Retained checkpoints',
  'storage.dirMeta': '{files} files, {size}',
  'storage.latest': 'latest',
  'storage.sharedMeta': '{n} files, {size}',
  'storage.savepoints': 'Savepoints',
  'storage.database': 'In IndexedDB «{name}»',
  'storage.database.meta': '{files} files, {size}; shared/: {shared}',
  'storage.database.none': 'no chk-N directory',
  'storage.database.behind': 'writing…',
  'storage.database.error': 'Last storage error: {message}',
  'storage.cost': 'Behaves like an object store: {latency} ms per request, {bandwidth} MB/s',
  'storage.cost.title': 'The real reads and writes go to IndexedDB and are slowed to this cost model (scenario costs.remote_latency_ms and costs.remote_bandwidth_mb_per_s), so remote storage is never as fast as a local disk.',
  'storage.cost.slow': 'slowed ×{factor} by a fault',
  'storage.cost.failing': 'failing: writes are refused',
} as const;
