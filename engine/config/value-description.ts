/**
 * How an error message names a value it did not expect: short, and safe for any input (a huge
 * string is cut, an object is not printed).
 */

import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

export function describeValue(value: unknown): EngineMessage {
  if (value === null) return message('value.null');
  if (value === undefined) return message('value.nothing');
  if (Array.isArray(value)) return message('value.list');
  if (typeof value === 'object') return message('value.object');
  if (typeof value === 'string') return message('value.string', { text: quote(value) });
  if (typeof value === 'number') return message('value.number', { value: String(value) });
  if (typeof value === 'boolean') return message('value.literal', { text: String(value) });
  return message('value.literal', { text: typeof value });
}

/** User text inside a message: quoted, and cut when long. */
export function quote(text: string): string {
  return JSON.stringify(truncate(text));
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
