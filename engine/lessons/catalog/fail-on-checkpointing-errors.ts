import type { Lesson } from '../lesson.ts';

/**
 * Lesson 12: the first article's `setFailOnCheckpointingErrors(true)`. Flink deprecated it in 1.9
 * for `execution.checkpointing.tolerable-failed-checkpoints` (true meant 0, false
 * Integer.MAX_VALUE) and removed it in 2.0 (CheckpointFailureManager, FLINK-34511).
 */
export const failOnCheckpointingErrors: Lesson = {
  id: 'fail-on-checkpointing-errors',
  title: {
    en: 'setFailOnCheckpointingErrors, and what replaced it',
    'zh-CN': 'setFailOnCheckpointingErrors，以及取代它的配置项',
  },
  paragraphs: [
    {
      en: "The first article's configuration ends with setFailOnCheckpointingErrors(true): whether an error in a checkpoint fails the task (true, the default) or the task declines the checkpoint and runs on (false).",
      'zh-CN': '第一篇文章的配置最后一行是 setFailOnCheckpointingErrors(true)：checkpoint 发生异常时是否让 task 失败（true，默认值），还是让 task 拒绝这次 checkpoint 然后继续运行（false）。',
    },
    {
      en: 'Flink 1.9 replaced it with execution.checkpointing.tolerable-failed-checkpoints, the number of consecutive checkpoint failures the job tolerates: true meant 0, false meant Integer.MAX_VALUE (2147483647). Flink 2.0 removed the old setter.',
      'zh-CN':
        'Flink 1.9 用 execution.checkpointing.tolerable-failed-checkpoints 取代了它，即作业能容忍的连续 checkpoint 失败次数：true 相当于 0，false 相当于 Integer.MAX_VALUE（2147483647）。Flink 2.0 删除了旧的 setter。',
    },
    {
      en: 'Here every request to the remote checkpoint storage fails from 5 s to 9 s, so the uploads of those checkpoints fail (CHECKPOINT_ASYNC_EXCEPTION). restart-strategy.type is none, so a failed job stays FAILED.',
      'zh-CN': '这里从第 5 秒到第 9 秒，远程 checkpoint 存储的每个请求都会失败，所以这段时间的 checkpoint 上传失败（CHECKPOINT_ASYNC_EXCEPTION）。restart-strategy.type 设为 none，作业失败后停在 FAILED。',
    },
  ],
  scenario: 'lessons/fail-on-checkpointing-errors.yaml',
  steps: [
    {
      title: { en: 'Run it: as with true, the first failure fails the job', 'zh-CN': '运行作业：和 true 一样，第一次失败就让作业失败' },
      body: {
        en: 'Press Run. Checkpoints complete until 5 s; the next one fails with CHECKPOINT_ASYNC_EXCEPTION, and with 0 failures tolerated the job goes to FAILED ("Exceeded checkpoint tolerable failure threshold.").',
        'zh-CN': '点击运行。5 秒之前 checkpoint 都能完成；下一个以 CHECKPOINT_ASYNC_EXCEPTION 失败，由于容忍次数为 0，作业变为 FAILED（"Exceeded checkpoint tolerable failure threshold."）。',
      },
      look_at: ['latest-failed', 'job-status'],
      actions: [],
      seen: [
        { type: 'min-failed-checkpoints', value: 1, reason: 'CHECKPOINT_ASYNC_EXCEPTION' },
        { type: 'job-status', status: 'FAILED' },
      ],
    },
    {
      title: { en: 'As with false: tolerate every failure', 'zh-CN': '和 false 一样：容忍所有失败' },
      body: {
        en: 'Set execution.checkpointing.tolerable-failed-checkpoints to 2147483647 and run again. The checkpoints between 5 s and 9 s fail, but the job runs on, and once the storage works again checkpoints complete again.',
        'zh-CN': '把 execution.checkpointing.tolerable-failed-checkpoints 设为 2147483647，再运行一次。5 秒到 9 秒之间的 checkpoint 失败了，但作业继续运行；存储恢复后，checkpoint 又能完成了。',
      },
      look_at: ['job-status', 'timeline'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.tolerable-failed-checkpoints', value: 2147483647 }],
      seen: [
        { type: 'job-status', status: 'RUNNING' },
        { type: 'min-failed-checkpoints', value: 3, reason: 'CHECKPOINT_ASYNC_EXCEPTION' },
        { type: 'min-completed-checkpoints', value: 8 },
      ],
    },
  ],
};
