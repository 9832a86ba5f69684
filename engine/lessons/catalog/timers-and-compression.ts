import type { Lesson } from '../lesson.ts';

/** Lesson 9: the second article's timer storage and snapshot compression (its RocksDB memory advice is the example scenario rocksdb-memory.yaml). */
export const timersAndCompression: Lesson = {
  id: 'timers-and-compression',
  title: {
    en: 'Timers on the heap or in RocksDB, and snapshot compression',
    'zh-CN': 'Timer 存在堆上还是 RocksDB 中，以及快照压缩',
  },
  paragraphs: [
    {
      en: 'Timers are stored in RocksDB by default (state.backend.rocksdb.timer-service.factory: ROCKSDB). For a job with few timers, keeping them on the heap (HEAP) can be faster. Use it with care, the article warns: heap timers can make checkpoints longer, because every checkpoint copies all of them in its synchronous phase, while the task processes no records, and they cannot grow beyond memory.',
      'zh-CN':
        '定时器（Timer）默认存储在 RocksDB 中（state.backend.rocksdb.timer-service.factory: ROCKSDB）。当 Job 只有很少的 Timer 时，放在堆上（HEAP）存储可以提高性能。文章提醒要小心使用：基于堆的 Timer 可能会增加 checkpoint 时间，因为每次 checkpoint 都要在同步阶段复制所有 Timer，这期间 task 不处理数据；而且它们无法在内存之外扩展。',
    },
    {
      en: 'Flink can compress every checkpoint and savepoint with snappy (execution.checkpointing.snapshot-compression, default off), key group by key group, so that a rescaled job reads only its own key groups. Compression does not apply to incremental RocksDB snapshots.',
      'zh-CN': 'Flink 可以用 snappy 压缩所有的 checkpoint 和 savepoint（execution.checkpointing.snapshot-compression，默认关闭），压缩的粒度是 key-group，这样改变并行度后每个 task 只需读取自己的 key-group。压缩选项对增量快照（RocksDB）没有影响。',
    },
    {
      en: 'This job keeps one timer per user and window, 50,000 users.',
      'zh-CN': '这个作业为每个用户的每个窗口保留一个 Timer，共 5 万个用户。',
    },
  ],
  scenario: 'lessons/timers-and-compression.yaml',
  compare: 'heap-vs-rocksdb-timers',
  steps: [
    {
      title: { en: 'Run it with the timers in RocksDB', 'zh-CN': 'Timer 存在 RocksDB 中运行' },
      body: {
        en: "Press Run and open a checkpoint in the dashboard: the window subtasks' synchronous phase (Sync Duration) stays under about 20 ms, and each full checkpoint uploads about 3 MB.",
        'zh-CN': '点击运行，在仪表盘中打开一个 checkpoint：窗口子任务的同步阶段（Sync Duration）不超过约 20 ms，每次全量 checkpoint 上传约 3 MB。',
      },
      look_at: ['sync-duration-column', 'checkpointed-size-column'],
      actions: [],
      seen: [
        { type: 'statistic', statistic: 'sync-duration', aggregate: 'max', max: 30 },
        { type: 'statistic', statistic: 'checkpointed-size', aggregate: 'max', min: 2_000_000 },
      ],
    },
    {
      title: { en: 'Move the timers to the heap', 'zh-CN': '把 Timer 放到堆上' },
      body: {
        en: 'Set state.backend.rocksdb.timer-service.factory to HEAP and run again. Now every checkpoint copies all 50,000 timers in its synchronous phase: it takes about three times as long.',
        'zh-CN': '把 state.backend.rocksdb.timer-service.factory 设为 HEAP，再运行一次。现在每次 checkpoint 都要在同步阶段复制全部 5 万个 Timer：同步阶段大约变成原来的三倍长。',
      },
      look_at: ['sync-duration-column'],
      actions: [{ kind: 'configure', option: 'state.backend.rocksdb.timer-service.factory', value: 'HEAP' }],
      seen: [{ type: 'statistic', statistic: 'sync-duration', aggregate: 'max', min: 45 }],
    },
    {
      title: { en: 'Compress the snapshots', 'zh-CN': '压缩快照' },
      body: {
        en: 'Set execution.checkpointing.snapshot-compression to true and run again: the full checkpoints shrink from about 3 MB to well under 1 MB (Checkpointed Data Size).',
        'zh-CN': '把 execution.checkpointing.snapshot-compression 设为 true，再运行一次：全量 checkpoint 从约 3 MB 缩小到远低于 1 MB（Checkpointed Data Size）。',
      },
      look_at: ['checkpointed-size-column'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.snapshot-compression', value: true }],
      seen: [{ type: 'statistic', statistic: 'checkpointed-size', aggregate: 'max', max: 1_000_000 }],
    },
  ],
};
