/**
 * The aims the issues hold the project's speed to, each read off one figure of `npm run bench`
 * (its value, or one of its fields). The report says, per aim, whether this run met it; a figure
 * the run did not measure is "not measured", never met.
 */
export interface BenchAim {
  /** what is aimed at, in a reader's words */
  what: string;
  /** the figure it is read off: its exact name */
  figure: string;
  /** the figure's field that holds the number (default: its value) */
  field?: string;
  /** `>=`: at least the target; `<=`: at most */
  op: '>=' | '<=';
  target: number;
  /** the issue the aim comes from; none for an aim a bench states itself */
  issue?: number;
}

/** The live restore figures: the bench's restart delay is 0, so kill→RUNNING beyond the restore is the aim's "+ 1 s". */
const killToRunning = (mb: number, source: 'local' | 'remote'): BenchAim => ({
  what: `live kill → RUNNING at most restart delay + restore + 1 s (${mb} MB, ${source} restore)`,
  figure: `live_restore_${mb}mb.${source}_ms`,
  field: 'kill_to_running_beyond_restore_ms',
  op: '<=',
  target: 1000,
  issue: 11,
});

export const BENCH_AIMS: readonly BenchAim[] = [
  { what: 'sim throughput ÷ bare array loop', figure: 'sim_vs_bare_loop.ratio', op: '>=', target: 0.6, issue: 16 },
  { what: 'sim throughput with checkpoints every 100 ms ÷ without', figure: 'sim_checkpoints_vs_none.ratio', op: '>=', target: 0.9, issue: 16 },
  { what: 'live throughput ÷ raw MessageChannel ceiling', figure: 'live_vs_raw_channel.ratio', op: '>=', target: 0.7, issue: 16 },
  { what: 'live throughput with checkpoints every 1 s ÷ without', figure: 'live_checkpoints_vs_none.ratio', op: '>=', target: 0.95, issue: 16 },
  { what: 'main-thread tasks over 50 ms at start-up', figure: 'startup.long_tasks', op: '<=', target: 0, issue: 16 },
  { what: 'main-thread tasks over 50 ms at full speed (live)', figure: 'long_tasks.live_full_speed', op: '<=', target: 0, issue: 16 },
  { what: 'main-thread tasks over 50 ms at full speed (sim, click-counts)', figure: 'long_tasks.sim_full_speed.click-counts', op: '<=', target: 0, issue: 16 },
  { what: 'main-thread tasks over 50 ms at full speed (sim, local-recovery)', figure: 'long_tasks.sim_full_speed.local-recovery', op: '<=', target: 0, issue: 16 },
  { what: 'initial bundle, gzip', figure: 'bundle.initial_kb', field: 'gzip_kb', op: '<=', target: 200, issue: 16 },
  { what: 'first completed checkpoint after load, ms', figure: 'startup.first_checkpoint_ms', op: '<=', target: 1000, issue: 12 },
  killToRunning(10, 'local'),
  killToRunning(10, 'remote'),
  killToRunning(100, 'local'),
  killToRunning(100, 'remote'),
  { what: 'live restore local ÷ remote at 100 MB', figure: 'live_restore_100mb.local_vs_remote.ratio', op: '<=', target: 0.1, issue: 13 },
  { what: 'live local restore of 100 MB, ms', figure: 'live_restore_100mb.local_ms', op: '<=', target: 1000, issue: 13 },
  { what: 'remote MiB read by a fully local restore (sim)', figure: 'restore_fully_local.remote_mb', op: '<=', target: 0, issue: 13 },
  { what: 'remote bytes of a half-local restore ÷ a fully remote one (sim)', figure: 'restore_half_local_vs_remote.remote_bytes_ratio', op: '<=', target: 0.55, issue: 13 },
  { what: 'scale runtime: 1 h of parallelism 1,000, 1 TB, kill and host loss, wall s (Node)', figure: 'scale_hour_p1000_1tb.wall_s', op: '<=', target: 10, issue: 15 },
  { what: 'scale runtime: 1 h of parallelism 1,000, 1 TB, kill and host loss, wall s (a worker in Chromium)', figure: 'scale_hour_p1000_1tb_browser.wall_s', op: '<=', target: 10, issue: 15 },
  { what: 'scale runtime in Chromium: main-thread tasks over 50 ms while its worker runs the hour', figure: 'scale_hour_p1000_1tb_browser.long_tasks', op: '<=', target: 0, issue: 15 },
  { what: 'a scale run on the playground page: main-thread tasks over 50 ms while it runs past the host loss', figure: 'scale_page_run.long_tasks', op: '<=', target: 0, issue: 15 },
  { what: 'scale runtime: wall time per subtask at parallelism 10,000 ÷ at 1,000 (no worse than linear)', figure: 'scale_cost_per_subtask_p10000_vs_p1000.ratio', op: '<=', target: 1.2, issue: 15 },
];

/**
 * Aims a bench states on its figures (`aim: '>= 0.7'`, or `aim: 0` for a count that should be
 * none), for the figures no issue aim above is read off; an aim that is no comparison
 * ('informational') is none.
 */
export function statedAims(figures: readonly { figure: string; aim?: unknown }[], issueAims: readonly BenchAim[] = BENCH_AIMS): BenchAim[] {
  const covered = new Set(issueAims.map((a) => a.figure));
  return figures.flatMap((f): BenchAim[] => {
    if (covered.has(f.figure)) return [];
    const stated = typeof f.aim === 'number' ? { op: '<=' as const, target: f.aim } : typeof f.aim === 'string' ? parseAim(f.aim) : undefined;
    return stated ? [{ what: f.figure, figure: f.figure, ...stated }] : [];
  });
}

function parseAim(text: string): Pick<BenchAim, 'op' | 'target'> | undefined {
  const match = /^(>=|<=)\s*(-?\d+(?:\.\d+)?)$/.exec(text.trim());
  return match ? { op: match[1] as BenchAim['op'], target: Number(match[2]) } : undefined;
}
