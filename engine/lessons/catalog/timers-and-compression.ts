import type { Lesson } from '../lesson.ts';

/** Lesson 9: the second article's timer storage, snapshot compression and RocksDB memory (managed memory, the write-buffer ratio, flushes, write stalls). */
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
    {
      en: "RocksDB is only as fast as the memory it gets. With state.backend.rocksdb.memory.managed (the default), each slot's share of the TaskManager's managed memory (taskmanager.memory.managed.size, or else taskmanager.memory.managed.fraction, 0.4 by default) is one budget for every RocksDB state in the slot: the write buffers (memtables) that take new writes and the block cache that serves reads share it, and state.backend.rocksdb.memory.write-buffer-ratio (default 0.5) sets the write buffers' share. A full memtable is flushed to a new SST file, and many small files keep compaction busy; when memtables fill faster than they are flushed, RocksDB stalls writes. The article's advice: first give RocksDB more managed memory; if you cannot and memtables flush often, raise the write-buffer ratio.",
      'zh-CN':
        'RocksDB 的性能在很大程度上取决于它能用到的内存。开启 state.backend.rocksdb.memory.managed（默认开启）时，每个 Slot 分到的 TaskManager 托管内存（taskmanager.memory.managed.size，未设置时按 taskmanager.memory.managed.fraction 计算，默认 0.4）是该 Slot 中所有 RocksDB State 共用的一份预算：接收写入的 write buffer（MemTable）和服务读取的 block cache 共享这份内存，其中 write buffer 所占的比例由 state.backend.rocksdb.memory.write-buffer-ratio（默认 0.5）决定。写满的 MemTable 会被 flush 成新的 SST 文件，小文件一多，compaction 就忙个不停；如果 MemTable 写满的速度超过 flush 的速度，RocksDB 会让写入停顿（write stall）。文章的建议是：首先增加托管内存；如果无法提供更多内存，而 MemTable 又频繁 flush，可以调大 write buffer 的比例。',
    },
  ],
  scenario: 'lessons/timers-and-compression.yaml',
  compare: 'heap-vs-rocksdb-timers',
  steps: [
    {
      title: { en: 'Run it with the timers in RocksDB', 'zh-CN': 'Timer 存在 RocksDB 中运行' },
      body: {
        en: "Press Run and open a checkpoint in the dashboard: the window subtasks' synchronous phase (Sync Duration) stays under about 20 ms, and each full checkpoint uploads about 3 MB.",
        'zh-CN': '点击运行，在仪表盘中打开一个 checkpoint：窗口子任务的同步阶段（同步阶段时长）不超过约 20 ms，每次全量 checkpoint 上传约 3 MB。',
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
        'zh-CN': '把 execution.checkpointing.snapshot-compression 设为 true，再运行一次：全量 checkpoint 从约 3 MB 缩小到远低于 1 MB（Checkpoint 数据量）。',
      },
      look_at: ['checkpointed-size-column'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.snapshot-compression', value: true }],
      seen: [{ type: 'statistic', statistic: 'checkpointed-size', aggregate: 'max', max: 1_000_000 }],
    },
    {
      title: { en: 'Give RocksDB only 1 MB', 'zh-CN': '只给 RocksDB 1 MB 内存' },
      body: {
        en: "Set taskmanager.memory.managed.size to 1 mb and run again. With the default fraction each slot had hundreds of megabytes, and in 12 s no memtable filled up. Now each of the two slots gets half a megabyte, of which the write buffers about 170 KB: the RocksDB chart of flushes, compactions and write stalls shows about four flushes every second (more than 40 in the run, where there were none), and compactions follow.",
        'zh-CN':
          '把 taskmanager.memory.managed.size 设为 1 mb，再运行一次。按默认的比例，每个 Slot 有几百 MB 内存，12 秒内没有一个 MemTable 写满。现在两个 Slot 各分到半 MB，其中 write buffer 只有约 170 KB：RocksDB 的刷写、合并与写入停顿图表显示每秒约四次 flush（整个运行中超过 40 次，而之前一次也没有），compaction 也随之而来。',
      },
      look_at: ['rocksdb-chart'],
      actions: [{ kind: 'configure', option: 'taskmanager.memory.managed.size', value: '1 mb' }],
      seen: [{ type: 'rocksdb-metric', metric: 'lsm.flush.count', vertex: 'windows', min: 15 }],
    },
    {
      title: { en: 'Raise the write-buffer ratio', 'zh-CN': '调大 write buffer 的比例' },
      body: {
        en: 'Set state.backend.rocksdb.memory.write-buffer-ratio to 0.9 and run again, still with 1 MB. The memtables may now take up to 90% of the budget and fill about half as often: about half as many flushes in the RocksDB chart. The block cache gets what is left, so about half as many reads again miss it over the run (the chart of block cache misses per second). The ratio only moves memory between writes and reads; more managed memory helps both.',
        'zh-CN':
          '把 state.backend.rocksdb.memory.write-buffer-ratio 设为 0.9，内存仍然是 1 MB，再运行一次。现在 MemTable 最多可以占用预算的 90%，写满的频率大约减半：RocksDB 图表中的 flush 次数也大约减半。block cache 只剩下其余的内存，整个运行中未命中的读取大约多出一半（见每秒 block cache 未命中次数的图表）。这个比例只是在写和读之间挪动内存；增加托管内存才能让两者都受益。',
      },
      look_at: ['rocksdb-chart', 'block-cache-chart'],
      actions: [{ kind: 'configure', option: 'state.backend.rocksdb.memory.write-buffer-ratio', value: 0.9 }],
      seen: [
        { type: 'rocksdb-metric', metric: 'lsm.flush.count', vertex: 'windows', max: 32 },
        { type: 'rocksdb-metric', metric: 'rocksdb.block.cache.miss', vertex: 'windows', min: 160_000 },
      ],
    },
    {
      title: { en: 'Give RocksDB more managed memory', 'zh-CN': '给 RocksDB 更多托管内存' },
      body: {
        en: "Set taskmanager.memory.managed.size to 8 mb and run again, the ratio still 0.9: eight times the memory (4 MB per slot) leaves room for both writes and reads. The RocksDB chart shows just two flushes, one per window subtask, and the block cache misses drop from nearly 200,000 in the run to a few hundred: their chart stays near zero. This is the article's first advice: the default managed fraction of 0.4 is conservative, and unless the job itself needs much JVM heap, most of a large TaskManager's memory can go to RocksDB.",
        'zh-CN':
          '把 taskmanager.memory.managed.size 设为 8 mb，write buffer 比例仍为 0.9，再运行一次：内存是原来的八倍（每个 Slot 4 MB），写和读两边都宽裕了。RocksDB 图表中只有两次 flush，每个窗口子任务一次；整个运行中 block cache 的未命中数从将近 20 万次降到几百次，它的图表几乎一直贴近零。这正是文章的第一条建议：默认的托管内存比例 0.4 是保守的，除非应用程序本身需要大量 JVM 堆内存，大 TaskManager 的大部分内存通常都可以交给 RocksDB 使用。',
      },
      look_at: ['rocksdb-chart', 'block-cache-chart'],
      actions: [{ kind: 'configure', option: 'taskmanager.memory.managed.size', value: '8 mb' }],
      seen: [
        { type: 'rocksdb-metric', metric: 'lsm.flush.count', vertex: 'windows', max: 4 },
        { type: 'rocksdb-metric', metric: 'rocksdb.block.cache.miss', vertex: 'windows', max: 5_000 },
      ],
    },
    {
      title: { en: 'Make writes stall', 'zh-CN': '让写入停顿（write stall）' },
      body: {
        en: "Set state.backend.rocksdb.writebuffer.size to 32 kb and state.backend.rocksdb.thread.num to 1, and run again. (The playground gives flushes their disk time on the background threads only when a scenario sets thread.num; otherwise they take none.) This host's local disk is slow: writing a 32 KB memtable takes about 130 ms, while a window subtask fills the next one in about 100 ms. With the default state.backend.rocksdb.writebuffer.count of 2 there is room for one memtable being flushed and one taking writes; once that one is full too, RocksDB stalls the write until the flush is done. The RocksDB chart shows about as many write stalls as flushes every second; open a window subtask in the inspector to see how long its writes waited (rocksdb.stall.micros): the window subtasks are busy nearly all the time, mostly waiting, and the source is backpressured.",
        'zh-CN':
          '把 state.backend.rocksdb.writebuffer.size 设为 32 kb，state.backend.rocksdb.thread.num 设为 1，再运行一次。（只有当场景设置了 thread.num 时，Playground 才会让 flush 在后台线程上花费磁盘时间；否则 flush 不耗时。）这台主机的本地磁盘很慢：写出一个 32 KB 的 MemTable 大约需要 130 ms，而窗口子任务大约 100 ms 就能写满下一个。按默认的 state.backend.rocksdb.writebuffer.count（2），只能有一个 MemTable 正在 flush、一个接收写入；当后者也写满时，RocksDB 会让写入停顿，直到 flush 完成。RocksDB 图表显示每秒的写入停顿次数与 flush 次数相当；在检查器中打开一个窗口子任务，可以看到它的写入一共等待了多久（rocksdb.stall.micros）：窗口子任务几乎一直处于繁忙状态，大部分时间都在等待，Source 则出现反压。',
      },
      look_at: ['rocksdb-chart', 'job-graph'],
      actions: [
        { kind: 'configure', option: 'state.backend.rocksdb.writebuffer.size', value: '32 kb' },
        { kind: 'configure', option: 'state.backend.rocksdb.thread.num', value: 1 },
      ],
      seen: [
        { type: 'rocksdb-metric', metric: 'lsm.write-stall.count', vertex: 'windows', min: 100 },
        { type: 'rocksdb-metric', metric: 'rocksdb.stall.micros', vertex: 'windows', min: 10_000_000 },
      ],
    },
    {
      title: { en: 'Give RocksDB more write buffers', 'zh-CN': '给 RocksDB 更多 write buffer' },
      body: {
        en: 'Set state.backend.rocksdb.writebuffer.count to 4 and run again. Now up to three full memtables can wait while the thread flushes, and one flush writes all that wait: the flushes keep up, and in the RocksDB chart the write stalls drop to none (with Live workers, a few may remain right after checkpoints: a window subtask takes its snapshot on its own thread, and the records that came meanwhile then arrive in a burst). A larger state.backend.rocksdb.writebuffer.size helps too (fewer, larger flushes), and more threads (thread.num) help when several states need a flush at once. Every write buffer is memory: with managed memory they all come out of the slot\'s one budget.',
        'zh-CN':
          '把 state.backend.rocksdb.writebuffer.count 设为 4，再运行一次。现在后台线程 flush 时，最多可以有三个写满的 MemTable 排队等待，而一次 flush 会把它们一起写出：flush 跟得上了，RocksDB 图表中的写入停顿降为零（使用“真实 Worker”运行时，Checkpoint 刚结束时可能还会出现几次：窗口子任务在自己的线程上做快照，期间到达的记录随后会集中涌入）。调大 state.backend.rocksdb.writebuffer.size 同样有帮助（flush 次数更少、每次更大）；当多个 State 同时需要 flush 时，增加后台线程数（thread.num）也有帮助。每个 write buffer 都要占用内存：开启托管内存时，它们都来自同一个 Slot 的那份预算。',
      },
      look_at: ['rocksdb-chart'],
      actions: [{ kind: 'configure', option: 'state.backend.rocksdb.writebuffer.count', value: 4 }],
      seen: [{ type: 'rocksdb-metric', metric: 'lsm.write-stall.count', vertex: 'windows', max: 0 }],
    },
  ],
};
