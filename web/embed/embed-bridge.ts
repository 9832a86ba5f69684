/**
 * The embedded playground's side of the postMessage protocol (embed-protocol.ts): it checks the
 * caller's origin, runs the Playground API call, and posts the result (or the error's message)
 * back to the caller; subscriptions forward events until they are cancelled.
 */
import type { PlaygroundApi } from '../playground/api/playground-api-types.ts';
import { EMBED_PROTOCOL, type EmbedMethod, type EmbedRequest, type EmbedResponse, type EmbedView } from './embed-protocol.ts';

const METHODS: ReadonlySet<EmbedMethod> = new Set<EmbedMethod>([
  'load',
  'start',
  'pause',
  'step',
  'runUntil',
  'setSpeed',
  'setLanguage',
  'setDriver',
  'status',
  'topology',
  'killTaskManager',
  'loseHost',
  'failTask',
  'slowOperator',
  'corruptLocalCopy',
  'triggerCheckpoint',
  'triggerSavepoint',
  'stopWithSavepoint',
  'rescale',
  'stallTaskManager',
  'deleteLocalCopy',
  'slowRemoteStorage',
  'failRemoteStorage',
  'restartFromSavepoint',
  'cancel',
  'stats',
  'seek',
  'branches',
  'switchBranch',
  'lessons',
  'openLesson',
  'lessonProgress',
  'compare',
  'comparison',
  'closeCompare',
]);

function isRequest(data: unknown): data is EmbedRequest {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Partial<EmbedRequest>;
  return message.protocol === EMBED_PROTOCOL && (message.type === 'call' || message.type === 'subscribe' || message.type === 'unsubscribe');
}

/**
 * Which origins may call: the listed ones (`*` for any), and the playground's own. An entry is
 * compared as an origin (scheme, host and port), so `https://docs.example.org/` works too.
 */
export class OriginPolicy {
  readonly #origins: ReadonlySet<string>;
  readonly #any: boolean;

  constructor(allowed: readonly string[], own: string) {
    this.#any = allowed.includes('*');
    const origins = new Set<string>([own]);
    for (const entry of allowed) {
      try {
        if (entry !== '*') origins.add(new URL(entry).origin);
      } catch {
        // not a URL: it can match nothing
      }
    }
    this.#origins = origins;
  }

  allows(origin: string): boolean {
    return origin !== 'null' && (this.#any || this.#origins.has(origin));
  }

  /** The origins the `ready` message may go to. */
  get listed(): string[] {
    return [...this.#origins];
  }

  /**
   * Where `ready` is posted: with `*` the parent may be on any origin, and postMessage delivers
   * only to the origin named, so it goes to `*` (any caller may call anyway); else to each listed one.
   */
  get readyTargets(): string[] {
    return this.#any ? ['*'] : this.listed;
  }
}

export type CallVerdict = { accept: true } | { accept: false; reason: string };

/**
 * Whether a message may call the API: it must come from the embedding page itself (the frame's
 * parent; the page itself when it is not framed), and that page's origin must be allowed. Another
 * window of an allowed origin — a pop-up, a sibling frame an ad put there — may not drive it.
 */
export function judgeCaller(policy: OriginPolicy, origin: string, fromParent: boolean): CallVerdict {
  if (!policy.allows(origin)) return { accept: false, reason: `The origin ${origin} may not call this playground; the embedding page must list it in allowed-origins.` };
  if (!fromParent) return { accept: false, reason: 'Only the page that embeds this playground (the frame’s parent) may call it.' };
  return { accept: true };
}

export class EmbedBridge {
  readonly #api: PlaygroundApi;
  readonly #policy: OriginPolicy;
  readonly #subscriptions = new Map<number, () => void>();
  #nextSubscription = 1;

  constructor(api: PlaygroundApi, policy: OriginPolicy) {
    this.#api = api;
    this.#policy = policy;
  }

  /** Listens for calls from `parent` (the embedding page); returns the function that stops listening. */
  listen(target: Window, parent: Window = target.parent): () => void {
    const handler = (event: MessageEvent) => void this.#onMessage(event, parent);
    target.addEventListener('message', handler);
    return () => {
      target.removeEventListener('message', handler);
      for (const off of this.#subscriptions.values()) off();
      this.#subscriptions.clear();
    };
  }

  /** Tells the embedding page the playground listens (only if the page's origin is allowed). */
  announceReady(parent: Window, view: EmbedView): void {
    if (parent === window) return;
    const message: EmbedResponse = { protocol: EMBED_PROTOCOL, type: 'ready', version: 1, view };
    // postMessage delivers only when the target's origin is the one named, so a page on an origin
    // that is not allowed never learns that the playground is there.
    for (const origin of this.#policy.readyTargets) parent.postMessage(message, origin);
  }

  async #onMessage(event: MessageEvent, parent: Window): Promise<void> {
    const request: unknown = event.data;
    if (!isRequest(request)) return;
    const source = event.source as Window | null;
    if (!source || typeof source.postMessage !== 'function') return;
    const reply = (message: EmbedResponse) => source.postMessage(message, event.origin === 'null' ? '*' : event.origin);
    const verdict = judgeCaller(this.#policy, event.origin, source === parent);
    if (!verdict.accept) {
      console.warn(`Checkpoint Playground: refused a ${request.type} from ${event.origin}: ${verdict.reason}`);
      reply({ protocol: EMBED_PROTOCOL, type: 'result', id: request.id, ok: false, refused: true, error: verdict.reason });
      return;
    }
    try {
      reply({ protocol: EMBED_PROTOCOL, type: 'result', id: request.id, ok: true, value: await this.#run(request, reply) });
    } catch (error) {
      reply({ protocol: EMBED_PROTOCOL, type: 'result', id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }

  async #run(request: EmbedRequest, reply: (message: EmbedResponse) => void): Promise<unknown> {
    switch (request.type) {
      case 'call': {
        if (!METHODS.has(request.method)) throw new Error(`Unknown method ${JSON.stringify(request.method)}: use one of ${[...METHODS].join(', ')}.`);
        const method = this.#api[request.method] as (...args: unknown[]) => Promise<unknown>;
        return method(...(Array.isArray(request.args) ? request.args : []));
      }
      case 'subscribe': {
        const subscription = this.#nextSubscription++;
        const off = this.#api.on(request.event, (event) => reply({ protocol: EMBED_PROTOCOL, type: 'event', subscription, event }));
        this.#subscriptions.set(subscription, off);
        return subscription;
      }
      case 'unsubscribe': {
        this.#subscriptions.get(request.subscription)?.();
        return this.#subscriptions.delete(request.subscription);
      }
    }
  }
}
