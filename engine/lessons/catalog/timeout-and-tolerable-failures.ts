import type { Lesson } from '../lesson.ts';

/** Lesson 3: the first article's checkpointTimeout, with Flink's tolerable-failed-checkpoints deciding what the job does. */
export const timeoutAndTolerableFailures: Lesson = {
  id: 'timeout-and-tolerable-failures',
  title: {
    en: 'Checkpoint timeout and tolerable failures',
    'zh-CN': 'checkpoint 超时与可容忍的失败次数',
  },
  paragraphs: [
    {
      en: "execution.checkpointing.timeout is how long a checkpoint may take: one not completed by then is aborted (CHECKPOINT_EXPIRED). The article's setCheckpointTimeout(60000) means: finish within a minute, or give up. Flink's default is 10 min; this lesson uses 2 s.",
      'zh-CN':
        'execution.checkpointing.timeout 指定 checkpoint 执行的有效期：超时还没完成就会被 abort 掉（CHECKPOINT_EXPIRED）。文章中的 setCheckpointTimeout(60000) 就是：要么 1 分钟内完成，要么放弃。Flink 默认是 10 分钟，本课用 2 秒。',
    },
    {
      en: 'What the job does then is up to execution.checkpointing.tolerable-failed-checkpoints: how many consecutive checkpoint failures Flink tolerates (default 0). One more fails the job ("Exceeded checkpoint tolerable failure threshold."); a completed checkpoint resets the count.',
      'zh-CN':
        '之后作业会怎样，取决于 execution.checkpointing.tolerable-failed-checkpoints：Flink 能容忍多少次连续的 checkpoint 失败（默认为 0）。再多失败一次，作业就会失败（"Exceeded checkpoint tolerable failure threshold."）；一次成功的 checkpoint 会把计数清零。',
    },
    {
      en: 'Here the remote checkpoint storage becomes 20 times slower at 6 s, as a loaded HDFS or S3 might. restart-strategy.type is none, so a failed job stays FAILED instead of restarting.',
      'zh-CN': '这里远程 checkpoint 存储在第 6 秒变慢 20 倍，就像负载很高的 HDFS 或 S3。restart-strategy.type 设为 none，作业失败后不会重启，而是停在 FAILED。',
    },
  ],
  scenario: 'lessons/timeout-and-tolerable-failures.yaml',
  steps: [
    {
      title: { en: 'Run it until the store slows down', 'zh-CN': '运行到存储变慢' },
      body: {
        en: "Press Run. Until 6 s, checkpoints complete in about 0.1 s. Then every upload takes 20 times longer, and the next checkpoint is still in progress when its 2 s are up: it fails with CHECKPOINT_EXPIRED (the dashboard's History tab).",
        'zh-CN': '点击运行。6 秒之前，checkpoint 大约 0.1 秒就能完成。之后每次上传都要慢 20 倍，下一个 checkpoint 到了 2 秒还没完成：它以 CHECKPOINT_EXPIRED 失败（见仪表盘的“历史”页）。',
      },
      look_at: ['checkpoint-history'],
      actions: [],
      seen: [{ type: 'min-failed-checkpoints', value: 1, reason: 'CHECKPOINT_EXPIRED' }],
    },
    {
      title: { en: 'See the job fail', 'zh-CN': '看作业失败' },
      body: {
        en: 'No failed checkpoint is tolerated, so that first expiry fails the job: its status goes to FAILED, and nothing is processed any more.',
        'zh-CN': '由于不容忍任何失败的 checkpoint，第一次超时就让作业失败：作业状态变为 FAILED，不再处理任何数据。',
      },
      look_at: ['job-status'],
      actions: [],
      seen: [{ type: 'job-status', status: 'FAILED' }],
    },
    {
      title: { en: 'Tolerate failed checkpoints', 'zh-CN': '容忍失败的 checkpoint' },
      body: {
        en: 'Set execution.checkpointing.tolerable-failed-checkpoints to 100 and run again. The checkpoints still expire, one after another, but the job stays RUNNING and goes on processing records, with no new completed checkpoint: after a failure it would go back to the last one before 6 s.',
        'zh-CN':
          '把 execution.checkpointing.tolerable-failed-checkpoints 设为 100，再运行一次。checkpoint 仍然一个接一个地超时，但作业保持 RUNNING，继续处理数据，只是不再有新完成的 checkpoint：一旦发生故障，只能回到 6 秒之前的那个 checkpoint。',
      },
      look_at: ['job-status', 'checkpoint-history'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.tolerable-failed-checkpoints', value: 100 }],
      seen: [
        { type: 'job-status', status: 'RUNNING' },
        { type: 'min-failed-checkpoints', value: 3, reason: 'CHECKPOINT_EXPIRED' },
      ],
    },
  ],
};
