import type { Lesson } from '../lesson.ts';

/** Lesson 8: the second article's task-local recovery, allocation-preserving scheduling, and what a local copy survives. */
export const taskLocalRecovery: Lesson = {
  id: 'task-local-recovery',
  title: {
    en: 'Task-local recovery',
    'zh-CN': '任务本地恢复',
  },
  paragraphs: [
    {
      en: 'With task-local recovery, each task writes its state snapshot to the distributed store (the primary copy) and also keeps a secondary copy on its own TaskManager\'s local disk. Only the primary copy decides whether a checkpoint completes. On a restore, a task that comes back to its previous slot reads its local copy instead of pulling its state over the network.',
      'zh-CN':
        '开启任务本地恢复后，每个 Task 不仅把 State snapshot 写入分布式存储（主副本），还在所在 TaskManager 的本地磁盘上保存一份辅助副本。只有主副本决定 checkpoint 是否成功。恢复时，回到原来 Slot 的 Task 会读取本地副本，而不必通过网络拉取远程状态。',
    },
    {
      en: 'Flink schedules allocation-preserving: every task asks for the slot it had before; only a task whose slot is gone takes another one. The local copy lives as long as its TaskManager\'s disk: if the machine is lost, so are its copies. If a local copy is damaged, Flink transparently falls back to the primary copy.',
      'zh-CN':
        'Flink 的调度是 Allocation-preserving 的：每个 Task 都请求之前分配的 Slot，只有 Slot 不可用的 Task 才换一个新的。本地副本的寿命取决于 TaskManager 所在的磁盘：如果机器丢失，副本也随之丢失。如果本地副本损坏，Flink 会透明地改为从主副本恢复。',
    },
    {
      en: 'Here execution.checkpointing.local-backup.enabled writes the local copies and execution.state-recovery.from-local reads them (state.backend.local-recovery in older Flink). The remote store is slow, the local disks are fast.',
      'zh-CN': '这里用 execution.checkpointing.local-backup.enabled 写本地副本，用 execution.state-recovery.from-local 读取它们（旧版 Flink 中是 state.backend.local-recovery）。远程存储很慢，本地磁盘很快。',
    },
  ],
  scenario: 'lessons/task-local-recovery.yaml',
  compare: 'local-recovery',
  steps: [
    {
      title: { en: 'Kill a TaskManager', 'zh-CN': '杀掉一个 TaskManager' },
      body: {
        en: "Kill TaskManager tm-1 at 4 s. It restarts on its host, whose disk survived, and the job restarts: both Count subtasks return to their slots and restore from their local copies, in about 1 ms instead of about 80 ms from remote (the restore rows in the dashboard's Overview). The Source and Sink keep no keyed state on the disk and read their small state from remote.",
        'zh-CN':
          '在第 4 秒杀掉 TaskManager tm-1。它在原来的主机上重启，磁盘还在；作业重启后，两个 Count 子任务都回到原来的 Slot，从本地副本恢复，只需约 1 ms，而从远程恢复要约 80 ms（见仪表盘概览中的恢复记录）。Source 和 Sink 在磁盘上没有键控状态的副本，它们很小的状态从远程读取。',
      },
      look_at: ['latest-restore'],
      actions: [{ kind: 'schedule-fault', fault: { at_ms: 4000, type: 'kill-task-manager', task_manager: 'tm-1' } }],
      seen: [{ type: 'min-restored-subtasks', source: 'local', value: 2 }],
    },
    {
      title: { en: 'Corrupt a local copy first', 'zh-CN': '先损坏一份本地副本' },
      body: {
        en: "Corrupt Count subtask 0's local copy on host-0 at 3.9 s, just before the kill. On the restore its checksum no longer matches: that subtask falls back to the remote copy (reason corrupt), the other one still reads locally.",
        'zh-CN': '在第 3.9 秒、也就是杀掉 TaskManager 之前，损坏 host-0 上 Count 子任务 0 的本地副本。恢复时它的校验和不再匹配：这个子任务改为从远程副本恢复（原因 corrupt），另一个仍然从本地读取。',
      },
      look_at: ['latest-restore'],
      actions: [{ kind: 'schedule-fault', fault: { at_ms: 3900, type: 'corrupt-local-copy', host: 'host-0', vertex: 'count', subtask: 0 } }],
      seen: [{ type: 'min-restored-subtasks', source: 'remote', reason: 'corrupt', value: 1 }],
    },
    {
      title: { en: 'Lose a host', 'zh-CN': '丢失一台主机' },
      body: {
        en: "Lose host-1 at 8 s. Its disk is gone with it: its TaskManager is replaced on host-0, and the Count subtask that ran there restores from remote in a new slot (different-slot). The subtask on host-0 keeps its slot and reads its local copy, a fresh one written by a checkpoint after the corruption.",
        'zh-CN':
          '在第 8 秒丢失 host-1。它的磁盘也随之消失：它的 TaskManager 在 host-0 上被替换，原来在那里运行的 Count 子任务在新的 Slot 中从远程恢复（different-slot）。host-0 上的子任务保留自己的 Slot，读取本地副本，这是损坏之后的 checkpoint 新写的一份。',
      },
      look_at: ['latest-restore'],
      actions: [{ kind: 'schedule-fault', fault: { at_ms: 8000, type: 'lose-host', host: 'host-1' } }],
      seen: [
        { type: 'min-restores', value: 2 },
        { type: 'min-restored-subtasks', source: 'remote', reason: 'different-slot', value: 1 },
        { type: 'min-restored-subtasks', source: 'local', value: 2 },
      ],
    },
    {
      title: { en: 'Delete a local copy', 'zh-CN': '删除一份本地副本' },
      body: {
        en: "Kill tm-1 again at 5.4 s and, while the job waits to restart, delete Count subtask 1's local copy on host-1 at 5.5 s. The subtask returns to its slot but finds no copy there: it reads the remote copy (reason missing), in about 100 ms instead of 1 ms, while Count subtask 0 still reads locally. Nothing fails: a missing secondary copy only makes that subtask's restore slower.",
        'zh-CN':
          '在第 5.4 秒再次杀掉 tm-1，并趁作业等待重启，在第 5.5 秒删除 host-1 上 Count 子任务 1 的本地副本。这个子任务回到原来的 Slot，却找不到本地副本：它改为从远程读取主副本（原因 missing），耗时约 100 ms，而不是 1 ms；Count 子任务 0 仍然从本地恢复。作业不会因此失败：辅助副本丢了，只是这个子任务恢复得慢一些。',
      },
      look_at: ['latest-restore'],
      actions: [
        { kind: 'schedule-fault', fault: { at_ms: 5400, type: 'kill-task-manager', task_manager: 'tm-1' } },
        { kind: 'schedule-fault', fault: { at_ms: 5500, type: 'delete-local-copy', host: 'host-1', vertex: 'count', subtask: 1 } },
      ],
      seen: [
        { type: 'restore-source', vertex: 'count', subtask: 1, source: 'remote', reason: 'missing', restore: 2 },
        { type: 'restore-source', vertex: 'count', subtask: 0, source: 'local', restore: 2 },
      ],
    },
    {
      title: { en: 'Lose part of a local copy', 'zh-CN': '本地副本缺了一部分' },
      body: {
        en: "Count subtask 1's local copy is four state handles, one per range of 16 key groups. Kill tm-1 at 6.9 s and, while the job waits to restart, delete only the handle of key groups 64–79 at 7.0 s, as when writing that local file failed. Flink restores handle by handle, the local copy first and the remote one as the fallback: the subtask reads its three intact handles from the host's disk and only the missing one from remote (a mixed restore, reason partial). Open Count subtask 1 in the inspector to see where each handle came from.",
        'zh-CN':
          'Count 子任务 1 的本地副本由四个 state handle 组成，每个对应 16 个 key group。在第 6.9 秒杀掉 tm-1，并趁作业等待重启，在第 7.0 秒只删除 key group 64–79 的那个 state handle，就像写这个本地文件时出错了一样。Flink 按 state handle 逐个恢复，优先使用本地副本，远程副本兜底：这个子任务从主机磁盘读取三个完好的 state handle，只有缺失的那个从远程读取（混合恢复，原因 partial）。在检查器中打开 Count 子任务 1，可以看到每个 state handle 是从哪里读取的。',
      },
      look_at: ['latest-restore'],
      actions: [
        { kind: 'schedule-fault', fault: { at_ms: 6900, type: 'kill-task-manager', task_manager: 'tm-1' } },
        { kind: 'schedule-fault', fault: { at_ms: 7000, type: 'delete-local-copy', host: 'host-1', vertex: 'count', subtask: 1, key_group: 64 } },
      ],
      seen: [
        { type: 'mixed-restore', vertex: 'count', subtask: 1, restore: 3 },
        { type: 'restore-source', vertex: 'count', subtask: 1, source: 'remote', reason: 'partial', restore: 3 },
        { type: 'restore-source', vertex: 'count', subtask: 0, source: 'local', restore: 3 },
      ],
    },
    {
      title: { en: 'Turn local recovery off', 'zh-CN': '关闭本地恢复' },
      body: {
        en: 'Set execution.state-recovery.from-local to false and run again: every subtask reads remote on every restore (local-recovery-disabled), and each restore takes as long as the slow store needs.',
        'zh-CN': '把 execution.state-recovery.from-local 设为 false，再运行一次：每次恢复时所有子任务都从远程读取（local-recovery-disabled），每次恢复都要花慢速存储所需的时间。',
      },
      look_at: ['latest-restore'],
      actions: [{ kind: 'configure', option: 'execution.state-recovery.from-local', value: false }],
      seen: [{ type: 'min-restored-subtasks', source: 'remote', reason: 'local-recovery-disabled', value: 4 }],
    },
  ],
};
