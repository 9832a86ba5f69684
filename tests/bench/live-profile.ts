/**
 * Where the live runtime's time goes, thread by thread: runs the live bench's pipeline once in
 * headless Chromium under a CDP trace (every thread: the page's main thread, which plays the
 * JobManager and the sink's external system, and each TaskManager worker) and prints, per thread,
 * its busy ms (top-level tasks), its garbage collection, and the functions with the most self time
 * (V8's sampling profiler). It explains the `live` figures of `npm run bench`; it is not one of
 * them (tracing slows everything down).
 *
 *   flock /tmp/chromium.lock npx tsx tests/bench/live-profile.ts [records-per-source] [--ceiling] [--checkpoints INTERVAL]
 *
 * `--checkpoints 1s` runs the pipeline with `execution.checkpointing.interval` set, to see what
 * checkpoints cost each thread (run it once with and once without).
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { openBrowserSession } from '../browser/browser-session.ts';
import { readTrace, type ProfileNode, type TraceEvent } from './chromium-trace.ts';

/** Few categories: devtools.timeline's per-event records slowed the traced run down five times. */
const CATEGORIES = ['toplevel', 'v8', 'disabled-by-default-v8.cpu_profiler'].join(',');
const TOP_FUNCTIONS = Number(process.env.TOP ?? 14);
/** LIVE_PROFILE_INCLUSIVE=1: functions by inclusive time (callees counted) instead of self time */
const INCLUSIVE = process.env.LIVE_PROFILE_INCLUSIVE === '1';

export interface ThreadProfile {
  thread: string;
  busyMs: number;
  gcMs: number;
  /** [function at file:line, self ms] */
  top: Array<[string, number]>;
}

/** Per thread: busy ms of top-level tasks, GC ms, and self time per function from the sampled CPU profile. */
export function threadProfiles(events: TraceEvent[]): ThreadProfile[] {
  const names = new Map<string, string>();
  for (const e of events) if (e.name === 'thread_name' && e.args?.name) names.set(`${e.pid}:${e.tid}`, e.args.name);
  const busy = new Map<string, number>();
  const gc = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const thread = `${e.pid}:${e.tid}`;
    if (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') busy.set(thread, (busy.get(thread) ?? 0) + e.dur / 1000);
    if (e.name === 'MajorGC' || e.name === 'MinorGC' || e.name === 'V8.GCScavenger' || e.name === 'V8.GCFinalizeMC') gc.set(thread, (gc.get(thread) ?? 0) + e.dur / 1000);
  }
  const selfMs = new Map<string, Map<string, number>>();
  const profileThread = new Map<string, string>();
  const nodes = new Map<string, Map<number, ProfileNode>>();
  for (const e of events) {
    if (e.name === 'Profile' && e.id) profileThread.set(e.id, `${e.pid}:${e.tid}`);
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const thread = profileThread.get(e.id) ?? `${e.pid}:${e.tid}`;
    const known = nodes.get(e.id) ?? new Map<number, ProfileNode>();
    nodes.set(e.id, known);
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) known.set(n.id, n);
    const samples = e.args?.data?.cpuProfile?.samples ?? [];
    const deltas = e.args?.data?.timeDeltas ?? [];
    const perFunction = selfMs.get(thread) ?? new Map<string, number>();
    selfMs.set(thread, perFunction);
    for (let i = 0; i < samples.length; i++) {
      const node = known.get(samples[i]!);
      const frame = node?.callFrame;
      const where = frame ? `${frame.functionName || '(anonymous)'} ${(frame.url ?? '').replace(/^.*\//, '').replace(/\?.*$/, '')}:${frame.lineNumber + 1}` : '?';
      // The delta before the next sample is the time this one stood for.
      const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
      perFunction.set(where, (perFunction.get(where) ?? 0) + ms);
      // Inclusive time: every function on the sampled stack, once.
      const seen = new Set<string>();
      for (let n = node?.parent === undefined ? undefined : known.get(node.parent); n; n = n.parent === undefined ? undefined : known.get(n.parent)) {
        const name = `<incl> ${n.callFrame.functionName || '(anonymous)'} ${(n.callFrame.url ?? '').replace(/^.*\//, '').replace(/\?.*$/, '')}`;
        if (seen.has(name)) continue;
        seen.add(name);
        perFunction.set(name, (perFunction.get(name) ?? 0) + ms);
      }
    }
  }
  const threads = new Set([...busy.keys()].filter((t) => (busy.get(t) ?? 0) > 20));
  return [...threads]
    .map((t) => ({
      thread: `${names.get(t) ?? t} (${t})`,
      busyMs: Math.round(busy.get(t) ?? 0),
      gcMs: Math.round(gc.get(t) ?? 0),
      top: [...(selfMs.get(t) ?? new Map<string, number>())]
        .filter(([where]) => !where.startsWith('(idle)') && !where.startsWith('(program)') && (INCLUSIVE ? where.startsWith('<incl>') : !where.startsWith('<incl>')))
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP_FUNCTIONS)
        .map(([where, ms]): [string, number] => [where, Math.round(ms)]),
    }))
    .sort((a, b) => b.busyMs - a.busyMs);
}

