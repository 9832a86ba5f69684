/**
 * Subscribers of the Playground API's `on(type, callback)`. Events are delivered outside the
 * simulation's event handling (the playground queues them while a slice runs), so a callback may
 * call back into the API, to pause or to break something, without re-entering the engine.
 */
import type { PlaygroundEvent, PlaygroundEventOf, PlaygroundEventType } from './playground-api-types.ts';

type Listener = (event: PlaygroundEvent) => void;

export class EventHub {
  readonly #listeners = new Map<PlaygroundEventType | '*', Set<Listener>>();

  on<T extends PlaygroundEventType | '*'>(type: T, callback: (event: PlaygroundEventOf<T>) => void): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    // Wrapped, so subscribing the same function twice gives two independent subscriptions.
    const listener: Listener = (event) => callback(event as PlaygroundEventOf<T>);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  get hasListeners(): boolean {
    for (const set of this.#listeners.values()) if (set.size > 0) return true;
    return false;
  }

  emit(event: PlaygroundEvent): void {
    for (const key of [event.type, '*'] as const) {
      const set = this.#listeners.get(key);
      if (!set) continue;
      for (const listener of [...set]) {
        try {
          listener(event);
        } catch (error) {
          // A broken subscriber must not stop the playground; the page still sees the error.
          globalThis.reportError?.(error);
        }
      }
    }
  }
}
