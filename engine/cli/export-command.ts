import { EXPORT_FILE_NAME, exportToFlink, FLINK_EXPORT_FORMATS, type FlinkExportFormat, isFlinkExportFormat } from '../export/flink-export.ts';
import { readScenarioFile } from './scenario-file.ts';
import type { CommandResult, ReadFile } from './command-result.ts';

const FORMAT_DESCRIPTIONS: Readonly<Record<FlinkExportFormat, string>> = {
  'config-yaml': `Flink 2.x ${EXPORT_FILE_NAME['config-yaml']} (standard YAML)`,
  'config-yaml-1x': `Flink 1.x ${EXPORT_FILE_NAME['config-yaml-1x']} (flat key: value, 1.x key names)`,
  java: 'Java: StreamExecutionEnvironment, CheckpointConfig and Configuration calls',
  'sql-set': "Flink SQL SET 'key' = 'value'; statements",
  'sql-job': 'the job as a Flink SQL script for sql-client.sh -f job.sql',
};

export const exportUsage = `Usage: ckpt-lab export SCENARIO [--format ${FLINK_EXPORT_FORMATS.join('|')}]

Prints SCENARIO's checkpointing and state configuration (or its job) for Apache Flink:
${FLINK_EXPORT_FORMATS.map((f) => `  ${f.padEnd(16)} ${FORMAT_DESCRIPTIONS[f]}`).join('\n')}
The default format is config-yaml. Only the options the scenario sets are written.
`;



interface ExportArguments {
  file: string;
  format: FlinkExportFormat;
}

/** `ckpt-lab export`: validates the scenario (nothing is exported from an invalid one) and prints the chosen format. */
export function runExportCommand(args: string[], readFile: ReadFile): CommandResult {
  if (args.includes('-h') || args.includes('--help')) return { stdout: exportUsage, stderr: '', exitCode: 0 };
  const parsed = parseExportArguments(args);
  if (typeof parsed === 'string') return { stdout: '', stderr: `ckpt-lab export: ${parsed}\n\n${exportUsage}`, exitCode: 2 };
  const valid = readScenarioFile(parsed.file, readFile);
  if (!valid.ok) return 'unreadable' in valid ? { stdout: '', stderr: `ckpt-lab export: ${valid.unreadable}\n`, exitCode: 2 } : invalidScenario(parsed.file, valid.invalid);
  return { stdout: exportToFlink(valid.scenario, parsed.format), stderr: '', exitCode: 0 };
}

function parseExportArguments(args: string[]): ExportArguments | string {
  let file: string | undefined;
  let format: FlinkExportFormat = 'config-yaml';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--format') {
      const value = args[++i];
      if (value === undefined) return `--format needs a value (allowed: ${FLINK_EXPORT_FORMATS.join(', ')})`;
      if (!isFlinkExportFormat(value)) return `unknown --format "${value}" (allowed: ${FLINK_EXPORT_FORMATS.join(', ')})`;
      format = value;
    } else if (arg.startsWith('-')) return `unknown option "${arg}" (allowed: --format)`;
    else if (file !== undefined) return `only one SCENARIO file may be given, got "${file}" and "${arg}"`;
    else file = arg;
  }
  return file === undefined ? 'missing SCENARIO (a .yaml or .json scenario file)' : { file, format };
}

function invalidScenario(file: string, errors: string): CommandResult {
  return { stdout: '', stderr: `ckpt-lab export: ${file} is not a valid scenario; nothing was exported.\n${errors}\n`, exitCode: 2 };
}
