/**
 * One-line explanations of the Flink options in every locale but English. English comes from
 * the option's own `description` (engine/config/flink-options.ts), so the engine stays the single
 * source; an option added there without a translation here shows its English line.
 */
import type { Locale } from './locale.ts';

export const optionDescriptions: Record<Exclude<Locale, 'en'>, Readonly<Record<string, string>>> = {
  'zh-CN': {
    'execution.checkpointing.interval': 'Checkpoint 协调器多久触发一次周期性 Checkpoint。',
    'execution.checkpointing.min-pause': '上一个 Checkpoint 完成后，到下一个周期性 Checkpoint 开始前至少要间隔的时间。',
    'execution.checkpointing.max-concurrent-checkpoints': '同时最多允许多少个 Checkpoint 在进行；达到上限时周期性触发会等待。',
    'execution.checkpointing.checkpoints-after-tasks-finish': '部分任务（例如有界 Source）结束后仍继续做 Checkpoint。',
    'execution.checkpointing.mode': 'EXACTLY_ONCE 对齐 barrier（或使用非对齐 Checkpoint）；AT_LEAST_ONCE 从不阻塞输入。',
    'execution.checkpointing.unaligned.enabled': '让 barrier 超过在途缓冲区，在途数据随 Checkpoint 一起保存，反压就不会拖慢 Checkpoint。',
    'execution.checkpointing.aligned-checkpoint-timeout': '开启非对齐 Checkpoint 时：先按对齐方式进行，超过这个时间后转为非对齐（0 = 始终非对齐）。',
    'execution.checkpointing.timeout': '超过这个时间仍未完成的 Checkpoint 会过期，并计为失败。',
    'execution.checkpointing.tolerable-failed-checkpoints': '作业可以容忍多少次连续的 Checkpoint 失败，超过后触发故障恢复。',
    'heartbeat.interval': 'JobManager 与 TaskManager 之间交换心跳的频率。',
    'heartbeat.timeout': 'TaskManager 沉默超过这个时间即被视为丢失，其任务进行故障恢复。',
    'execution.checkpointing.num-retained': '保留多少个已完成的 Checkpoint；更旧的会被取代，其文件被删除。',
    'execution.checkpointing.externalized-checkpoint-retention': '作业被取消或最终失败后，已完成的 Checkpoint 是否保留。',
    'execution.checkpointing.storage': 'Checkpoint 写到哪里（显示在 Checkpoint 配置中）。',
    'execution.checkpointing.dir': 'Checkpoint 数据和元数据的目录（在演练场的远程存储中只是一个标签）。',
    'execution.checkpointing.savepoint-dir': 'Savepoint 的默认目录。',
    'execution.checkpointing.data-inline-threshold': '不超过此大小的状态块直接内联写进 Checkpoint 的 _metadata 文件，而不单独写成文件（最大 1 mb）。',
    'execution.state-recovery.claim-mode': '从快照恢复的作业是接管其文件（CLAIM），还是不去动它们。',
    'web.checkpoints.history': '统计历史中保留最近多少个 Checkpoint。',
    'state.backend.type': 'hashmap 把状态作为对象放在堆上；rocksdb 把状态放在基于 wa-sqlite（WebAssembly 中的 SQLite）构建、代替 RocksDB 的 LSM 树中，并能做增量快照。',
    'execution.checkpointing.incremental': '只上传自上一个完成的 Checkpoint 以来变化的文件（仅限 rocksdb）。',
    'state.backend.rocksdb.checkpoint.transfer.thread.num': '每个有状态子任务上传和下载状态文件的线程数。',
    'state.backend.rocksdb.memory.managed': '用 Slot 的托管内存来决定 RocksDB 共享 block cache 和 write buffer 的大小。',
    'state.backend.rocksdb.memory.fixed-per-slot': '每个 Slot 固定的 RocksDB 内存预算；优先于托管内存。',
    'state.backend.rocksdb.memory.write-buffer-ratio': 'RocksDB 内存中用于 memtable（write buffer）的比例。',
    'state.backend.rocksdb.memory.high-prio-pool-ratio': 'block cache 中为索引和过滤器块保留的比例。',
    'state.backend.rocksdb.writebuffer.size': '单个 memtable 刷写成有序文件之前的大小。',
    'state.backend.rocksdb.writebuffer.count': '写入停顿之前最多可以存在多少个 memtable。',
    'state.backend.rocksdb.thread.num': '用于刷写和合并（compaction）的后台线程数。只有场景设置了此选项时，Playground（模拟与实时运行）才让 flush 在这些线程上花费本地磁盘的时间（write buffer 用尽时写入会停顿）。',
    'state.backend.rocksdb.block.cache-size': 'RocksDB 内存不受托管时的 block cache 大小。',
    'taskmanager.memory.managed.fraction': 'TaskManager 内存中托管内存的比例（RocksDB 从中取用）。',
    'taskmanager.memory.managed.size': '每个 TaskManager 的托管内存大小；优先于比例设置。',
    'state.backend.rocksdb.timer-service.factory': 'rocksdb 把定时器放在哪里：RocksDB 中，或堆上（同步快照）。',
    'pipeline.auto-watermark-interval': 'Source 多久发出一次 Watermark（0 = 从不）。',
    'execution.checkpointing.snapshot-compression': '按 key group 用 snappy 压缩完整快照（对增量 RocksDB 文件无效）。',
    'execution.checkpointing.local-backup.enabled': '同时把每个快照写到 TaskManager 的本地磁盘。',
    'execution.state-recovery.from-local': '恢复时，如果子任务有本地副本就从本地读取状态，否则从远程存储读取。',
    'restart-strategy.type': '作业失败后如何重启（未模拟 failure-rate）。',
    'restart-strategy.fixed-delay.attempts': 'fixed-delay：作业彻底失败之前允许的重启次数。',
    'restart-strategy.fixed-delay.delay': 'fixed-delay：每次重启前的等待时间。',
    'restart-strategy.exponential-delay.initial-backoff': 'exponential-delay：第一次重启前的等待时间。',
    'restart-strategy.exponential-delay.max-backoff': 'exponential-delay：等待时间不会超过这个值。',
    'restart-strategy.exponential-delay.backoff-multiplier': 'exponential-delay：每次连续失败，等待时间乘以这个系数。',
    'restart-strategy.exponential-delay.reset-backoff-threshold': 'exponential-delay：无故障运行这么久后，等待时间重置。',
    'restart-strategy.exponential-delay.jitter-factor': 'exponential-delay：每次等待随机增减的比例。',
    'restart-strategy.exponential-delay.attempts-before-reset-backoff': 'exponential-delay：作业彻底失败之前允许的重启次数（随等待时间一起重置）。',
    'taskmanager.network.memory.buffers-per-channel': '每个输入通道独占的网络缓冲区（credit）数。',
    'taskmanager.network.memory.floating-buffers-per-gate': '每个输入门额外的浮动缓冲区，借给有积压的通道使用。',
    'taskmanager.memory.segment-size': '一个网络缓冲区的大小；记录被打包进这么大的缓冲区。',
    'execution.buffer-timeout.interval': '未写满的输出缓冲区在这么久之后发送（0 = 每条记录后都发送）。',
    'parallelism.default': '没有单独设置并行度的顶点所用的并行度。',
    'pipeline.max-parallelism': 'key group 的数量；keyed 状态扩缩容的上限。',
    'taskmanager.numberOfTaskSlots': '每个 TaskManager 的 task slot 数（集群的 slots_per_task_manager）。',
  },
};

/** Translations of the options' `defaultNote` (why the default is what it is), English from the engine. */
export const optionDefaultNotes: Record<Exclude<Locale, 'en'>, Readonly<Record<string, string>>> = {
  'zh-CN': {
    'execution.checkpointing.interval': '未设置：周期性 Checkpoint 关闭；低于 10 ms 时同样关闭（Flink 的 MINIMAL_CHECKPOINT_TIME）',
    'execution.checkpointing.storage': '未设置：设置了 Checkpoint 目录时 Flink 选 filesystem，否则选 jobmanager；演练场总是写入模拟的远程存储',
    'state.backend.rocksdb.memory.fixed-per-slot': '未设置：使用 Slot 的托管内存',
    'taskmanager.memory.managed.size': '未设置：由 taskmanager.memory.managed.fraction 推算',
    'execution.checkpointing.local-backup.enabled': '未设置：取 execution.state-recovery.from-local 的值',
    'restart-strategy.type': '未设置：开启 Checkpoint 时为 exponential-delay，否则为 none（Flink 1.19+）',
    'pipeline.max-parallelism': '-1：Flink 的默认规则 min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768)',
  },
};
