import type { Lesson } from '../lesson.ts';

/**
 * Lesson 5: the second article's two metrics to watch under backpressure (start delay and
 * alignment duration), with unaligned checkpoints and the aligned checkpoint timeout as remedies
 * and their cost, the in-flight data they persist.
 */
export const backpressureAndUnaligned: Lesson = {
  id: 'backpressure-and-unaligned',
  title: {
    en: 'Backpressure: start delay, alignment, and unaligned checkpoints',
    'zh-CN': '背压：启动延迟、对齐时长与非对齐 checkpoint',
  },
  paragraphs: [
    {
      en: 'The second article names two checkpoint metrics to watch. The start delay: how long after the trigger an operator receives its first barrier. The alignment duration: how long an operator with several inputs blocks the channels whose barrier has come, until all have. Both should stay low; when they stay high, barriers move slowly through the job graph, usually because of backpressure.',
      'zh-CN':
        '第二篇文章指出最值得关注的两个 checkpoint 指标。一是启动延迟：触发 checkpoint 之后，Operator 多久收到第一个 barrier。二是对齐时长：有多个输入的 Operator 阻塞已收到 barrier 的通道、直到所有通道都收到 barrier 的时间。理想情况下两者都应该很低；持续偏高意味着 barrier 在 job graph 中移动缓慢，通常是因为存在 backpressure。',
    },
    {
      en: 'A barrier travels in the same queues as the records: under backpressure it waits behind every buffer ahead of it. Unaligned checkpoints (execution.checkpointing.unaligned.enabled) let the barrier overtake those buffers; the buffers it overtook are persisted with the checkpoint as in-flight data and replayed on restore. That is their cost: larger checkpoints.',
      'zh-CN':
        'barrier 和数据走同样的队列：在背压下，它要排在前面所有的 buffer 之后。非对齐 checkpoint（execution.checkpointing.unaligned.enabled）让 barrier 越过这些 buffer；被越过的 buffer 作为 in-flight 数据随 checkpoint 一起持久化，恢复时重放。这就是它的代价：checkpoint 更大。',
    },
    {
      en: 'In this job two Sources produce 4,000 records a second each, and each Count subtask can process about 3,000: the Count is the bottleneck and its input queues stay full.',
      'zh-CN': '在这个作业中，两个 Source 每秒各产生 4,000 条数据，而每个 Count 子任务每秒只能处理约 3,000 条：Count 是瓶颈，它的输入队列一直是满的。',
    },
  ],
  scenario: 'lessons/backpressure-and-unaligned.yaml',
  compare: 'aligned-vs-unaligned',
  steps: [
    {
      title: { en: 'Run it and watch the start delay and the alignment', 'zh-CN': '运行作业，观察启动延迟和对齐时长' },
      body: {
        en: 'Press Run, then open a completed checkpoint in the dashboard: the start delay is over a second, the alignment tens of milliseconds, and a checkpoint takes well over a second from end to end, although the state is small.',
        'zh-CN': '点击运行，然后在仪表盘中打开一个已完成的 checkpoint：启动延迟超过一秒，对齐时长有几十毫秒，虽然状态很小，一次 checkpoint 从头到尾却要一秒多。',
      },
      look_at: ['start-delay-column', 'alignment-column'],
      actions: [],
      seen: [
        { type: 'statistic', statistic: 'start-delay', aggregate: 'p50', min: 1000 },
        { type: 'statistic', statistic: 'alignment-duration', aggregate: 'max', min: 20 },
      ],
    },
    {
      title: { en: 'Turn on unaligned checkpoints', 'zh-CN': '开启非对齐 checkpoint' },
      body: {
        en: 'Set execution.checkpointing.unaligned.enabled to true; the run starts over. The barriers overtake the queued buffers: the start delay drops to about 0.1 s, nothing waits for alignment, and checkpoints complete in a fraction of the time. In exchange each checkpoint persists hundreds of kilobytes of in-flight data (Processed (persisted) in-flight data in the dashboard\'s History).',
        'zh-CN':
          '把 execution.checkpointing.unaligned.enabled 设为 true，作业从头开始运行。barrier 越过了排队的 buffer：启动延迟降到约 0.1 秒，不再需要等待对齐，checkpoint 的耗时只剩一小部分。代价是每次 checkpoint 要持久化几百 KB 的 in-flight 数据（仪表盘“历史”页中的“已处理（已持久化）的在途数据”）。',
      },
      look_at: ['start-delay-column', 'in-flight-column'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.unaligned.enabled', value: true }],
      seen: [
        { type: 'statistic', statistic: 'start-delay', aggregate: 'p50', max: 300 },
        { type: 'statistic', statistic: 'end-to-end-duration', aggregate: 'p50', max: 300 },
        // hundreds of kilobytes: above 300 KB on average, more than with the timeout of step 3
        { type: 'statistic', statistic: 'persisted-data', aggregate: 'avg', min: 300_000 },
      ],
    },
    {
      title: { en: 'Start aligned, switch after 500 ms', 'zh-CN': '先对齐，500 ms 后再切换' },
      body: {
        en: 'Also set execution.checkpointing.aligned-checkpoint-timeout to 500 ms. Each checkpoint starts aligned and switches to unaligned only when 500 ms after its trigger it is still waiting: checkpoints take about 0.6 s, and persist less in-flight data than fully unaligned ones.',
        'zh-CN':
          '再把 execution.checkpointing.aligned-checkpoint-timeout 设为 500 ms。每次 checkpoint 都先按对齐方式进行，只有在触发 500 ms 后仍在等待时才切换为非对齐：checkpoint 大约需要 0.6 秒，持久化的 in-flight 数据也比完全非对齐时少。',
      },
      look_at: ['end-to-end-column', 'in-flight-column'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.aligned-checkpoint-timeout', value: '500 ms' }],
      seen: [
        { type: 'statistic', statistic: 'end-to-end-duration', aggregate: 'p50', min: 400, max: 1000 },
        { type: 'statistic', statistic: 'persisted-data', aggregate: 'max', min: 1 },
        { type: 'statistic', statistic: 'persisted-data', aggregate: 'avg', max: 300_000 },
      ],
    },
  ],
};
