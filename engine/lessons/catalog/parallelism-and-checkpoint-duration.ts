import type { Lesson } from '../lesson.ts';

/** Lesson 7: the first article's 2.2.1, "2000W records at parallelism 100 vs 200", scaled down. */
export const parallelismAndCheckpointDuration: Lesson = {
  id: 'parallelism-and-checkpoint-duration',
  title: {
    en: 'More parallelism, less state per task, shorter checkpoints',
    'zh-CN': '增大并行度：每个 task 的状态更少，checkpoint 更短',
  },
  paragraphs: [
    {
      en: 'A checkpoint is taken by every task for its own state, then persisted to the external store. When the total state is roughly fixed, spreading it over more tasks leaves less for each to snapshot and upload, and they upload at the same time: the checkpoint as a whole gets shorter.',
      'zh-CN':
        'checkpoint 是在每个 task 上先对自己的状态做快照，然后持久化到外部存储。在总状态数据相对固定的情况下，把它分散到更多的 task 上，每个 task 需要快照和上传的数据就更少，而且它们同时上传：整个 checkpoint 的时间也就变短了。',
    },
    {
      en: "The article's example: 20 million records at parallelism 100 leave 200,000 per task; at parallelism 200, 100,000. Here it is 100,000 keys over 1 Count subtask, then over 4.",
      'zh-CN': '文章中的例子：2000W 的数据设定 100 个 parallelism，每份 20 万；若将 parallelism 增大到 200，每份只有 10 万。这里是 10 万个 key，先由 1 个 Count 子任务承担，再分给 4 个。',
    },
  ],
  scenario: 'lessons/parallelism-and-checkpoint-duration.yaml',
  steps: [
    {
      title: { en: 'Run it with one Count subtask', 'zh-CN': '用 1 个 Count 子任务运行' },
      body: {
        en: 'Press Run. As the Count subtask gathers keys, its snapshot grows, and so does the checkpoint: after 10 s one takes about 1.5 s.',
        'zh-CN': '点击运行。随着 Count 子任务积累的 key 越来越多，它的快照变大，checkpoint 也随之变长：10 秒后一次 checkpoint 大约要 1.5 秒。',
      },
      look_at: ['end-to-end-column'],
      actions: [],
      seen: [{ type: 'statistic', statistic: 'end-to-end-duration', aggregate: 'max', min: 1200 }],
    },
    {
      title: { en: 'Give the Count a parallelism of 4', 'zh-CN': '把 Count 的并行度设为 4' },
      body: {
        en: 'Set the Count operator\'s parallelism to 4 (setParallelism(4) in Flink) and run again. The same keys are spread over four subtasks by key group; each uploads a quarter of the state, and the longest checkpoint takes under half a second.',
        'zh-CN': '把 Count 算子的并行度设为 4（Flink 中的 setParallelism(4)），再运行一次。同样的 key 按 key group 分散到四个子任务上，每个只上传四分之一的状态，最长的一次 checkpoint 也不到半秒。',
      },
      look_at: ['job-graph', 'end-to-end-column'],
      actions: [{ kind: 'set-parallelism', vertex: 'count', parallelism: 4 }],
      seen: [{ type: 'statistic', statistic: 'end-to-end-duration', aggregate: 'max', max: 500 }],
    },
  ],
};
