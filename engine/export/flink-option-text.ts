/**
 * A parsed option value (ms, bytes, canonical enum) printed back in Flink's value syntax, so an
 * exported file reads like one a Flink user would write ("1 s", "64 kb", "EXACTLY_ONCE").
 */

import { formatDuration } from '../config/duration.ts';
import { FLINK_OPTIONS, findOption } from '../config/flink-options.ts';
import { formatMemorySize } from '../config/memory-size.ts';
import type { ConfigValue } from '../scenario/scenario-types.ts';

export function flinkOptionText(key: string, value: ConfigValue): string {
  const type = findOption(key)?.type;
  if (typeof value === 'number' && type === 'duration') return formatDuration(value);
  if (typeof value === 'number' && type === 'memory') return formatMemorySize(value);
  return String(value);
}

const REGISTRY_ORDER: readonly string[] = FLINK_OPTIONS.map((o) => o.key);

/** The scenario's options in the registry's order (the config panel's), so every format lists them alike. */
export function orderedOptions(config: Readonly<Record<string, ConfigValue>>): Array<[string, ConfigValue]> {
  const rank = (key: string) => REGISTRY_ORDER.indexOf(key);
  return Object.entries(config).sort(([a], [b]) => rank(a) - rank(b));
}
