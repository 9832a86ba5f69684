/**
 * One end of the raw MessageChannel ceiling (channel-ceiling.ts): a bare worker that either posts
 * batches of records on a port as fast as it can, or counts what arrives on one. No engine, no
 * flow control: what the live runtime's data plane is compared against.
 */
import type { CeilingCommand, CeilingReply } from './channel-ceiling.ts';

let port: MessagePort | undefined;
let expected = 0;
let received = 0;

self.onmessage = (event: MessageEvent<CeilingCommand>) => {
  const command = event.data;
  switch (command.type) {
    case 'receive':
      port = command.port;
      expected = command.records;
      received = 0;
      port.onmessage = (e: MessageEvent<unknown[]>) => {
        received += e.data.length;
        if (received >= expected) reply({ type: 'done', wallMs: performance.timeOrigin + performance.now() });
      };
      return reply({ type: 'ready' });
    case 'send':
      port = command.port;
      return reply({ type: 'ready' });
    case 'go': {
      const out = port!;
      for (let sent = 0; sent < command.records; ) {
        const n = Math.min(command.batch, command.records - sent);
        const batch = new Array(n);
        for (let i = 0; i < n; i++, sent++) batch[i] = { key: `key-${sent % 1000}`, value: 1, timestamp: sent };
        out.postMessage(batch);
      }
      return;
    }
  }
};

function reply(message: CeilingReply): void {
  self.postMessage(message);
}
