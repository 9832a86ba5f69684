/** UI text of "Export to Flink" in the configuration panel (merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale). The exported files stay as Flink reads them. */

export const flinkExportEn = {
  'export.title': 'Export to Flink',
  'export.intro': 'The options this scenario sets, ready for a real Flink cluster; the SQL job also recreates the job with datagen sources. Comments in the text say what Flink cannot express.',
  'export.format': 'Format',
  'export.format.config-yaml': 'config.yaml (Flink 2.x)',
  'export.format.config-yaml-1x': 'flink-conf.yaml (Flink 1.x key names)',
  'export.format.java': 'Java (DataStream API)',
  'export.format.sql-set': 'Flink SQL SET statements',
  'export.format.sql-job': 'Flink SQL job (sql-client.sh -f job.sql)',
  'export.text': 'Exported text ({file})',
  'export.copy': 'Copy',
  'export.copied': 'Copied',
  'export.copyFailed': 'Could not copy; select the text and copy it by hand.',
  'export.noScenario': 'Load a scenario to export its configuration.',
} as const;
