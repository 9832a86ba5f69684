/**
 * One worker of the raw MessageChannel ceilings (channel-ceiling.ts): a bare worker that posts
 * batches of records on a port as fast as it can, or counts what arrives on one; or, for the
 * job-path ceiling, makes its share of records, sends each to the worker of its key and forwards
 * what it has to the main thread. No engine, no flow control: what the live runtime's data plane
 * is compared against.
 */
import type { CeilingCommand, CeilingReply } from './channel-ceiling.ts';

interface CeilingRecord {
  key: string;
  value: number;
  timestamp: number;
}

let port: MessagePort | undefined;
let expected = 0;
let received = 0;

/** the job-path ceiling: this worker's index, its ports to the others (null: itself) and to the main thread */
let job: { index: number; peers: Array<MessagePort | null>; sink: MessagePort } | undefined;

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
    case 'job-connect': {
      const { index, peers, sink } = command;
      job = { index, peers, sink };
      // What a peer sends for this worker's keys goes on to the main thread as it came.
      for (const peer of peers) if (peer) peer.onmessage = (e: MessageEvent<CeilingRecord[]>) => sink.postMessage(e.data);
      return reply({ type: 'ready' });
    }
    case 'job-go':
      return runJobShare(job!, command.records, command.batch, command.keys);
  }
};

/**
 * Makes `records` records in turns of one batch per worker, yielding between turns (as a
 * TaskManager's scheduling turns do) so that the batches peers send meanwhile are forwarded.
 */
function runJobShare(share: { index: number; peers: Array<MessagePort | null>; sink: MessagePort }, records: number, batch: number, keys: number): void {
  const { index, peers, sink } = share;
  const parallelism = peers.length;
  const pending: CeilingRecord[][] = peers.map(() => []);
  const send = (to: number) => {
    const records = pending[to]!;
    if (records.length === 0) return;
    pending[to] = [];
    (to === index ? sink : peers[to]!).postMessage(records);
  };
  const turn = new MessageChannel();
  let offset = 0;
  const step = () => {
    const end = Math.min(records, offset + batch * parallelism);
    for (; offset < end; offset++) {
      const key = offset % keys;
      const to = key % parallelism;
      const out = pending[to]!;
      out.push({ key: `key-${key}`, value: 1, timestamp: offset });
      if (out.length >= batch) send(to);
    }
    if (offset < records) return turn.port2.postMessage(null);
    for (let to = 0; to < parallelism; to++) send(to);
    turn.port1.close();
  };
  turn.port1.onmessage = step;
  step();
}

function reply(message: CeilingReply): void {
  self.postMessage(message);
}
