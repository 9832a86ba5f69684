/**
 * The raw MessageChannel ceilings the bench prints the live runtime's throughput against, measured
 * on the same page. Records are plain objects ({ key, value, timestamp }) posted in batches and
 * structured-cloned: no engine, no flow control, no columns.
 *
 * - `measureChannelCeiling`: one hop, from one bare worker to another (the first yardstick).
 * - `measureJobPathCeiling`: the records of the live bench's job along the same thread boundaries
 *   as the job's: `parallelism` workers each make their share of the records and send each to the
 *   worker its key belongs to (a key's worker keeps its own, as a keyBy keeps a key group's records
 *   in its TaskManager when the subtask there owns it: 1/parallelism of them), and every worker
 *   forwards what it has to the main thread (the sink's external system), in batches of the same
 *   size. So the same record count, batch size, hops and threads as the live job, without the job.
 */
import { wallNow } from '../../workers/job-clock.ts';

export type CeilingCommand =
  | { type: 'send'; port: MessagePort }
  | { type: 'receive'; port: MessagePort; records: number }
  | { type: 'go'; records: number; batch: number }
  | { type: 'job-connect'; index: number; peers: Array<MessagePort | null>; sink: MessagePort }
  | { type: 'job-go'; records: number; batch: number; keys: number };

export type CeilingReply = { type: 'ready' } | { type: 'done'; wallMs: number };

export interface ChannelCeiling {
  records: number;
  batch: number;
  seconds: number;
  recordsPerSecond: number;
}

function startWorker(): Worker {
  return new Worker(new URL('./channel-ceiling.worker.ts', import.meta.url), { type: 'module', name: 'channel ceiling' });
}

export async function measureChannelCeiling({ records, batch }: { records: number; batch: number }): Promise<ChannelCeiling> {
  const sender = startWorker();
  const receiver = startWorker();
  try {
    const { port1, port2 } = new MessageChannel();
    await Promise.all([ask(sender, { type: 'send', port: port1 }, [port1]), ask(receiver, { type: 'receive', port: port2, records }, [port2])]);
    const done = next(receiver);
    const began = wallNow();
    sender.postMessage({ type: 'go', records, batch } satisfies CeilingCommand);
    const reply = await done;
    const seconds = ((reply.type === 'done' ? reply.wallMs : wallNow()) - began) / 1000;
    return { records, batch, seconds, recordsPerSecond: Math.round(records / seconds) };
  } finally {
    sender.terminate();
    receiver.terminate();
  }
}

/** `records` in all (an equal share per worker), `keys` distinct keys, `parallelism` workers. */
export async function measureJobPathCeiling({ records, batch, keys, parallelism }: { records: number; batch: number; keys: number; parallelism: number }): Promise<ChannelCeiling> {
  const workers = Array.from({ length: parallelism }, startWorker);
  const sinks: MessagePort[] = [];
  try {
    const peers = workers.map((): Array<MessagePort | null> => workers.map(() => null));
    for (let i = 0; i < parallelism; i++) {
      for (let j = i + 1; j < parallelism; j++) {
        const { port1, port2 } = new MessageChannel();
        peers[i]![j] = port1;
        peers[j]![i] = port2;
      }
    }
    await Promise.all(
      workers.map((worker, index) => {
        const { port1, port2 } = new MessageChannel();
        sinks.push(port1);
        const own = peers[index]!;
        return ask(worker, { type: 'job-connect', index, peers: own, sink: port2 }, [...own.filter((p): p is MessagePort => p !== null), port2]);
      }),
    );
    const share = records / parallelism;
    let received = 0;
    const done = new Promise<number>((resolve) => {
      for (const port of sinks) {
        port.onmessage = (e: MessageEvent<unknown[]>) => {
          received += e.data.length;
          if (received >= share * parallelism) resolve(wallNow());
        };
      }
    });
    const began = wallNow();
    for (const worker of workers) worker.postMessage({ type: 'job-go', records: share, batch, keys } satisfies CeilingCommand);
    const seconds = ((await done) - began) / 1000;
    return { records: share * parallelism, batch, seconds, recordsPerSecond: Math.round((share * parallelism) / seconds) };
  } finally {
    for (const port of sinks) port.close();
    for (const worker of workers) worker.terminate();
  }
}

function ask(worker: Worker, command: CeilingCommand, transfer: Transferable[]): Promise<CeilingReply> {
  const reply = next(worker);
  worker.postMessage(command, transfer);
  return reply;
}

function next(worker: Worker): Promise<CeilingReply> {
  return new Promise((resolve, reject) => {
    worker.addEventListener('message', (e: MessageEvent<CeilingReply>) => resolve(e.data), { once: true });
    worker.addEventListener('error', (e) => reject(new Error(e.message)), { once: true });
  });
}
