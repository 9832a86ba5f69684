/**
 * The worker that runs a `runtime: scale` scenario for the playground page: an hour of a job of
 * parallelism 1,000 is seconds of work that would freeze the page on its main thread.
 */
import type { ScaleRunReply, ScaleRunRequest } from './scale-run-protocol.ts';
import { ScaleRunSession } from './scale-run-session.ts';

const scope = self as unknown as { postMessage(reply: ScaleRunReply): void; onmessage: ((event: MessageEvent<ScaleRunRequest>) => void) | null };

const session = new ScaleRunSession((reply) => scope.postMessage(reply), {
  now: () => performance.now(),
  later: (next) => setTimeout(next, 0),
});

scope.onmessage = (event) => session.handle(event.data);
