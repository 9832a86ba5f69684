import type { Lesson } from '../lesson.ts';

/**
 * Lesson 11: externalized (retained) checkpoints and what cancel does to them, a savepoint
 * restored at another parallelism, and stop-with-savepoint.
 */
export const savepointsAndRetention: Lesson = {
  id: 'savepoints-and-retention',
  title: {
    en: 'Retained checkpoints, savepoints and stop-with-savepoint',
    'zh-CN': '保留 checkpoint、savepoint 与 stop-with-savepoint',
  },
  paragraphs: [
    {
      en: 'Checkpoints exist to recover a running job from failures, so Flink owns them: it keeps the newest execution.checkpointing.num-retained of them (state.checkpoints.num-retained in older Flink, default 1) and deletes the older ones. What happens to them when the job ends is execution.checkpointing.externalized-checkpoint-retention: NO_EXTERNALIZED_CHECKPOINTS (the default) deletes them whenever the job ends, DELETE_ON_CANCELLATION keeps them only when the job fails, RETAIN_ON_CANCELLATION also keeps them when you cancel the job.',
      'zh-CN':
        'Checkpoint 的用途是让运行中的作业从故障中恢复，所以它归 Flink 管理：Flink 只保留最新的 execution.checkpointing.num-retained 个（旧版 Flink 中是 state.checkpoints.num-retained，默认 1 个），更早的会被删除。作业结束时这些 checkpoint 怎么处理，由 execution.checkpointing.externalized-checkpoint-retention 决定：NO_EXTERNALIZED_CHECKPOINTS（默认值）在作业结束时一律删除；DELETE_ON_CANCELLATION 只在作业失败时保留；RETAIN_ON_CANCELLATION 在取消作业时也保留。',
    },
    {
      en: 'A retained (externalized) checkpoint can be resumed like a savepoint: flink run -s with the path of its _metadata. A savepoint is yours instead: you trigger it (flink savepoint), in the canonical format that every state backend reads or in the backend\'s native format, and Flink does not delete it (unless a job restored from it in CLAIM mode takes it over).',
      'zh-CN':
        '保留下来的（外部化的）checkpoint 可以像 savepoint 一样用来恢复作业：flink run -s 加上它的 _metadata 路径即可。Savepoint 则归用户所有：由用户触发（flink savepoint），可以是所有 State Backend 都能读取的 canonical 格式，也可以是 State Backend 自己的 native 格式，Flink 不会删除它（除非作业以 CLAIM 模式从它恢复并接管了它）。',
    },
    {
      en: 'A savepoint can be restored at another parallelism because keyed state is stored in key groups: pipeline.max-parallelism of them (here 128), each key always in the same one. A subtask owns a contiguous range of key groups; at a new parallelism the ranges are cut anew and each subtask reads the key groups it now owns. The max parallelism must stay the same.',
      'zh-CN':
        'Savepoint 之所以能以不同的并行度恢复，是因为 Keyed State 按 Key Group 存储：Key Group 的个数等于 pipeline.max-parallelism（这里是 128），同一个 key 总是落在同一个 Key Group 中。每个子任务负责一段连续的 Key Group；并行度改变后，这些区间重新划分，每个子任务读取自己新负责的 Key Group。最大并行度不能改变。',
    },
    {
      en: 'Cancel stops the job at once: records after the last checkpoint are read again on resume. stop-with-savepoint (flink stop) takes a savepoint first and then finishes the job: the sinks commit what the savepoint covers, so a job resumed from it neither repeats nor loses a record.',
      'zh-CN':
        '取消作业（cancel）会立即停止作业：恢复时，最后一个 checkpoint 之后的数据要重新读取。stop-with-savepoint（flink stop）先生成一个 savepoint，再结束作业：Sink 会提交这个 savepoint 覆盖的数据，所以从它恢复的作业既不会重复输出，也不会丢失数据。',
    },
  ],
  scenario: 'lessons/savepoints-and-retention.yaml',
  steps: [
    {
      title: { en: 'Cancel the job', 'zh-CN': '取消作业' },
      body: {
        en: 'Cancel the job at 6.5 s (flink cancel). It goes CANCELLING, then CANCELED, and with DELETE_ON_CANCELLATION its retained checkpoints are deleted: Remote checkpoint storage lists no checkpoint directory any more. There is nothing left to resume from.',
        'zh-CN': '在第 6.5 秒取消作业（flink cancel）。作业先变为 CANCELLING，再变为 CANCELED；由于配置了 DELETE_ON_CANCELLATION，保留的 checkpoint 都被删除：“远程 Checkpoint 存储”中不再有任何 checkpoint 目录，已经没有可以恢复的状态了。',
      },
      look_at: ['job-status', 'remote-storage'],
      actions: [{ kind: 'operate', at_ms: 6500, operation: { type: 'cancel' } }],
      seen: [
        { type: 'job-status', status: 'CANCELED' },
        { type: 'max-retained-checkpoints', value: 0 },
      ],
    },
    {
      title: { en: 'Retain checkpoints on cancellation', 'zh-CN': '取消作业时保留 checkpoint' },
      body: {
        en: 'Set execution.checkpointing.externalized-checkpoint-retention to RETAIN_ON_CANCELLATION and run again. After the same cancel the newest 3 checkpoints (execution.checkpointing.num-retained) stay in Remote checkpoint storage, each with its _metadata: a job can be resumed from any of them. Cleaning them up is now your job.',
        'zh-CN': '把 execution.checkpointing.externalized-checkpoint-retention 设为 RETAIN_ON_CANCELLATION，再运行一次。同样取消作业后，最新的 3 个 checkpoint（execution.checkpointing.num-retained）仍留在“远程 Checkpoint 存储”中，每个都带有 _metadata：可以从其中任何一个恢复作业。清理它们现在是用户自己的事了。',
      },
      look_at: ['job-status', 'remote-storage'],
      actions: [{ kind: 'configure', option: 'execution.checkpointing.externalized-checkpoint-retention', value: 'RETAIN_ON_CANCELLATION' }],
      seen: [
        { type: 'job-status', status: 'CANCELED' },
        { type: 'min-retained-checkpoints', value: 3 },
      ],
    },
    {
      title: { en: 'Restore a savepoint at parallelism 4', 'zh-CN': '以并行度 4 从 savepoint 恢复' },
      body: {
        en: 'Trigger a savepoint at 3 s, then at 3.5 s rescale Count to 4: the job restarts from that savepoint (the newest state) with 4 Count subtasks, each reading the 32 of the 128 key groups it now owns. Look for the Latest Restore of type Savepoint in the dashboard\'s Overview and Count\'s 4 subtasks in the job graph; the counts go on where they were.',
        'zh-CN': '在第 3 秒触发一个 savepoint，然后在第 3.5 秒把 Count 的并行度改为 4：作业从这个 savepoint（最新的状态）重启，Count 有 4 个子任务，每个读取自己新负责的 32 个 Key Group（共 128 个）。请在仪表盘“概览”页的“最近一次恢复”中看到类型为 Savepoint，并在作业图中看到 Count 的 4 个子任务；计数从原来的值继续累加。',
      },
      look_at: ['latest-restore', 'job-graph'],
      actions: [
        { kind: 'schedule-fault', fault: { at_ms: 3000, type: 'trigger-savepoint' } },
        { kind: 'operate', at_ms: 3500, operation: { type: 'rescale', vertex: 'count', parallelism: 4 } },
      ],
      seen: [{ type: 'restored-parallelism', vertex: 'count', parallelism: 4, from: 'savepoint' }],
    },
    {
      title: { en: 'Stop with a savepoint', 'zh-CN': '用 stop-with-savepoint 停止作业' },
      body: {
        en: 'Stop the job with a savepoint at 5 s (flink stop), before the cancel. Periodic checkpoints pause, a synchronous savepoint is taken, the Sink commits what it covers, and the job ends FINISHED, not CANCELED (the cancel planned for 6.5 s never comes: the job has ended). A finished job\'s checkpoints are deleted even with RETAIN_ON_CANCELLATION; the savepoint stays, and a job resumed from it goes on with nothing written twice.',
        'zh-CN': '在第 5 秒、也就是取消之前，用 stop-with-savepoint 停止作业（flink stop）。周期性 checkpoint 暂停，生成一个同步 savepoint，Sink 提交它覆盖的数据，作业最终是 FINISHED，而不是 CANCELED（原定第 6.5 秒的取消不会再发生：作业已经结束）。即使配置了 RETAIN_ON_CANCELLATION，正常结束的作业的 checkpoint 也会被删除；savepoint 会保留，从它恢复的作业接着处理，不会重复写出任何数据。',
      },
      look_at: ['job-status', 'remote-storage'],
      actions: [{ kind: 'schedule-fault', fault: { at_ms: 5000, type: 'stop-with-savepoint' } }],
      seen: [
        { type: 'job-status', status: 'FINISHED' },
        { type: 'max-retained-checkpoints', value: 0 },
      ],
    },
  ],
};
