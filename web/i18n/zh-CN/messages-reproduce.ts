/** The Chinese of ../messages-reproduce.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { reproduceEn } from '../messages-reproduce.ts';

export const reproduceZhCN: { readonly [K in keyof typeof reproduceEn]: string } = {
  'reproduce.title': '复现真实的 Flink 作业',
  'reproduce.intro':
    '粘贴或选择 Flink JobManager 为作业的 checkpoint 提供的 REST 响应（/jobs/:jobid/checkpoints，如果有的话还有 …/checkpoints/config 和 …/checkpoints/details/:checkpointid）。Playground 会为作业搭建一个模型——间隔、配置、算子和并行度、状态大小、耗时——并运行它，让你在自己作业的模型上做实验。',
  'reproduce.imported': '已读取 {files} 个响应：历史中有 {completed} 个完成的 checkpoint。',
  'reproduce.cannotModel': '无法搭建模型：{reason}',
  'reproduce.button': '在 Playground 中复现',
  'reproduce.building': '正在搭建并校准模型…',
  'reproduce.loaded': '模型已加载并在运行。随着它完成 checkpoint，下表中的数值会逐步填上。',
  'reproduce.scaled': '为了能在浏览器里运行而按比例缩小：状态 ×1/{state}，并行度 ×1/{parallelism}；下表中模型的大小已按比例放大回来。',
  'reproduce.waiting': '正在等待模型完成第一个 checkpoint…',
  'reproduce.table': '导入的作业与它的模型',
  'reproduce.figure': '指标',
  'reproduce.importedColumn': '导入的作业',
  'reproduce.modelColumn': '模型',
  'reproduce.offColumn': '偏差',
  'reproduce.notImported': '导入中没有',
  'reproduce.same': '相同',
  'reproduce.higher': '高 {percent}%（×{ratio}）',
  'reproduce.lower': '低 {percent}%（×{ratio}）',
  'reproduce.countsNote': '次数取决于各自运行了多久',
};
