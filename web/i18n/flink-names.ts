/**
 * Flink's enum names as the page shows them, and the message that explains each
 * (messages-flink-names.ts). FlinkName.svelte renders one; code that puts a name into a sentence
 * (an aria-label, a chart's tooltip) takes its label from here too.
 */
import { en, type MessageKey } from './messages-en.ts';

export type FlinkNameKind = 'jobStatus' | 'executionState' | 'checkpointStatus' | 'checkpointingMode' | 'savepointFormat' | 'partitioner' | 'stateHandle';

/**
 * Names whose shown text is a message of its own: the checkpoint statuses (the same in every
 * locale, kept as messages the dashboard already had) and the modes as Flink's Configuration tab
 * prints them ("Exactly Once"). Every other name is shown as it is.
 */
const LABELS: { readonly [K in FlinkNameKind]?: Readonly<Record<string, MessageKey>> } = {
  checkpointStatus: { IN_PROGRESS: 'checkpoints.status.inProgress', COMPLETED: 'checkpoints.status.completed', FAILED: 'checkpoints.status.failed' },
  checkpointingMode: { EXACTLY_ONCE: 'config.mode.exactlyOnce', AT_LEAST_ONCE: 'config.mode.atLeastOnce' },
};

type Translate = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string;

/** The text the page shows for `name`. */
export function flinkNameLabel(kind: FlinkNameKind, name: string, translate: Translate): string {
  const key = LABELS[kind]?.[name];
  return key ? translate(key) : name;
}

/** What `name` means in the reader's language; undefined for a name without an explanation (one Flink added later). */
export function flinkNameExplanation(kind: FlinkNameKind, name: string, translate: Translate): string | undefined {
  const key = `flinkName.${kind}.${name}`;
  // English is always loaded and defines every key the other locales translate
  return Object.hasOwn(en, key) ? translate(key as MessageKey) : undefined;
}
