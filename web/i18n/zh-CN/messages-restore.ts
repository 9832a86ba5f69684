/** The Chinese of ../messages-restore.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { restoreEn } from '../messages-restore.ts';

export const restoreZhCN: { readonly [K in keyof typeof restoreEn]: string } = {
  'restore.table': '各子任务的恢复',
  'restore.col.subtask': '子任务',
  'restore.col.source': '来源',
  'restore.col.read': '读取',
  'restore.col.duration': '耗时',
  'restore.col.reason': '未用本地副本的原因',
  'restore.source.local': '本地',
  'restore.source.remote': '远程',
  'restore.read.withRemote': '{bytes}（其中 {remote} 来自远程存储）',
  'restore.showAll': '显示全部 {n} 个子任务',
  'restore.showFewer': '收起',

  'restore.reason.local-recovery-disabled': '未开启本地恢复（execution.state-recovery.from-local）',
  'restore.reason.rescaled': '并行度已改变（rescale），没有与新 key group 对应的本地副本',
  'restore.reason.no-previous-slot': '此前没有运行过（没有之前的 slot）',
  'restore.reason.different-slot': '重启到了另一个 slot',
  'restore.reason.different-host': 'slot 换到了另一台主机上',
  'restore.reason.missing': '本地没有该 Checkpoint 的副本',
  'restore.reason.partial': '本地副本只写了一部分',
  'restore.reason.corrupt': '本地副本已损坏（校验和不符）',
  'restore.reason.stateless': '无状态：没有需要恢复的内容',
  'restore.reason.not-keyed': '没有 keyed state：本地恢复只覆盖 keyed state',
  'restore.reason.unknown': '{reason}',

  'inspector.lastRestore.title': '最近一次恢复',
  'inspector.lastRestore.from': '恢复自',
  'inspector.lastRestore.checkpoint': 'Checkpoint {id}（{time}）',
  'inspector.lastRestore.savepoint': 'Savepoint {id}（{time}）',
  'inspector.lastRestore.source': '来源',
  'inspector.lastRestore.read': '读取',
  'inspector.lastRestore.duration': '耗时',
  'inspector.lastRestore.reason': '未用本地副本的原因',
};
