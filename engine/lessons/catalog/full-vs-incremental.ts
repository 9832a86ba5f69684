import type { Lesson } from '../lesson.ts';

/** Lesson 6: the second article's "incremental checkpoints" first, and what compaction does to them. */
export const fullVsIncremental: Lesson = {
  id: 'full-vs-incremental',
  title: {
    en: 'Full vs incremental checkpoints on RocksDB',
    'zh-CN': 'RocksDB 上的全量与增量 checkpoint',
  },
  paragraphs: [
    {
      en: "To make checkpoints faster, the second article puts incremental checkpoints first: with execution.checkpointing.incremental, RocksDB's checkpoint records only what changed since the previous completed checkpoint, instead of the whole state.",
      'zh-CN': '在减少 checkpoint 所需时间方面，第二篇文章把开启增量 checkpoint 放在首位：开启 execution.checkpointing.incremental 后，RocksDB 的 checkpoint 只记录与前一次完成的 checkpoint 相比所做的更改，而不是全部状态。',
    },
    {
      en: "RocksDB keeps its state in immutable SST files. An incremental checkpoint uploads the files the previous one does not have and refers to the rest. The dashboard shows both sizes: Checkpointed Data Size (uploaded by this checkpoint) and Full Checkpoint Data Size (the whole state).",
      'zh-CN': 'RocksDB 把状态保存在不可变的 SST 文件中。增量 checkpoint 只上传上一次没有的文件，其余的直接引用。仪表盘同时显示两个大小：Checkpointed Data Size（这次 checkpoint 上传的）和 Full Checkpoint Data Size（全部状态）。',
    },
  ],
  scenario: 'lessons/full-vs-incremental.yaml',
  compare: 'full-vs-incremental',
  steps: [
    {
      title: { en: 'Run it with full checkpoints', 'zh-CN': '用全量 checkpoint 运行' },
      body: {
        en: "Press Run and open the dashboard's History: every checkpoint's checkpointed size equals its full size; each one uploads the whole state again.",
        'zh-CN': '点击运行，打开仪表盘的“历史”页：每个 checkpoint 的“Checkpoint 数据量”都等于“完整 Checkpoint 数据量”，每一次都重新上传全部状态。',
      },
      look_at: ['checkpointed-size-column', 'full-size-column'],
      actions: [],
      seen: [{ type: 'statistic', statistic: 'checkpointed-fraction', aggregate: 'min', min: 0.99 }],
    },
    {
      title: { en: 'Turn on incremental checkpoints', 'zh-CN': '开启增量 checkpoint' },
      body: {
        en: 'Set execution.checkpointing.incremental to true; the run starts over. Now many checkpoints upload about a quarter of the state, the SST files flushed since the last one. But look closer: others still upload nearly all of it. A compaction merged the files into new ones that no earlier checkpoint has, so they are uploaded again.',
        'zh-CN':
          '把 execution.checkpointing.incremental 设为 true，作业从头开始运行。现在很多 checkpoint 只上传约四分之一的状态，也就是上次之后刷写出的 SST 文件。但仔细看：另一些仍然几乎上传了全部状态。compaction 把文件合并成了新的文件，之前的 checkpoint 都没有它们，所以要重新上传。',
      },
      look_at: ['checkpointed-size-column', 'full-size-column'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.incremental', value: true }],
      seen: [
        { type: 'statistic', statistic: 'checkpointed-fraction', aggregate: 'min', max: 0.4 },
        { type: 'statistic', statistic: 'checkpointed-fraction', aggregate: 'max', min: 0.9 },
      ],
    },
  ],
};
