import type { Lesson } from '../lesson.ts';

/** Lesson 10: the second article's 容量规划, spare capacity to catch up with the input after a failure. */
export const capacityPlanning: Lesson = {
  id: 'capacity-planning',
  title: {
    en: 'Capacity planning: spare capacity to catch up after a failure',
    'zh-CN': '容量规划：留出额外资源，故障后才能追上输入数据',
  },
  paragraphs: [
    {
      en: 'For a Flink job to run reliably at scale, it must take checkpoints reliably, and after a failure it needs enough resources to catch up with the input data stream. While the job restarts, the sources keep filling, as a Kafka partition does; and a restore rewinds each source to the offset of the checkpoint, so the records read since then are read again.',
      'zh-CN':
        '为了使 Flink 应用程序能够可靠地大规模运行，必须满足两个条件：应用程序需要能够可靠地获取 Checkpoint；在发生故障后，需要足够的资源追上（catch up）输入数据流。作业重启期间，Source 的数据仍在不断到来，就像 Kafka 的分区一样；而恢复会把每个 Source 退回到 checkpoint 记录的 offset，此后读过的数据还要再读一遍。',
    },
    {
      en: 'The rule of thumb: normal operation needs enough capacity not to run under constant backpressure, and on top of that some extra resources to process the input that piled up during a recovery quickly. How much depends on how long a recovery usually takes and how fast it must be. Temporary backpressure during the catch-up phase is fine.',
      'zh-CN':
        '容量规划的基本经验法则是：正常操作应具有足够的容量，以避免在恒定背压下运行；在此之上再提供一些额外的资源，用来在应用程序恢复时快速处理恢复期间积累的输入数据。需要多少，取决于恢复操作通常需要多长时间，以及要求故障恢复的速度。Catchup 阶段出现暂时的背压通常是可以接受的。',
    },
    {
      en: "The backlog is Flink's pendingRecords source metric: the records a source could read but has not yet (a Kafka consumer's lag). Here two sources bring 2,000 records/s and two Count subtasks manage about 2,200: about 10% spare. Watch the pendingRecords chart, and a source subtask's pendingRecords in the inspector.",
      'zh-CN':
        '积压的数据量就是 Flink 的 Source 指标 pendingRecords：Source 可以读取但还没有读取的记录数（相当于 Kafka consumer 的 lag）。这里两个 Source 每秒产生 2000 条记录，两个 Count 子任务每秒大约能处理 2200 条：只有约 10% 的富余。请观察 pendingRecords 图表，以及检查器中 Source 子任务的 pendingRecords。',
    },
  ],
  scenario: 'lessons/capacity-planning.yaml',
  steps: [
    {
      title: { en: 'Kill a TaskManager with almost no spare capacity', 'zh-CN': '几乎没有富余容量时杀掉一个 TaskManager' },
      body: {
        en: "Kill TaskManager tm-1 at 10 s. The job restarts after 2 s (restart-strategy.fixed-delay.delay): by then the sources' pendingRecords is about 5,500, the 2 s of downtime plus what is read again since the checkpoint. With only about 200 records/s to spare the job works it off slowly, under backpressure: it catches up only after about 30 s.",
        'zh-CN':
          '在第 10 秒杀掉 TaskManager tm-1。作业在 2 秒后重启（restart-strategy.fixed-delay.delay）：此时 Source 的 pendingRecords 约为 5500，即 2 秒停机期间积累的数据，加上从 checkpoint 之后需要重读的数据。每秒只富余约 200 条的处理能力，作业在背压下缓慢消化积压：大约 30 秒后才追上输入。',
      },
      look_at: ['source-backlog-chart', 'latest-restore'],
      actions: [{ kind: 'schedule-fault', fault: { at_ms: 10_000, type: 'kill-task-manager', task_manager: 'tm-1' } }],
      seen: [
        { type: 'min-restores', value: 1 },
        { type: 'catch-up-time', min: 20_000 },
      ],
    },
    {
      title: { en: 'Give the Count a parallelism of 4', 'zh-CN': '把 Count 的并行度设为 4' },
      body: {
        en: 'Set the Count operator\'s parallelism to 4 (setParallelism(4) in Flink) and run again. It now handles about 4,400 records/s, more than twice the input: the same backlog after the same kill is gone in about 3 s.',
        'zh-CN': '把 Count 算子的并行度设为 4（Flink 中的 setParallelism(4)），再运行一次。它现在每秒能处理约 4400 条记录，是输入的两倍多：同样的故障造成的同样的积压，大约 3 秒就消化完了。',
      },
      look_at: ['source-backlog-chart', 'latest-restore'],
      actions: [{ kind: 'set-parallelism', vertex: 'count', parallelism: 4 }],
      seen: [{ type: 'catch-up-time', max: 4000 }],
    },
    {
      title: { en: 'In between: a parallelism of 3', 'zh-CN': '折中：并行度为 3' },
      body: {
        en: 'Set the parallelism to 3: about 3,300 records/s, some 65% to spare. The catch-up takes about 5 s: the time to catch up is about the backlog divided by the spare capacity, so the last bit of spare capacity matters most.',
        'zh-CN': '把并行度设为 3：每秒约 3300 条，富余约 65%。追上输入大约需要 5 秒：追赶时间约等于积压量除以富余的处理能力，所以越接近满负荷，每一点富余都越重要。',
      },
      look_at: ['source-backlog-chart', 'latest-restore'],
      actions: [{ kind: 'set-parallelism', vertex: 'count', parallelism: 3 }],
      seen: [{ type: 'catch-up-time', min: 4000, max: 10_000 }],
    },
  ],
};
