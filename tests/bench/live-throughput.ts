/**
 * Live runtime throughput in headless Chromium, as ratios measured side by side on one page:
 * - the 3-vertex keyed pipeline (source → keyBy count → sink, parallelism 4) on 4 TaskManager
 *   workers against the raw MessageChannel ceiling between two bare workers, with the same batch
 *   size (the records of one network buffer);
 * - the same pipeline with a checkpoint every second against none.
 * ROUNDS rounds, each running the three back to back, so all see the same machine state; the
 * figures are medians, the ratios the medians of the rounds' ratios. Never asserted on.
 *
 * The pipeline's operators cost nothing in job time here (`record_cost_us: 0`): the figure is what
 * the runtime itself moves (scheduling, channels, serialization, the sink's writes to the main
 * thread's SinkOutputLog), not the sim's cost model.
 *
 *   npx tsx -e "import('./tests/bench/live-throughput.ts').then(async (m) => console.log(await m.benchLiveThroughput()))"
 */
import { openBrowserSession, type BrowserSession } from '../browser/browser-session.ts';
import { addPageScript, longTasksSince, observeLongTasks } from './built-app.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { median, medianRatio } from './median.ts';

const PARALLELISM = 4;
const RECORDS_PER_SOURCE = 500_000;
const ROUNDS = 5;
/** taskmanager.memory.segment-size (32 kb) / record_size_bytes (100): records per network buffer */
const RECORDS_PER_BUFFER = Math.floor(32 * 1024 / 100);

function pipeline(checkpointInterval: string | undefined): object {
  return {
    version: 1,
    name: `live bench${checkpointInterval ? `, checkpoints every ${checkpointInterval}` : ''}`,
    seed: 1,
    job: {
      vertices: [
        { id: 'source', type: 'source', record_cost_us: 0, source: { kind: 'sequence', keys: 1000, rate_per_s: 1e9, count: RECORDS_PER_SOURCE } },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: 0 },
        { id: 'sink', type: 'sink', sink: 'plain', record_cost_us: 0 },
      ],
      edges: [
        { from: 'source', to: 'count', partitioning: 'hash' },
        { from: 'count', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: { 'parallelism.default': PARALLELISM, ...(checkpointInterval ? { 'execution.checkpointing.interval': checkpointInterval } : {}) },
    cluster: { hosts: 1, task_managers_per_host: PARALLELISM, slots_per_task_manager: 1 },
  };
}

interface PipelineRun {
  recordsPerSecond: number;
  seconds: number;
  checkpoints: number;
  sinkRecords: number;
  /** main-thread tasks over 50 ms during the run, [start, duration] */
  longTasks: Array<[number, number]>;
}

async function runPipeline(session: BrowserSession, scenario: object): Promise<PipelineRun> {
  const run = await session.page.evaluate(async (s) => {
    const startedAt = performance.now();
    const api = window.liveTest!;
    await api.start(s);
    const driver = window.liveDriver!;
    const status = await driver.whenTerminal();
    const finished = driver.events.find((e) => e.type === 'job-status' && e.status === 'FINISHED');
    if (status !== 'FINISHED' || !finished) throw new Error(`the bench job ended ${status}: ${driver.failureCause ?? 'no cause'}`);
    const seconds = finished.time / 1000;
    const sinkRecords = driver.sinkOutput.totalRecords;
    const checkpoints = driver.coordinator.stats.checkpointingStatistics().counts.completed;
    api.dispose();
    return { recordsPerSecond: Math.round(sinkRecords / seconds), seconds, checkpoints, sinkRecords, startedAt, endedAt: performance.now() };
  }, scenario);
  const longTasks = (await longTasksSince(session.page, run.startedAt)).filter(([start]) => start <= run.endedAt);
  return { recordsPerSecond: run.recordsPerSecond, seconds: run.seconds, checkpoints: run.checkpoints, sinkRecords: run.sinkRecords, longTasks };
}

export async function benchLiveThroughput(): Promise<BenchFigure[]> {
  const session = await openBrowserSession();
  try {
    await addPageScript(session.page, observeLongTasks);
    await session.page.goto(`${session.baseUrl}/live/live-test.html`);
    await session.page.waitForFunction(() => window.liveTest !== undefined);
    const total = RECORDS_PER_SOURCE * PARALLELISM;
    const ceiling: number[] = [];
    const off: PipelineRun[] = [];
    const on: PipelineRun[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const raw = await session.page.evaluate((o) => window.liveTest!.channelCeiling(o), { records: total, batch: RECORDS_PER_BUFFER });
      ceiling.push(raw.recordsPerSecond);
      off.push(await runPipeline(session, pipeline(undefined)));
      on.push(await runPipeline(session, pipeline('1 s')));
    }
    if (session.errors.length > 0) throw new Error(`the bench page logged errors: ${session.errors.join('\n')}`);
    const pipelineNote = `source→keyBy count→sink, p=${PARALLELISM} on ${PARALLELISM} TaskManager workers, ${total} records`;
    const rate = (runs: PipelineRun[]) => runs.map((r) => r.recordsPerSecond);
    const longTasks = (runs: PipelineRun[]) => runs.map((r) => r.longTasks.length);
    const repetitions = ROUNDS;
    return [
      { figure: 'live.records_per_s', value: Math.round(median(rate(off))), unit: 'records/s', repetitions, pipeline: pipelineNote, seconds: round3(median(off.map((r) => r.seconds))) },
      { figure: 'raw_message_channel.records_per_s', value: Math.round(median(ceiling)), unit: 'records/s', repetitions, note: `worker→worker MessageChannel, batches of ${RECORDS_PER_BUFFER} records, no flow control` },
      { figure: 'live_vs_raw_channel.ratio', value: round3(medianRatio(rate(off), ceiling)), unit: 'ratio', repetitions, note: "median of the rounds' ratios" },
      { figure: 'live_with_checkpoints_1s.records_per_s', value: Math.round(median(rate(on))), unit: 'records/s', repetitions, checkpoints: median(on.map((r) => r.checkpoints)), seconds: round3(median(on.map((r) => r.seconds))) },
      { figure: 'live_checkpoints_vs_none.ratio', value: round3(medianRatio(rate(on), rate(off))), unit: 'ratio', repetitions, note: "median of the rounds' ratios" },
      {
        figure: 'long_tasks.live_full_speed',
        value: median(longTasks(off)),
        unit: 'tasks > 50 ms',
        repetitions,
        longest_ms: Math.round(Math.max(0, ...off.flatMap((r) => r.longTasks.map(([, d]) => d)))),
        with_checkpoints: median(longTasks(on)),
        aim: 0,
        note: 'main thread of live-test.html (JobManager, SinkOutputLog) during the runs above (the bench page: no UI draws meanwhile)',
      },
    ];
  } finally {
    await session.close();
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
