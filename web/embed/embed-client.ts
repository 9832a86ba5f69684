/**
 * The embedding page's side of the postMessage protocol (embed-protocol.ts): the Playground API
 * of a playground in an iframe, as promises. `<checkpoint-playground>` uses it; a page that
 * writes its own iframe can too:
 *
 *   const playground = new EmbedClient(iframe.contentWindow, 'https://playground.example.org').api;
 *   await playground.ready;
 *   await playground.load(yaml); await playground.start();
 */
import type { PlaygroundEventOf, PlaygroundEventType } from '../playground/api/playground-api-types.ts';
import { EMBED_PROTOCOL, type EmbedMethod, type EmbedRequest, type EmbedResponse, type EmbedView } from './embed-protocol.ts';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** The Playground API of an embedded playground (`on` and `ready` added). */
export type RemotePlayground = {
  [M in EmbedMethod]: (...args: unknown[]) => Promise<unknown>;
} & {
  /** resolves once the embedded playground announced it is ready */
  readonly ready: Promise<{ view: EmbedView }>;
  on<T extends PlaygroundEventType | '*'>(type: T, callback: (event: PlaygroundEventOf<T>) => void): () => void;
};

export class EmbedClient {
  readonly #target: () => Window | null;
  readonly #origin: string;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<number, (event: never) => void>();
  readonly #onMessage: (event: MessageEvent) => void;
  #nextId = 1;
  #resolveReady!: (value: { view: EmbedView }) => void;
  readonly ready: Promise<{ view: EmbedView }>;

  /** `target` is the iframe's window (or a function returning it); `origin` is the playground's origin. */
  constructor(target: Window | (() => Window | null), origin: string, host: Window = window) {
    this.#target = typeof target === 'function' ? target : () => target;
    this.#origin = origin;
    this.ready = new Promise((resolve) => (this.#resolveReady = resolve));
    this.#onMessage = (event) => this.#receive(event);
    host.addEventListener('message', this.#onMessage);
  }

  call(method: EmbedMethod, ...args: unknown[]): Promise<unknown> {
    return this.#send((id) => ({ protocol: EMBED_PROTOCOL, type: 'call', id, method, args }));
  }

  on<T extends PlaygroundEventType | '*'>(type: T, callback: (event: PlaygroundEventOf<T>) => void): () => void {
    let subscription: number | undefined;
    let cancelled = false;
    void this.#send((id) => ({ protocol: EMBED_PROTOCOL, type: 'subscribe', id, event: type })).then((value) => {
      subscription = value as number;
      if (cancelled) void this.#send((id) => ({ protocol: EMBED_PROTOCOL, type: 'unsubscribe', id, subscription: subscription! }));
      else this.#listeners.set(subscription, callback as (event: never) => void);
    });
    return () => {
      cancelled = true;
      if (subscription === undefined) return;
      this.#listeners.delete(subscription);
      void this.#send((id) => ({ protocol: EMBED_PROTOCOL, type: 'unsubscribe', id, subscription: subscription! }));
    };
  }

  /** The API as an object of methods, as `window.playground` offers it. */
  get api(): RemotePlayground {
    const client = this;
    return new Proxy({} as RemotePlayground, {
      get(_target, name) {
        if (name === 'ready') return client.ready;
        if (name === 'on') return client.on.bind(client);
        if (name === 'then') return undefined; // not a thenable
        return (...args: unknown[]) => client.call(name as EmbedMethod, ...args);
      },
    });
  }

  dispose(host: Window = window): void {
    host.removeEventListener('message', this.#onMessage);
    for (const pending of this.#pending.values()) pending.reject(new Error('The embedded playground was removed.'));
    this.#pending.clear();
  }

  #send(make: (id: number) => EmbedRequest): Promise<unknown> {
    const target = this.#target();
    if (!target) return Promise.reject(new Error('The embedded playground is not loaded yet.'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      target.postMessage(make(id), this.#origin);
    });
  }

  #receive(event: MessageEvent): void {
    if (event.origin !== this.#origin || event.source !== this.#target()) return;
    const message = event.data as EmbedResponse;
    if (typeof message !== 'object' || message === null || message.protocol !== EMBED_PROTOCOL) return;
    switch (message.type) {
      case 'ready':
        this.#resolveReady({ view: message.view });
        return;
      case 'event':
        (this.#listeners.get(message.subscription) as ((event: unknown) => void) | undefined)?.(message.event);
        return;
      case 'result': {
        if (typeof message.id !== 'number') return;
        const pending = this.#pending.get(message.id);
        if (!pending) return;
        this.#pending.delete(message.id);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new Error(message.error));
      }
    }
  }
}
