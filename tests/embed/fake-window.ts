import type { EmbedResponse } from '../../web/embed/embed-protocol.ts';

/** A window as the bridge sees one: it posts messages and is told of messages. */
export class FakeWindow {
  readonly received: EmbedResponse[] = [];
  #listener: ((event: MessageEvent) => void) | undefined;

  postMessage(message: EmbedResponse): void {
    this.received.push(message);
  }

  addEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.#listener = listener;
  }

  removeEventListener(): void {
    this.#listener = undefined;
  }

  /** `from` posts `data` to this window from `origin`. */
  deliver(data: unknown, from: FakeWindow, origin: string): void {
    this.#listener?.({ data, source: from, origin } as unknown as MessageEvent);
  }
}
