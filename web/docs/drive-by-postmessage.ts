// Drives an embedded playground from the page's own script, over postMessage
// (the protocol is web/embed/embed-protocol.ts; the element's `playground` does the same for you).
export function connectPlayground(frame: HTMLIFrameElement) {
  const origin = new URL(frame.src, location.href).origin;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let markReady = () => {};
  // The playground posts `ready` once it listens; calls sent before that would be lost.
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  window.addEventListener('message', (event) => {
    // Only this iframe's window, on the playground's origin, speaks for it.
    if (event.source !== frame.contentWindow || event.origin !== origin) return;
    const message = event.data;
    if (message?.protocol !== 'checkpoint-playground') return;
    if (message.type === 'ready') markReady();
    if (message.type !== 'result') return;
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) call?.resolve(message.value);
    else call?.reject(new Error(message.error));
  });

  /** Calls a Playground API method (load, start, runUntil, killTaskManager, stats, …). */
  async function call(method: string, ...args: unknown[]): Promise<unknown> {
    await ready;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      frame.contentWindow?.postMessage({ protocol: 'checkpoint-playground', type: 'call', id, method, args }, origin);
    });
  }

  return { ready, call };
}
