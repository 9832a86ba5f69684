/**
 * A `fault` event in the reader's language: its FaultDetail through the `fault.<kind>` messages
 * (messages-faults.ts). An event without the detail (a trace recorded before it existed) keeps
 * its English description.
 */
import type { FaultDetail } from '../../engine/run/fault-event.ts';
import type { MessageKey } from './messages.ts';

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
