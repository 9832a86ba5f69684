/**
 * Reads a scenario's `config` section: Flink option keys with Flink value syntax, written flat
 * (`execution.checkpointing.interval: 10 s`) or nested as in Flink's config.yaml
 * (`execution: { checkpointing: { interval: 10 s } }`). Deprecated keys are rewritten to their
 * current keys with a note; unknown keys are errors with the nearest known key; values are parsed
 * and range-checked per option; then Flink's cross-option rules run.
 */

import { checkConfigRules } from '../config/flink-config-rules.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import { currentKeysFor, DEPRECATED_KEYS, FLINK_OPTIONS, findOption, readConfig } from '../config/flink-options.ts';
import { parseOptionValue } from '../config/option-value.ts';
import { didYouMean } from './did-you-mean.ts';
import { isPlainObject, type Issues } from './field-reader.ts';
import { configPath } from './scenario-error.ts';
import type { ConfigValue } from './scenario-types.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

export interface ConfigSection {
  /** current keys only, parsed values; what `Scenario.config` holds */
  config: Record<string, ConfigValue>;
  /** with Flink's defaults; options that had errors take their default */
  flink: FlinkConfig;
}

interface FlatEntry {
  key: string;
  value: unknown;
}

interface Assignment {
  current: string;
  value: ConfigValue;
  source: string;
}

export function readConfigSection(issues: Issues, raw: unknown): ConfigSection {
  const entries = flatEntries(issues, raw);
  const assignments = entries.flatMap((entry) => assignmentsFor(issues, entry));
  const config = resolveAssignments(issues, assignments);
  const flink = readConfig(config);
  reportRules(issues, flink, new Set(Object.keys(config)));
  return { config, flink };
}

function flatEntries(issues: Issues, raw: unknown): FlatEntry[] {
  if (raw === undefined) return [];
  if (!isPlainObject(raw)) {
    issues.error('config', message('config.expected-map'));
    return [];
  }
  const entries: FlatEntry[] = [];
  flatten(issues, raw, '', entries);
  return withoutDuplicates(issues, entries);
}

/** Flink's YAML config nests keys at the dots; a nested map is the same option as the dotted key. */
function flatten(issues: Issues, map: Record<string, unknown>, prefix: string, into: FlatEntry[]): void {
  for (const key of Object.keys(map)) {
    const value = map[key];
    const flatKey = prefix === '' ? key : `${prefix}.${key}`;
    if (!isPlainObject(value)) into.push({ key: flatKey, value });
    else if (Object.keys(value).length > 0) flatten(issues, value, flatKey, into);
    else issues.error(configPath(flatKey), message('config.empty-map'));
  }
}

function withoutDuplicates(issues: Issues, entries: FlatEntry[]): FlatEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    if (!seen.has(entry.key)) return seen.add(entry.key);
    issues.error(configPath(entry.key), message('config.set-twice'));
    return false;
  });
}

function assignmentsFor(issues: Issues, entry: FlatEntry): Assignment[] {
  const targets = findOption(entry.key) ? [entry.key] : currentKeysFor(entry.key);
  if (targets.length === 0) {
    reportUnknownKey(issues, entry.key);
    return [];
  }
  if (targets[0] !== entry.key) issues.note(message('config.deprecated', { key: entry.key, replacements: targets }));
  return targets.flatMap((current) => {
    const result = parseOptionValue(findOption(current)!, entry.value);
    if (result.ok) return [{ current, value: result.value, source: entry.key }];
    issues.error(configPath(entry.key), result.problem, { allowed: result.allowedMessage });
    return [];
  });
}

const CURRENT_KEYS = FLINK_OPTIONS.map((o) => o.key);

function reportUnknownKey(issues: Issues, key: string): void {
  const nearest = didYouMean(key, [...CURRENT_KEYS, ...DEPRECATED_KEYS]);
  const suggestion = nearest === undefined || findOption(nearest) ? nearest : currentKeysFor(nearest)[0];
  issues.error(configPath(key), message('config.unknown-option'), {
    allowed: message('phrase', { text: 'the option keys listed in public/scenarios/scenario.schema.json' }),
    ...(suggestion === undefined ? {} : { suggestion }),
  });
}

/** A deprecated key and its current key may both be set, as in Flink, but not to different values. */
function resolveAssignments(issues: Issues, assignments: Assignment[]): Record<string, ConfigValue> {
  const config: Record<string, ConfigValue> = {};
  for (const assignment of assignments) {
    const earlier = assignments.find((a) => a.current === assignment.current);
    if (earlier !== assignment && earlier !== undefined && earlier.value !== assignment.value) {
      issues.error(configPath(assignment.source), conflictMessage(earlier, assignment), {
        allowed: message('allowed.set-only', { key: assignment.current }),
      });
    }
    config[assignment.current] = earlier?.value ?? assignment.value;
  }
  return config;
}

function conflictMessage(earlier: Assignment, later: Assignment): EngineMessage {
  return message('config.conflict', { key: later.current, value: String(later.value), earlier: earlier.source, earlierValue: String(earlier.value) });
}

function reportRules(issues: Issues, flink: FlinkConfig, given: ReadonlySet<string>): void {
  for (const finding of checkConfigRules(flink, given)) {
    if (finding.severity === 'note') {
      issues.note(message('config.note', { key: finding.key, note: finding.problem }));
    } else {
      issues.error(configPath(finding.key), finding.problem, finding.allowedMessage ? { allowed: finding.allowedMessage } : {});
    }
  }
}
