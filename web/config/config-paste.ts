/**
 * A Flink configuration pasted into the editor's YAML view: flat `a.b.c: v` keys or nested maps,
 * as Flink's config.yaml allows, or a scenario fragment holding a `config:` map. What comes out
 * goes to the scenario validator as the scenario's `config`; what cannot be a config map is
 * refused here, naming what was expected.
 */
import { documentShapeError } from '../../engine/scenario/document-shape.ts';
import { message } from '../../engine/messages/engine-message.ts';
import { scenarioError } from '../../engine/scenario/scenario-error.ts';
import { parseScenarioText, type ScenarioError } from '../../engine/scenario/scenario-validator.ts';

export type PastedConfig = { ok: true; config: unknown } | { ok: false; errors: ScenarioError[] };

export function readPastedConfig(text: string): PastedConfig {
  const parsed = parseScenarioText(text, 'yaml');
  if (!parsed.ok) return parsed;
  const value = parsed.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    const allowed = message('phrase', { text: 'lines such as execution.checkpointing.interval: 10 s' });
    return { ok: false, errors: [scenarioError('config', message('config.paste-not-map'), { allowed })] };
  }
  const map = value as Record<string, unknown>;
  const onlyConfig = Object.keys(map).length === 1 && Object.hasOwn(map, 'config') && typeof map['config'] === 'object' && map['config'] !== null;
  return { ok: true, config: onlyConfig ? map['config'] : map };
}

/**
 * The pasted options as the form's text by flat key (nested maps joined at the dots), when the
 * text parses into a map the form can show; undefined otherwise (the YAML view keeps the text).
 * A map that nests too deeply or refers to itself (`a: &a { b: *a }`) is not walked.
 */
export function pastedConfigDraft(text: string): Record<string, string> | undefined {
  const parsed = parseScenarioText(text, 'yaml');
  if (!parsed.ok || !isMap(parsed.value) || documentShapeError(parsed.value)) return undefined;
  const draft: Record<string, string> = {};
  const pending: Array<[string, unknown]> = [['', parsed.value]];
  while (pending.length > 0) {
    const [prefix, value] = pending.pop()!;
    if (isMap(value)) pending.push(...Object.entries(value).reverse().map(([key, inner]): [string, unknown] => [prefix ? `${prefix}.${key}` : key, inner]));
    // defined, not assigned: a key named __proto__ stays a key
    else if (value !== null && value !== undefined) Object.defineProperty(draft, prefix, { value: String(value), enumerable: true, writable: true, configurable: true });
  }
  return draft;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
