/**
 * Where a live restore's time goes, phase by phase and thread by thread: one restore after a kill
 * from the hosts' local copies and one from remote storage (the live-restore bench's scenario), each
 * under a Chromium trace of the User Timing measures the TaskManagers take of their reads
 * (workers/restore-phase-measures.ts: the host disk's read, the checksum, the decode, the
 * remote read with its modelled cost). It explains the `restore` figures of `npm run bench`; it is
 * not one of them.
 *
 *   flock /tmp/chromium.lock npx tsx tests/bench/restore-profile.ts [MB, default 100] [hashmap | rocksdb-incremental]
 *
 * rocksdb-incremental also shows the working database's load and open, and each backend's restore.
 */
import { openBrowserSession } from '../browser/browser-session.ts';
import { readTrace, type TraceEvent } from './chromium-trace.ts';
import { openLiveTestPage, restoreAfterKill } from './live-restore.ts';

const BYTES_PER_KEY = 26;

interface Phase {
  thread: string;
  name: string;
  startMs: number;
  ms: number;
}

/** The `restore: …` measures in the trace, each with its thread, from the first one's start. */
function restorePhases(events: TraceEvent[]): Phase[] {
  const threads = new Map<string, string>();
  for (const e of events) if (e.name === 'thread_name' && e.args?.name) threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const begun = new Map<string, TraceEvent>();
  const phases: Phase[] = [];
  for (const e of events.filter((e) => e.name.startsWith('restore: ')).sort((a, b) => a.ts - b.ts)) {
    const key = `${e.pid}:${e.tid}:${e.id ?? ''}:${e.name}`;
    if (e.ph === 'b') begun.set(key, e);
    else if (e.ph === 'e' && begun.has(key)) {
      const b = begun.get(key)!;
      begun.delete(key);
      phases.push({ thread: threads.get(`${b.pid}:${b.tid}`) ?? `${b.pid}:${b.tid}`, name: e.name.slice('restore: '.length), startMs: b.ts / 1000, ms: (e.ts - b.ts) / 1000 });
    }
  }
  const first = Math.min(...phases.map((p) => p.startMs));
  return phases.map((p) => ({ ...p, startMs: p.startMs - first })).sort((a, b) => a.startMs - b.startMs);
}

async function main(): Promise<void> {
  const mb = Number(process.argv[2] ?? 100);
  const keys = Math.round((mb * 1024 * 1024) / BYTES_PER_KEY);
  const backend = process.argv[3] === 'rocksdb-incremental' ? 'rocksdb-incremental' : 'hashmap';
  const session = await openBrowserSession();
  try {
    await openLiveTestPage(session);
    for (const local of [true, false]) {
      const cdp = await session.page.context().newCDPSession(session.page);
      await cdp.send('Tracing.start', { categories: 'blink.user_timing', transferMode: 'ReturnAsStream' });
      // rocksdb: its state size counts SST runs, so the run waits for checkpoints, as the bench does
      const run = await restoreAfterKill(session, keys, local, backend, backend === 'hashmap' ? 0 : 4);
      const phases = restorePhases(await readTrace(cdp));
      await cdp.detach();
      console.log(`\n${mb} MB, ${local ? 'local' : 'remote'}: slowest keyed subtask ${Math.round(run.restoreMs)} ms, its keyed handle's read ${Math.round(run.keyedHandleReadMs)} ms (sources: ${run.sources.join(', ')})`);
      for (const p of phases) console.log(`  ${p.startMs.toFixed(1).padStart(8)} +${p.ms.toFixed(1).padStart(7)} ms  ${p.thread.padEnd(22)} ${p.name}`);
    }
  } finally {
    await session.close();
  }
}

await main();
