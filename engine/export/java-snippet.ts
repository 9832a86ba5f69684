/**
 * A scenario's Flink options as Java for the DataStream API of Flink 2.x: the options
 * `CheckpointConfig` and `StreamExecutionEnvironment` have a setter for are set through it, every
 * other one goes into the `Configuration` the environment is created from (Flink 2.x configures
 * state backends and recovery only there).
 */

import type { ConfigValue, Scenario } from '../scenario/scenario-types.ts';
import { flinkOptionText, orderedOptions } from './flink-option-text.ts';
import { scenarioLabel } from './scenario-label.ts';

type Setter = (value: ConfigValue) => string;

/** Option key → the call that sets it, on `env` or on `checkpoints` (its CheckpointConfig). */
const SETTERS: Readonly<Record<string, Setter>> = {
  'execution.checkpointing.min-pause': (v) => `checkpoints.setMinPauseBetweenCheckpoints(${javaLong(v)});`,
  'execution.checkpointing.max-concurrent-checkpoints': (v) => `checkpoints.setMaxConcurrentCheckpoints(${String(v)});`,
  'execution.checkpointing.timeout': (v) => `checkpoints.setCheckpointTimeout(${javaLong(v)});`,
  'execution.checkpointing.tolerable-failed-checkpoints': (v) => `checkpoints.setTolerableCheckpointFailureNumber(${String(v)});`,
  'execution.checkpointing.unaligned.enabled': (v) => `checkpoints.enableUnalignedCheckpoints(${String(v)});`,
  'execution.checkpointing.aligned-checkpoint-timeout': (v) => `checkpoints.setAlignedCheckpointTimeout(Duration.ofMillis(${javaLong(v)}));`,
  'execution.checkpointing.externalized-checkpoint-retention': (v) =>
    `checkpoints.setExternalizedCheckpointRetention(ExternalizedCheckpointRetention.${String(v)});`,
  'parallelism.default': (v) => `env.setParallelism(${String(v)});`,
};

const INTERVAL = 'execution.checkpointing.interval';
const MODE = 'execution.checkpointing.mode';
const MAX_PARALLELISM = 'pipeline.max-parallelism';

export function exportJavaSnippet(scenario: Scenario): string {
  const options = orderedOptions(scenario.config);
  const viaConfiguration = options.filter(([key]) => !handledByCall(scenario, key));
  const body = [
    'public class CheckpointSettings {',
    '    public static StreamExecutionEnvironment createEnvironment() {',
    ...indent(configurationLines(viaConfiguration), 8),
    '        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration);',
    ...indent(environmentCalls(scenario, options), 8),
    '        return env;',
    '    }',
    '}',
  ];
  return [
    `// Flink 2.x DataStream API: checkpointing and state options of the scenario ${scenarioLabel(scenario)},`,
    '// exported from Checkpoint Playground. Options not set here keep Flink\'s defaults.',
    ...importsFor(body),
    '',
    ...body,
    '',
  ].join('\n');
}

/** Only the classes the body names, so the snippet compiles without unused-import warnings. */
function importsFor(body: readonly string[]): string[] {
  const code = body.join('\n');
  return IMPORTS.filter((line) => new RegExp(`\\b${line.slice(line.lastIndexOf('.') + 1, -1)}\\b`).test(code));
}

const IMPORTS = [
  'import java.time.Duration;',
  'import java.util.Map;',
  'import org.apache.flink.configuration.Configuration;',
  'import org.apache.flink.configuration.ExternalizedCheckpointRetention;',
  'import org.apache.flink.core.execution.CheckpointingMode;',
  'import org.apache.flink.streaming.api.environment.CheckpointConfig;',
  'import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;',
];

/** The interval and mode go through `enableCheckpointing` together; the mode alone has no setter here. */
function handledByCall(scenario: Scenario, key: string): boolean {
  if (key === INTERVAL) return true;
  if (key === MODE) return scenario.config[INTERVAL] !== undefined;
  if (key === MAX_PARALLELISM) return scenario.config[MAX_PARALLELISM] !== -1;
  return SETTERS[key] !== undefined;
}

function configurationLines(options: ReadonlyArray<[string, ConfigValue]>): string[] {
  if (options.length === 0) return ['Configuration configuration = new Configuration();'];
  const entries = options.map(([key, value], i) => {
    const comma = i === options.length - 1 ? '' : ',';
    return `        Map.entry(${javaString(key)}, ${javaString(flinkOptionText(key, value))})${comma}`;
  });
  return ['Configuration configuration = Configuration.fromMap(Map.ofEntries(', ...entries, '));'];
}

function environmentCalls(scenario: Scenario, options: ReadonlyArray<[string, ConfigValue]>): string[] {
  const calls = [...enableCheckpointing(scenario)];
  const checkpointCalls = options.filter(([key]) => SETTERS[key]?.(0).startsWith('checkpoints.'));
  if (checkpointCalls.length > 0) calls.push('CheckpointConfig checkpoints = env.getCheckpointConfig();');
  for (const [key, value] of options) if (SETTERS[key]) calls.push(SETTERS[key](value));
  const maxParallelism = scenario.config[MAX_PARALLELISM];
  if (maxParallelism !== undefined && maxParallelism !== -1) calls.push(`env.setMaxParallelism(${String(maxParallelism)});`);
  return calls;
}

function enableCheckpointing(scenario: Scenario): string[] {
  const interval = scenario.config[INTERVAL];
  if (interval === undefined) return ['// execution.checkpointing.interval is not set: periodic checkpoints stay off.'];
  const mode = scenario.config[MODE];
  return [`env.enableCheckpointing(${javaLong(interval)}${mode === undefined ? '' : `, CheckpointingMode.${String(mode)}`});`];
}

/** Durations are whole milliseconds in Flink's API; a sub-millisecond one is rounded up, never to 0. */
function javaLong(value: ConfigValue): string {
  const ms = Number(value);
  return `${Number.isInteger(ms) ? ms : Math.ceil(ms)}L`;
}

function javaString(text: string): string {
  return JSON.stringify(text);
}

function indent(lines: readonly string[], spaces: number): string[] {
  return lines.map((line) => `${' '.repeat(spaces)}${line}`);
}
