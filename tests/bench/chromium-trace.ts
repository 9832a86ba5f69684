/**
 * A Chromium trace read over CDP (Tracing.start with transferMode 'ReturnAsStream'): the event
 * shape both bench tracers use and the read of the stream once tracing ends.
 */
import type { CDPSession } from 'playwright-core';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  parent?: number;
}

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** the thread's CPU time in the event (µs): below `dur` where the thread waited or was not scheduled */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    /** a font family lookup's family (FontDataManager::onMatchFamilyStyle) */
    family_name?: string;
    data?: {
      startTime?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
      functionName?: string;
      url?: string;
      elementCount?: number;
    };
    beginData?: { dirtyObjects?: number; totalObjects?: number; stackTrace?: unknown[] };
  };
}

/** Ends tracing and reads the whole trace from its stream. */
export async function readTrace(session: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<string>((resolve) => session.once('Tracing.tracingComplete', (event) => resolve(event.stream!)));
  await session.send('Tracing.end');
  const stream = await done;
  const chunks: string[] = [];
  for (;;) {
    const chunk = await session.send('IO.read', { handle: stream, size: 1 << 22 });
    chunks.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data);
    if (chunk.eof) break;
  }
  await session.send('IO.close', { handle: stream });
  const parsed = JSON.parse(chunks.join('')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}
