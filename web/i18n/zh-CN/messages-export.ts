/** The Chinese of ../messages-export.ts, in the zh-CN locale's chunk (locale-zh-cn.ts): loaded only when the page is in Chinese. */

import type { flinkExportEn } from '../messages-export.ts';

export const flinkExportZhCN: { readonly [K in keyof typeof flinkExportEn]: string } = {
  'export.title': '导出到 Flink',
  'export.intro': '本场景设置的配置项，可直接用于真实的 Flink 集群；SQL 作业还会用 datagen 数据源重建作业。文本中的注释说明了 Flink 无法表达的部分。',
  'export.format': '格式',
  'export.format.config-yaml': 'config.yaml（Flink 2.x）',
  'export.format.config-yaml-1x': 'flink-conf.yaml（Flink 1.x 配置键名）',
  'export.format.java': 'Java（DataStream API）',
  'export.format.sql-set': 'Flink SQL SET 语句',
  'export.format.sql-job': 'Flink SQL 作业（sql-client.sh -f job.sql）',
  'export.text': '导出的文本（{file}）',
  'export.copy': '复制',
  'export.copied': '已复制',
  'export.copyFailed': '无法复制，请选中文本后手动复制。',
  'export.noScenario': '加载一个场景后即可导出它的配置。',
};
