/**
 * Export a scenario to Flink: the formats, and the one entry point the CLI and the page call.
 * Pure: each format is a function of the validated scenario.
 */

import type { Scenario } from '../scenario/scenario-types.ts';
import { exportConfigYaml } from './config-yaml.ts';
import { exportConfigYaml1x } from './config-yaml-1x.ts';
import { exportJavaSnippet } from './java-snippet.ts';
import { exportSqlJob } from './sql-job.ts';
import { exportSqlSet } from './sql-set.ts';

export const FLINK_EXPORT_FORMATS = ['config-yaml', 'config-yaml-1x', 'java', 'sql-set', 'sql-job'] as const;

export type FlinkExportFormat = (typeof FLINK_EXPORT_FORMATS)[number];

/** The Flink release line whose option keys a format writes. */
export const EXPORT_FLINK_VERSION: Readonly<Record<FlinkExportFormat, '1.x' | '2.x'>> = {
  'config-yaml': '2.x',
  'config-yaml-1x': '1.x',
  java: '2.x',
  'sql-set': '2.x',
  'sql-job': '2.x',
};

/** The file name a user would save each format under. */
export const EXPORT_FILE_NAME: Readonly<Record<FlinkExportFormat, string>> = {
  'config-yaml': 'config.yaml',
  'config-yaml-1x': 'flink-conf.yaml',
  java: 'CheckpointSettings.java',
  'sql-set': 'checkpointing.sql',
  'sql-job': 'job.sql',
};

const EXPORTERS: Readonly<Record<FlinkExportFormat, (scenario: Scenario) => string>> = {
  'config-yaml': exportConfigYaml,
  'config-yaml-1x': exportConfigYaml1x,
  java: exportJavaSnippet,
  'sql-set': exportSqlSet,
  'sql-job': exportSqlJob,
};

export function isFlinkExportFormat(text: string): text is FlinkExportFormat {
  return (FLINK_EXPORT_FORMATS as readonly string[]).includes(text);
}

export function exportToFlink(scenario: Scenario, format: FlinkExportFormat): string {
  return EXPORTERS[format](scenario);
}
