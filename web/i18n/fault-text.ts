/**
 * A `fault` event in the reader's language: its FaultDetail through the `fault.<kind>` messages
 * (messages-faults.ts). An event without the detail (a trace recorded before it existed) keeps
 * its English description. A `fault-not-applied` event names its fault type (`faultType.<type>`).
 */
import type { JobOperationType } from '../../engine/job/job-operation.ts';
import type { FaultDetail } from '../../engine/run/fault-event.ts';
import type { EngineMessage } from '../../engine/messages/message-codes.ts';
import { i18n } from './i18n.svelte.ts';
import type { Locale, MessageKey } from './messages.ts';

export type Translate = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string;

/** The message parameters of a fault: its fields, lists joined. */
function faultParams(fault: FaultDetail): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(fault)) {
    if (name !== 'kind') params[name] = Array.isArray(value) ? value.join(', ') : (value as string | number);
  }
  return params;
}

export function faultText(event: { description: string; fault?: FaultDetail }, translate: Translate): string {
  if (!event.fault) return event.description;
  return translate(`fault.${event.fault.kind}`, faultParams(event.fault));
}

/** Every operation type a schedule (or a user) can ask for, by its message (a Record: a new type without a name is a type error). */
const FAULT_TYPE_NAMES: { readonly [T in JobOperationType]: MessageKey } = {
  'fail-task': 'faultType.fail-task',
  'kill-task-manager': 'faultType.kill-task-manager',
  'lose-host': 'faultType.lose-host',
  'stall-task-manager': 'faultType.stall-task-manager',
  'corrupt-local-copy': 'faultType.corrupt-local-copy',
  'delete-local-copy': 'faultType.delete-local-copy',
  'slow-operator': 'faultType.slow-operator',
  'slow-remote-storage': 'faultType.slow-remote-storage',
  'fail-remote-storage': 'faultType.fail-remote-storage',
  'heal-remote-storage': 'faultType.heal-remote-storage',
  'trigger-checkpoint': 'faultType.trigger-checkpoint',
  'trigger-savepoint': 'faultType.trigger-savepoint',
  rescale: 'faultType.rescale',
  'restart-from-savepoint': 'faultType.restart-from-savepoint',
  cancel: 'faultType.cancel',
  'stop-with-savepoint': 'faultType.stop-with-savepoint',
};

/** A fault type in the reader's language; a type the UI does not know keeps its own name. */
export function faultTypeName(type: string, translate: Translate): string {
  return Object.hasOwn(FAULT_TYPE_NAMES, type) ? translate(FAULT_TYPE_NAMES[type as JobOperationType]) : type;
}

/**
 * A `fault-not-applied` event: a translated lead ("fail task not applied", "“让任务失败”未执行")
 * and the engine's reason, rendered from its message code in `locale` (an event recorded before
 * reasons had codes keeps its English reason, the same words as the CLI's and the API's errors).
 */
export function faultNotAppliedText(event: { faultType: string; reason: string; problem?: EngineMessage }, translate: Translate, locale: Locale = 'en'): string {
  const reason = event.problem === undefined ? event.reason : i18n.engineText(event.problem, locale);
  return translate('fault.notApplied', { fault: faultTypeName(event.faultType, translate), reason });
}
