/**
 * The postMessage protocol between an embedding page and an embedded playground (DESIGN.md,
 * contract 4): the Playground API's calls and events, as messages. Types only; read top to
 * bottom like a spec.
 *
 * Every message carries `protocol: 'checkpoint-playground'`, so both sides ignore other traffic.
 * The embedded page answers calls only from origins it was told to trust (`allowed-origins`, plus
 * its own); a call from any other origin gets a `result` with `refused: true` and does nothing.
 */
import type { PlaygroundApi, PlaygroundEvent, PlaygroundEventType } from '../playground/api/playground-api-types.ts';

export const EMBED_PROTOCOL = 'checkpoint-playground';

/** The API's methods that go over postMessage as calls (`on` is a subscription instead). */
export type EmbedMethod = Exclude<keyof PlaygroundApi, 'version' | 'on'>;

/** Which part of the playground an embedded page shows. */
export type EmbedView = 'graph' | 'dashboard' | 'all';

/** Embedding page → playground. */
export type EmbedRequest =
  /** call an API method; its promise's value (or error message) comes back as a `result` with this id */
  | { protocol: typeof EMBED_PROTOCOL; type: 'call'; id: number | string; method: EmbedMethod; args: unknown[] }
  /** subscribe to events of a type (or '*'); the `result`'s value is the subscription number */
  | { protocol: typeof EMBED_PROTOCOL; type: 'subscribe'; id: number | string; event: PlaygroundEventType | '*' }
  | { protocol: typeof EMBED_PROTOCOL; type: 'unsubscribe'; id: number | string; subscription: number };

/** Playground → embedding page. */
export type EmbedResponse =
  | { protocol: typeof EMBED_PROTOCOL; type: 'result'; id: number | string; ok: true; value: unknown }
  /** `refused`: the caller's origin is not allowed; nothing was done */
  | { protocol: typeof EMBED_PROTOCOL; type: 'result'; id: number | string; ok: false; error: string; refused?: true }
  | { protocol: typeof EMBED_PROTOCOL; type: 'event'; subscription: number; event: PlaygroundEvent }
  /** sent to the parent (when its origin is allowed) once the playground listens */
  | { protocol: typeof EMBED_PROTOCOL; type: 'ready'; version: 1; view: EmbedView };
