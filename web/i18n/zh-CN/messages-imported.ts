/** The Chinese of ../messages-imported.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { importedEn } from '../messages-imported.ts';

export const importedZhCN: { readonly [K in keyof typeof importedEn]: string } = {
  'imported.showing': '正在显示导入的 Flink 作业（其响应符合 Flink {versions}），而不是本次运行。',
  'imported.noCheckpoints': '导入的数据里没有 /jobs/:jobid/checkpoints 的响应：导入它才能看到计数、历史和汇总。',
  'imported.noConfig': '导入的数据里没有 /jobs/:jobid/checkpoints/config 的响应：导入它才能看到该作业的 checkpoint 配置。',
  'imported.notReported': 'Flink {versions} 未上报',
  'imported.summary.percentiles': '百分位数：Flink {versions} 未上报（其 REST API 只给出最小值/平均值/最大值，百分位数从 1.14 起才有）。',
  'imported.detail.noTasks': '导入的数据里没有 checkpoint {id} 的详情：导入 /jobs/:jobid/checkpoints/details/{id} 的响应才能看到各算子。',
  'imported.config.noScenario': '导入的作业没有场景：上面的选项就是它的 JobManager 上报的配置。',
  'imported.restore.noSubtasks': 'Flink 的统计数据不说明哪些 subtask 从本地副本恢复；演练场的运行会显示这一点。',
  'imported.timeline.note':
    '导入作业的 checkpoint 按 Flink 上报的样子排在时间轴上，时间从其历史中的第一次触发算起。播放头和时间回溯只能重放演练场的运行，因此这里不可用；点击某个条形可在“历史”页中打开对应的 checkpoint。',
};
