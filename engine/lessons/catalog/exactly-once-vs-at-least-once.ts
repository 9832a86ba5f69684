import type { Lesson } from '../lesson.ts';

/**
 * Lesson 4: the first article's CheckpointingMode and the second article's alignment duration,
 * and what a failure does to a plain Sink and to a two-phase-commit Sink. The run ends before its
 * unbounded Sources do, so no step depends on what a Sink does at the end of its input.
 */
export const exactlyOnceVsAtLeastOnce: Lesson = {
  id: 'exactly-once-vs-at-least-once',
  title: {
    en: 'Exactly-once vs at-least-once: alignment, and duplicates after a failure',
    'zh-CN': 'Exactly-once 与 at-least-once：barrier 对齐，以及故障后的重复数据',
  },
  paragraphs: [
    {
      en: "A checkpoint barrier flows with the records. An operator with several input channels, such as the Count after a keyBy here, gets one barrier per channel. Under EXACTLY_ONCE (the default) it blocks each channel whose barrier has come until the barriers of all channels are in: the alignment duration, the second article's metric to watch. Its snapshot then holds exactly the records before the barrier.",
      'zh-CN':
        'checkpoint barrier 随数据一起流动。有多个输入通道的算子（比如这里 keyBy 之后的 Count）会从每个通道各收到一个 barrier。在 EXACTLY_ONCE（默认）下，已经收到 barrier 的通道会被阻塞，直到所有通道的 barrier 都到齐：这就是第二篇文章建议关注的对齐持续时间。这样它的快照恰好包含 barrier 之前的数据。',
    },
    {
      en: 'Under AT_LEAST_ONCE nothing is blocked: records that come after the barrier on a fast channel are processed before the snapshot, and again after a restore. The article: AT_LEAST_ONCE for applications that need latencies of a few milliseconds, EXACTLY_ONCE for almost all others.',
      'zh-CN':
        '在 AT_LEAST_ONCE 下不阻塞任何通道：快的通道上 barrier 之后的数据在快照之前就被处理了，恢复后还会再处理一次。文章的建议：超低延迟（大概几毫秒）的应用可以使用 AT_LEAST_ONCE，其他大部分应用使用 EXACTLY_ONCE 就可以。',
    },
    {
      en: 'Exactly-once state is not yet exactly-once output. A plain Sink writes at once, so after a restore it writes again what it wrote since the last checkpoint. A two-phase-commit Sink pre-commits a transaction with each checkpoint and commits it only once the checkpoint has completed.',
      'zh-CN':
        '状态的 exactly-once 还不等于输出的 exactly-once。普通 Sink 立即写出，所以恢复后会把上一次 checkpoint 之后写过的数据再写一遍。两阶段提交（two-phase-commit）Sink 在每次 checkpoint 时预提交一个事务，等 checkpoint 完成后才真正提交。',
    },
    {
      en: 'In this job the two Source subtasks run on two hosts with 20 ms of network between them, so at each Count subtask the barrier from the remote Source comes later than the local one.',
      'zh-CN': '在这个作业中，两个 Source 子任务运行在两台主机上，主机之间的网络延迟为 20 ms，所以对每个 Count 子任务来说，远程 Source 的 barrier 总比本地的晚到。',
    },
  ],
  scenario: 'lessons/exactly-once-vs-at-least-once.yaml',
  steps: [
    {
      title: { en: 'Run it and look at the alignment', 'zh-CN': '运行作业，看对齐时间' },
      body: {
        en: 'Press Run, then open a completed checkpoint in the dashboard: the Count subtasks show an alignment duration of tens of milliseconds, the time they held their local channel back waiting for the remote barrier.',
        'zh-CN': '点击运行，然后在仪表盘中打开一个已完成的 checkpoint：Count 的子任务显示几十毫秒的对齐时间，也就是它们阻塞本地通道、等待远程 barrier 的时间。',
      },
      look_at: ['alignment-column'],
      actions: [],
      seen: [{ type: 'statistic', statistic: 'alignment-duration', aggregate: 'max', min: 10 }],
    },
    {
      title: { en: 'Kill a TaskManager', 'zh-CN': '杀掉一个 TaskManager' },
      body: {
        en: 'Kill TaskManager tm-1 at 5.5 s. The job restarts from the latest completed checkpoint and the Sources rewind to its offsets. The plain Sink writes again what it had written since that checkpoint: the sink output shows duplicates against the failure-free run.',
        'zh-CN': '在第 5.5 秒杀掉 TaskManager tm-1。作业从最近一次完成的 checkpoint 重启，Source 回退到其中记录的偏移量。普通 Sink 把那次 checkpoint 之后写过的数据又写了一遍：Sink 输出与无故障运行相比出现了重复数据。',
      },
      look_at: ['sink-output'],
      actions: [{ kind: 'schedule-fault', fault: { at_ms: 5500, type: 'kill-task-manager', task_manager: 'tm-1' } }],
      seen: [
        { type: 'min-restores', value: 1 },
        { type: 'min-duplicates', value: 1 },
      ],
    },
    {
      title: { en: 'Use a two-phase-commit Sink', 'zh-CN': '换成两阶段提交 Sink' },
      body: {
        en: 'Make the Sink two-phase-commit (in Flink, a Sink with an exactly-once delivery guarantee, such as a KafkaSink with DeliveryGuarantee.EXACTLY_ONCE) and run again with the same failure. It commits only what a completed checkpoint covers: the output equals the failure-free run, with no duplicates and nothing missing.',
        'zh-CN':
          '把 Sink 换成两阶段提交（在 Flink 中就是提供 exactly-once 投递保证的 Sink，例如使用 DeliveryGuarantee.EXACTLY_ONCE 的 KafkaSink），在同样的故障下再运行一次。它只提交已完成的 checkpoint 覆盖的数据：输出与无故障运行完全一致，没有重复，也没有丢失。',
      },
      look_at: ['sink-output'],
      actions: [{ kind: 'set-sink', vertex: 'sink', sink: 'two-phase-commit' }],
      seen: [{ type: 'min-restores', value: 1 }, { type: 'exactly-once' }],
    },
    {
      title: { en: 'AT_LEAST_ONCE with a plain Sink', 'zh-CN': 'AT_LEAST_ONCE 加普通 Sink' },
      body: {
        en: 'Set execution.checkpointing.mode to AT_LEAST_ONCE and make the Sink plain again. The Count no longer blocks a channel for a barrier, and after the same failure the output shows duplicates again: at least once means every record counts at least once, some of them more than once.',
        'zh-CN':
          '把 execution.checkpointing.mode 设为 AT_LEAST_ONCE，并把 Sink 换回普通 Sink。Count 不再为等待 barrier 阻塞通道；在同样的故障之后，输出中又出现了重复数据：at-least-once 意味着每条数据至少被处理一次，其中有些会被处理不止一次。',
      },
      look_at: ['alignment-column', 'sink-output'],
      actions: [
        { kind: 'configure', option: 'execution.checkpointing.mode', value: 'AT_LEAST_ONCE' },
        { kind: 'set-sink', vertex: 'sink', sink: 'plain' },
      ],
      seen: [
        { type: 'min-restores', value: 1 },
        { type: 'min-duplicates', value: 1 },
      ],
    },
  ],
};
