import type { Lesson } from '../lesson.ts';

/** Lesson 2: the first article's maxConcurrentCheckpoints, and why min-pause makes values above 1 moot. */
export const maxConcurrentCheckpoints: Lesson = {
  id: 'max-concurrent-checkpoints',
  title: {
    en: 'Max concurrent checkpoints, and why min-pause makes more than 1 moot',
    'zh-CN': '最大并发 checkpoint 数，以及为什么设置 min-pause 后大于 1 的值不起作用',
  },
  paragraphs: [
    {
      en: "execution.checkpointing.max-concurrent-checkpoints is how many checkpoints may be in progress at once (Flink's default: 1). At 1, a periodic trigger that comes while a checkpoint runs waits for it. Above 1, checkpoints overlap: useful for a job with a long processing delay that should still checkpoint often.",
      'zh-CN':
        'execution.checkpointing.max-concurrent-checkpoints 指定同一时间最多可以有多少个 checkpoint 在进行（Flink 默认为 1）。为 1 时，在 checkpoint 进行期间到来的周期性触发要等它完成。大于 1 时，多个 checkpoint 会重叠进行：适合处理延迟较长、但仍希望频繁 checkpoint 的作业。',
    },
    {
      en: 'The article says that once minPauseBetweenCheckpoints is set, values above 1 have no effect. Flink measures the pause from the end of the last completed checkpoint, and its periodic trigger never fires more often than the pause; so with a pause at least as long as a checkpoint takes, the previous checkpoint has always completed before the next may start.',
      'zh-CN':
        '文章说：如果设置了 minPauseBetweenCheckpoints，maxConcurrentCheckpoints 大于 1 的值就不起作用了。Flink 从上一个完成的 checkpoint 结束时开始计算这段最小间隔，周期性触发也不会比它更频繁；所以只要最小间隔不短于一次 checkpoint 的耗时，下一个能开始时，上一个总是已经完成了。',
    },
    {
      en: 'In this job a checkpoint takes about 2.4 s and the interval is 1 s.',
      'zh-CN': '在这个作业中，一次 checkpoint 大约需要 2.4 秒，间隔是 1 秒。',
    },
  ],
  scenario: 'lessons/max-concurrent-checkpoints.yaml',
  steps: [
    {
      title: { en: 'Run it: one checkpoint at a time', 'zh-CN': '运行作业：同一时间只有一个 checkpoint' },
      body: {
        en: "Press Run. Checkpoints take longer than the interval, yet never more than one is in progress: the dashboard's In Progress count stays at 1 at most, and on the timeline the checkpoints follow one another.",
        'zh-CN': '点击运行。checkpoint 的耗时超过了间隔，但同一时间最多只有一个在进行：仪表盘中“进行中”的数量最多为 1，时间线上的 checkpoint 一个接一个。',
      },
      look_at: ['in-progress-count', 'timeline'],
      actions: [],
      seen: [
        { type: 'min-completed-checkpoints', value: 3 },
        { type: 'statistic', statistic: 'concurrent-checkpoints', aggregate: 'max', max: 1 },
      ],
    },
    {
      title: { en: 'Allow 3 concurrent checkpoints', 'zh-CN': '允许 3 个 checkpoint 并发' },
      body: {
        en: 'Set execution.checkpointing.max-concurrent-checkpoints to 3; the run starts over. Now a new checkpoint starts every second while the older ones are still uploading: up to 3 are in progress at once, and their bars on the timeline overlap.',
        'zh-CN': '把 execution.checkpointing.max-concurrent-checkpoints 设为 3，作业从头开始运行。现在即使之前的 checkpoint 还在上传，每秒也会开始一个新的：同一时间最多有 3 个在进行，时间线上的 checkpoint 互相重叠。',
      },
      look_at: ['in-progress-count', 'timeline'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.max-concurrent-checkpoints', value: 3 }],
      seen: [{ type: 'statistic', statistic: 'concurrent-checkpoints', aggregate: 'max', min: 2 }],
    },
    {
      title: { en: 'Add a min-pause longer than a checkpoint', 'zh-CN': '加上比一次 checkpoint 更长的 min-pause' },
      body: {
        en: 'Keep max-concurrent-checkpoints at 3 and set execution.checkpointing.min-pause to 3 s. The checkpoints no longer overlap: each starts at least 3 s after the previous one completed, so the limit of 3 is never reached.',
        'zh-CN': '保持 max-concurrent-checkpoints 为 3，把 execution.checkpointing.min-pause 设为 3 s。checkpoint 不再重叠：每一个都在上一个完成至少 3 秒后才开始，3 这个上限永远达不到。',
      },
      look_at: ['timeline'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.min-pause', value: '3 s' }],
      seen: [
        { type: 'statistic', statistic: 'concurrent-checkpoints', aggregate: 'max', max: 1 },
        { type: 'statistic', statistic: 'checkpoint-pause', aggregate: 'min', min: 3000 },
      ],
    },
  ],
};
