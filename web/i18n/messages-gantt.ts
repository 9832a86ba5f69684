/**
 * The dashboard's Gantt tab (FLINK-39566's per-checkpoint timeline) and the Flink statistics
 * importer it offers. Field names reuse the checkpoint pages' keys (Flink's dashboard words);
 * these are the tab's own. Merged into `en` and `zhCN` in messages.ts.
 */

export const ganttEn = {
  'checkpoints.tab.gantt': 'Gantt',
  'gantt.intro':
    'Why a checkpoint was slow, at a glance: the recent checkpoints as a strip (width = duration), and for the one selected each subtask’s phases from the trigger, slowest first.',
  'gantt.source': 'Statistics of',
  'gantt.source.run': 'this run',
  'gantt.source.imported': 'the imported job',
  'gantt.strip': 'Recent checkpoints',
  'gantt.strip.bar': 'Checkpoint {id}: {status}, {duration}',
  'gantt.strip.outliers': 'Outlined: slower than max(p95, 1.5 × median) = {threshold}.',
  'gantt.follow': 'Follow newest',
  'gantt.export': 'Export as PNG',
  'gantt.empty': 'No checkpoint yet: the strip fills as checkpoints are triggered.',
  'gantt.chart': 'Subtasks of checkpoint {id}, by operator, slowest first',
  'gantt.noSubtasks.run': 'No subtask has reported for checkpoint {id} yet.',
  'gantt.noSubtasks.imported':
    'The import holds no subtask statistics for checkpoint {id}. Add the responses of /jobs/:jobid/checkpoints/details/{id}/subtasks/:vertexid (one per operator) to see its subtasks.',
  'gantt.unknownVertex': 'operator (id not in the response)',
  'gantt.group': '{name} · {n, plural, one {# subtask} other {# subtasks}}',
  'gantt.row': 'Subtask {index}',
  'gantt.axis': 'ms after the trigger',
  'gantt.state.pending': 'not acknowledged',
  'gantt.state.aborted': 'aborted',
  'gantt.unaligned': 'unaligned',
  'gantt.outlier': 'outlier',
  'gantt.legend': 'Legend',
  'gantt.legend.outlier': 'outlier: above max(p95, 1.5 × median) of its operator',
  'gantt.legend.unaligned': 'hatched: unaligned checkpoint',
  'gantt.legend.pending': 'dashed: not acknowledged',
  'gantt.legend.aborted': '✕ aborted',
  'gantt.hover.empty': 'Point at a subtask for its figures.',
  'gantt.hover.title': '{operator}, subtask {index}',
  'gantt.threshold': 'Outlier above',

  'import.title': 'Import Flink statistics',
  'import.intro':
    'Paste or open what a Flink JobManager or History Server serves for a job’s checkpoints (/jobs/:jobid/checkpoints, …/config, …/details/:checkpointid, …/subtasks/:vertexid, or an archive). Each response adds to the imported job.',
  'import.paste': 'Response body (JSON)',
  'import.add': 'Import',
  'import.file': 'Open files',
  'import.clear': 'Forget the import',
  'import.loaded': 'Imported: {endpoints} (fits Flink {versions}).',
  'import.problems': 'Not imported: {n, plural, one {# problem} other {# problems}}',
} as const;

export const ganttZhCN: { readonly [K in keyof typeof ganttEn]: string } = {
  'checkpoints.tab.gantt': '甘特图',
  'gantt.intro': '一眼看出 checkpoint 为什么慢：最近的 checkpoint 排成一条（宽度即时长）；选中其中一个，按算子列出每个子任务从触发起的各个阶段，最慢的排在最前。',
  'gantt.source': '统计数据来源',
  'gantt.source.run': '本次运行',
  'gantt.source.imported': '导入的作业',
  'gantt.strip': '最近的 checkpoint',
  'gantt.strip.bar': 'Checkpoint {id}：{status}，{duration}',
  'gantt.strip.outliers': '带描边的：慢于 max(p95, 1.5 × 中位数) = {threshold}。',
  'gantt.follow': '跟随最新',
  'gantt.export': '导出为 PNG',
  'gantt.empty': '还没有 checkpoint：触发 checkpoint 后这里会逐个出现。',
  'gantt.chart': 'Checkpoint {id} 的子任务，按算子分组，最慢的在前',
  'gantt.noSubtasks.run': 'Checkpoint {id} 还没有子任务上报。',
  'gantt.noSubtasks.imported':
    '导入的数据里没有 checkpoint {id} 的子任务统计。请再导入 /jobs/:jobid/checkpoints/details/{id}/subtasks/:vertexid 的响应（每个算子一个），即可看到它的子任务。',
  'gantt.unknownVertex': '算子（响应中没有 id）',
  'gantt.group': '{name} · {n} 个子任务',
  'gantt.row': '子任务 {index}',
  'gantt.axis': '触发后的毫秒数',
  'gantt.state.pending': '未确认',
  'gantt.state.aborted': '已中止',
  'gantt.unaligned': '非对齐',
  'gantt.outlier': '离群',
  'gantt.legend': '图例',
  'gantt.legend.outlier': '离群：高于所在算子的 max(p95, 1.5 × 中位数)',
  'gantt.legend.unaligned': '斜线：非对齐 Checkpoint',
  'gantt.legend.pending': '虚线：未确认',
  'gantt.legend.aborted': '✕ 已中止',
  'gantt.hover.empty': '将鼠标移到子任务上查看具体数值。',
  'gantt.hover.title': '{operator}，子任务 {index}',
  'gantt.threshold': '离群阈值',

  'import.title': '导入 Flink 统计数据',
  'import.intro':
    '粘贴或打开 Flink JobManager 或 History Server 为作业 checkpoint 提供的内容（/jobs/:jobid/checkpoints、…/config、…/details/:checkpointid、…/subtasks/:vertexid，或归档文件）。每个响应都会并入导入的作业。',
  'import.paste': '响应内容（JSON）',
  'import.add': '导入',
  'import.file': '打开文件',
  'import.clear': '清除导入',
  'import.loaded': '已导入：{endpoints}（符合 Flink {versions}）。',
  'import.problems': '未导入：{n} 个问题',
};
