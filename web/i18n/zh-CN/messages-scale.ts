/** The Chinese of ../messages-scale.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { scaleEn } from '../messages-scale.ts';

export const scaleZhCN: { readonly [K in keyof typeof scaleEn]: string } = {
  'scale.notice':
    '这是一次 scale 运行：该场景在后台 Worker 中由 scale 运行时执行，每个 subtask 用流量（速率、大小、带宽）建模，而不是逐条处理记录。作业图按算子显示其并行度；以 1000 倍速运行时，一小时的作业时间只需几秒。',
  'scale.graph.caption': 'scale 运行中的算子，每个顶点一行，附其并行度',
  'scale.col.operator': '算子',
  'scale.col.parallelism': '并行度',
  'scale.col.busy': '繁忙（ms/s）',
  'scale.col.backpressure': '反压（ms/s）',
  'scale.col.pending': 'Source 积压（条记录）',
  'scale.col.stateSize': '状态大小（最近一次 checkpoint）',
  'scale.col.restore': '最近一次恢复',
  'scale.restore.sources': '本地 {local} 个 · 远端 {remote} 个 · 最慢 {slowest}',
  'scale.restore.none': '尚无',
  'scale.cluster.summary': '{hosts} 台主机（已丢失 {lost} 台）· {taskManagers} 个 TaskManager · {unresponsive} 个无响应',
  'scale.cluster.note': 'scale 运行不逐一绘出每个 slot 及其 subtask；可在“制造故障”中杀掉 TaskManager 或丢失主机。',
  'scale.noSink': 'scale 运行时不传输记录，因此没有可与无故障运行比对的 Sink 输出。',
  'scale.noCharts': '图表依据每个 subtask 的指标绘制，而 scale 运行没有这些指标；它的 checkpoint 和恢复情况请看时间线和仪表盘。',
  'scale.noSubtaskRows': 'scale 运行只报告每个算子在其各 subtask 上的最小值/平均值/最大值，不逐个列出 subtask。',
  'scale.unsupported': 'scale 运行不支持此操作：scale 运行时以流量为整个算子建模，不涉及单个 subtask 的记录、本地文件或并行度的调整。',
  'scale.noStep': 'scale 运行在其 Worker 中按墙钟时间乘以速度推进：请使用运行和暂停，或调整速度。',
  'scale.driver': 'scale 运行时（Worker）',
  'scale.driverChoice': '无论选择哪个驱动，scale 场景都在 scale 运行时中运行。',
};