function pipeline(recordsPerSource: number, checkpointInterval: string | undefined): object {
  return {
    version: 1,
    name: 'live profile',
    seed: 1,
    job: {
      vertices: [
        { id: 'source', type: 'source', record_cost_us: 0, source: { kind: 'sequence', keys: 1000, rate_per_s: 1e9, count: recordsPerSource } },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: 0 },
        { id: 'sink', type: 'sink', sink: 'plain', record_cost_us: 0 },
      ],
      edges: [
        { from: 'source', to: 'count', partitioning: 'hash' },
        { from: 'count', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: { 'parallelism.default': 4, ...(checkpointInterval ? { 'execution.checkpointing.interval': checkpointInterval } : {}) },
    cluster: { hosts: 1, task_managers_per_host: 4, slots_per_task_manager: 1 },
  };
}

async function main(): Promise<void> {
  const recordsPerSource = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 500_000);
  const ceiling = process.argv.includes('--ceiling');
  const interval = process.argv.includes('--checkpoints') ? process.argv[process.argv.indexOf('--checkpoints') + 1] : undefined;
  const session = await openBrowserSession();
  try {
    await session.page.goto(`${session.baseUrl}/live/live-test.html`);
    await session.page.waitForFunction(() => window.liveTest !== undefined);
    // A warm-up run, untraced: the code's first runs are not what the bench's medians see.
    await session.page.evaluate(async (s) => {
      await window.liveTest!.start(s);
      await window.liveDriver!.whenTerminal();
      window.liveTest!.dispose();
    }, pipeline(recordsPerSource, interval));
    const cdp = await session.page.context().newCDPSession(session.page);
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReturnAsStream' });
    const wall = await session.page.evaluate(
      async ({ s, total, ceiling }) => {
        if (ceiling) return (await window.liveTest!.channelCeiling({ records: total, batch: 327 })).seconds * 1000;
        const began = performance.now();
        await window.liveTest!.start(s);
        await window.liveDriver!.whenTerminal();
        const ms = performance.now() - began;
        window.liveTest!.dispose();
        return ms;
      },
      { s: pipeline(recordsPerSource, interval), total: recordsPerSource * 4, ceiling },
    );
    const events = await readTrace(cdp);
    // LIVE_PROFILE_TRACE=file.json keeps the trace, for a closer look in chrome://tracing or a script.
    if (process.env.LIVE_PROFILE_TRACE) writeFileSync(process.env.LIVE_PROFILE_TRACE, JSON.stringify(events));
    console.log(`${ceiling ? 'ceiling' : `pipeline${interval ? `, checkpoints every ${interval}` : ''}`}: ${recordsPerSource * 4} records in ${Math.round(wall)} ms (traced)`);
    for (const t of threadProfiles(events)) {
      console.log(`\n${t.thread}: busy ${t.busyMs} ms, GC ${t.gcMs} ms`);
      for (const [where, ms] of t.top) console.log(`  ${String(ms).padStart(6)} ms  ${where}`);
    }
  } finally {
    await session.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
