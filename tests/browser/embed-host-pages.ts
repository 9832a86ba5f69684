/**
 * Host pages for embedding tests: small HTTP servers of their own (other ports, so other origins
 * than the playground's dev server, still on the loopback address, as Chromium's private network
 * rules want for a page that frames a local server), and a docs-like page that frames the
 * playground with a tiny client for the postMessage protocol.
 *
 * A host named `localhost` is another *site* than the dev server's `127.0.0.1` (ports do not make
 * a site), so its iframe is a third-party context: Chromium denies it storage (IndexedDB, OPFS,
 * Web Locks) as it blocks third-party cookies. A host named `127.0.0.1` is same-site.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves `pages` (path → HTML) on a free loopback port; resolves with its origin under `hostname`. */
export async function servePages(
  pages: (path: string) => string | undefined,
  hostname: '127.0.0.1' | 'localhost' = '127.0.0.1',
): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const body = pages(new URL(request.url ?? '/', 'http://x').pathname);
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://${hostname}:${(server.address() as AddressInfo).port}` };
}

/** A host page with the playground in an iframe and a tiny client for the postMessage protocol. */
export function hostPage(embedUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Docs page</title></head>
<body><h1>A docs page</h1>
<iframe id="playground" title="Checkpoint Playground" src="${embedUrl}" style="width:100%;height:640px;border:1px solid #ccc"></iframe>
<script>
  const frame = document.getElementById('playground');
  const playgroundOrigin = new URL(frame.src).origin;
  const pending = new Map();
  window.events = [];
  window.readyMessages = [];
  let nextId = 1;
  window.addEventListener('message', (event) => {
    if (event.origin !== playgroundOrigin || event.data?.protocol !== 'checkpoint-playground') return;
    const message = event.data;
    if (message.type === 'ready') window.readyMessages.push(message);
    if (message.type === 'event') window.events.push(message.event);
    if (message.type === 'result') { pending.get(message.id)?.(message); pending.delete(message.id); }
  });
  window.send = (request) => new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    frame.contentWindow.postMessage({ protocol: 'checkpoint-playground', id, ...request }, playgroundOrigin);
  });
  window.call = (method, ...args) => window.send({ type: 'call', method, args });
</script></body></html>`;
}
