/**
 * The configuration editor's state: every Flink option as the text a user types (Flink's value
 * syntax: "10 s", "64 mb", "true", "EXACTLY_ONCE"; empty for Flink's default), the same as YAML,
 * and what validation said about the last attempt to apply. Applying goes through the scenario
 * validator with the edited `config` and restarts the scenario (PlaygroundState#applyConfig).
 */
import { stringify } from 'yaml';
import { formatDuration } from '../../engine/config/duration.ts';
import { FLINK_OPTIONS, findOption, type FlinkOption } from '../../engine/config/flink-options.ts';
import { formatMemorySize } from '../../engine/config/memory-size.ts';
import { configPath } from '../../engine/scenario/scenario-error.ts';
import type { ConfigValue } from '../../engine/scenario/scenario-types.ts';
import type { EngineMessage } from '../../engine/messages/message-codes.ts';
import type { ScenarioError } from '../../engine/scenario/scenario-validator.ts';
import type { PlaygroundState } from '../playground-state.svelte.ts';
import { pastedConfigDraft, readPastedConfig } from './config-paste.ts';

export type EditorMode = 'form' | 'yaml';

/** A value of the engine's parsed form, printed in Flink's syntax. */
export function formatOptionValue(option: FlinkOption, value: ConfigValue): string {
  if (typeof value === 'number' && option.type === 'duration') return formatDuration(value);
  if (typeof value === 'number' && option.type === 'memory') return formatMemorySize(value);
  return String(value);
}

/** The options in the form, as text by key; unset options are left out. */
function textOf(config: Readonly<Record<string, ConfigValue>>): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    const option = findOption(key);
    text[key] = option ? formatOptionValue(option, value) : String(value);
  }
  return text;
}

/** The YAML a Flink user keeps in config.yaml: flat keys, in the playground's order of options. */
export function configYaml(text: Readonly<Record<string, string>>): string {
  const ordered: Record<string, string | boolean | number> = {};
  const known = new Set(FLINK_OPTIONS.map((o) => o.key));
  for (const option of FLINK_OPTIONS) {
    const value = text[option.key]?.trim();
    if (value) ordered[option.key] = typedText(option, value);
  }
  for (const [key, value] of Object.entries(text)) if (!known.has(key) && value.trim()) ordered[key] = value.trim();
  return Object.keys(ordered).length === 0 ? '' : stringify(ordered, { lineWidth: 0 });
}

/** Booleans and plain numbers as YAML scalars; everything else as Flink's text. */
function typedText(option: FlinkOption, value: string): string | boolean | number {
  if (option.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if ((option.type === 'integer' || option.type === 'double') && value !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

export class ConfigEditor {
  mode = $state<EditorMode>('form');
  /** option key → text ('' or missing: not set, Flink's default) */
  draft = $state<Record<string, string>>({});
  /** what the running scenario sets, as text */
  baseline = $state.raw<Record<string, string>>({});
  yaml = $state('');
  filter = $state('');
  errors = $state.raw<ScenarioError[]>([]);
  notes = $state.raw<EngineMessage[]>([]);
  /** set after a successful apply, until the next edit */
  applied = $state(false);

  readonly changed = $derived(configYaml(this.draft) !== configYaml(this.baseline));

  /** `playground` is read when needed, so a component can hand over its prop. */
  constructor(private readonly playgroundOf: () => PlaygroundState) {}

  /** Starts over from the running scenario's configuration. */
  reset(): void {
    const config = this.playgroundOf().scenario?.config ?? {};
    this.baseline = textOf(config);
    this.draft = { ...this.baseline };
    this.yaml = configYaml(this.baseline);
    this.errors = [];
    this.notes = [];
    this.applied = false;
  }

  set(key: string, text: string): void {
    this.draft[key] = text;
    this.applied = false;
  }

  /** Switches between the form and the YAML view, carrying the edits across. */
  setMode(mode: EditorMode): void {
    if (mode === this.mode) return;
    if (mode === 'yaml') this.yaml = configYaml(this.draft);
    else this.#draftFromYaml();
    this.errors = [];
    this.mode = mode;
  }

  /** The YAML's options as form text, when it parses (nested maps flattened at the dots). */
  #draftFromYaml(): void {
    const draft = pastedConfigDraft(this.yaml);
    if (draft) this.draft = draft;
  }

  /** The problem validation found with this option, if any. */
  errorFor(key: string): ScenarioError | undefined {
    const path = configPath(key);
    return this.errors.find((e) => e.path === path || e.path.startsWith(`${path}.`));
  }

  /** Applies the form: only the options that are set, as typed. */
  applyForm(): boolean {
    const config: Record<string, string | boolean> = {};
    for (const [key, text] of Object.entries(this.draft)) {
      const value = text.trim();
      if (value === '') continue;
      const option = findOption(key);
      config[key] = option?.type === 'boolean' && (value === 'true' || value === 'false') ? value === 'true' : value;
    }
    return this.#apply(config);
  }

  /**
   * Applies the YAML view: a Flink configuration as pasted (flat `a.b.c: v` keys or nested maps,
   * as Flink's config.yaml allows), or a scenario fragment with a `config:` map.
   */
  applyYaml(): boolean {
    const pasted = readPastedConfig(this.yaml);
    if (!pasted.ok) {
      this.errors = pasted.errors;
      return false;
    }
    return this.#apply(pasted.config);
  }

  #apply(config: unknown): boolean {
    const result = this.playgroundOf().applyConfig(config);
    if (!result.ok) {
      this.errors = result.errors;
      this.applied = false;
      return false;
    }
    // The scenario was reloaded: the form starts from what it now runs with.
    const mode = this.mode;
    this.reset();
    this.mode = mode;
    this.notes = result.noteMessages;
    this.applied = true;
    return true;
  }
}
