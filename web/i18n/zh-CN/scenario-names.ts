/** The bundled example scenarios' names in Chinese, by file (the zh-CN locale's chunk). */
export const scenarioNamesZhCN: Readonly<Record<string, string>> = {
  'word-count.yaml': '单词计数',
  'click-counts.yaml': '点击计数',
  'two-stream-join.yaml': '双流 Join',
  'always-checkpointing.yaml': '一直在做 Checkpoint',
  'min-pause.yaml': 'Checkpoint 之间的最小间隔',
  'exactly-once-under-failures.yaml': '故障下的精确一次',
  'at-least-once-duplicates.yaml': '至少一次会产生重复',
  'incremental-checkpoints.yaml': '增量 Checkpoint',
  'local-recovery.yaml': '任务本地恢复',
  'rocksdb-memory.yaml': '调整 RocksDB 内存',
  'heap-timers.yaml': '堆上定时器拉长 Checkpoint',
  'snapshot-compression.yaml': '快照压缩',
  'parallelism-and-state.yaml': '并行度与 Checkpoint 时间',
  'production-scale.yaml': '生产规模',
};
