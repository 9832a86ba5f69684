/**
 * The raw MessageChannel ceiling: records in batches from one bare worker to another over a
 * MessageChannel, no engine and no flow control, measured on the same page as the live runtime
 * so the bench can print the pipeline's throughput as a ratio of it.
 */
import { wallNow } from '../../workers/job-clock.ts';

export type CeilingCommand =
  | { type: 'send'; port: MessagePort }
  | { type: 'receive'; port: MessagePort; records: number }
  | { type: 'go'; records: number; batch: number };

export type CeilingReply = { type: 'ready' } | { type: 'done'; wallMs: number };

export interface ChannelCeiling {
  records: number;
  batch: number;
  seconds: number;
  recordsPerSecond: number;
}

export async function measureChannelCeiling({ records, batch }: { records: number; batch: number }): Promise<ChannelCeiling> {
  const start = () => new Worker(new URL('./channel-ceiling.worker.ts', import.meta.url), { type: 'module', name: 'channel ceiling' });
  const sender = start();
  const receiver = start();
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
