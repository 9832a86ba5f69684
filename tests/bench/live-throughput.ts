/**
 * Live runtime throughput in headless Chromium, as ratios measured side by side on one page:
 * - the 3-vertex keyed pipeline (source → keyBy count → sink, parallelism 4) on 4 TaskManager
 *   workers against the raw MessageChannel ceiling between two bare workers, with the same batch
 *   size (the records of one network buffer): `live_vs_raw_channel.ratio`, issue 16's aim;
 * - the same pipeline against raw MessageChannels along the job's own paths
 *   (`live_vs_raw_job_paths.ratio`, informational): 4 bare workers send the same records, as
 *   structured-cloned objects in batches of the same size, across the same thread boundaries
 *   (each record to the worker of its key, 3/4 of them to another worker, then every record to
 *   the main thread, where the live sink's external system is), with no engine and no flow
 *   control. One hop moves each record across one boundary on two threads; the job moves it
 *   across 1.75 on average, on five threads sharing the same cores. Both ceilings clone objects,
 *   where the live data plane transfers columns (network-buffer-columns.ts);
 * - the same pipeline with a checkpoint every second against none, each as records ÷ the job time
 *   until the sink had every record. Until FINISHED would not compare like with like: with
 *   checkpointing on, a bounded job's tasks then wait for their final checkpoint (FLIP-147,
 *   `checkpoints-after-tasks-finish`), which comes with the next periodic trigger, up to a whole
 *   interval later; without it they finish at once. That wait is reported beside the figure
 *   (`final_checkpoint_wait_ms`), and the ratio until FINISHED too (`until_finished_ratio`).
 *   These two runs are three times longer than the first comparison's (see
 *   CHECKPOINTED_RECORDS_PER_SOURCE), and take turns going first.
 * ROUNDS rounds, each running the four back to back, so all see the same machine state; the
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
const KEYS = 1000;
const RECORDS_PER_SOURCE = 500_000;
/**
 * The runs with and without checkpoints are longer: at full speed 500,000 per source take about
 * 1.3 s, in which the first checkpoint (the slowest: the first uploads, the code's first runs in
 * every worker) would be the only one, so the figure would be that one checkpoint's cost rather
 * than checkpointing every second.
 */
const CHECKPOINTED_RECORDS_PER_SOURCE = 1_500_000;
/** Seven: with five, the checkpoints ÷ none median moved between 0.87 and 0.99 from one bench run to the next. */
const ROUNDS = 7;
/** taskmanager.memory.segment-size (32 kb) / record_size_bytes (100): records per network buffer */
const RECORDS_PER_BUFFER = Math.floor(32 * 1024 / 100);

function pipeline(checkpointInterval: string | undefined, recordsPerSource = RECORDS_PER_SOURCE): object {
  return {
    version: 1,
    name: `live bench${checkpointInterval ? `, checkpoints every ${checkpointInterval}` : ''}`,
    seed: 1,
    job: {
      vertices: [
        { id: 'source', type: 'source', record_cost_us: 0, source: { kind: 'sequence', keys: KEYS, rate_per_s: 1e9, count: recordsPerSource } },
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
  /** sink records ÷ job time until FINISHED */
  recordsPerSecond: number;
  /** sink records ÷ job time until the sink had every record (the steady processing rate, without the end) */
  processedPerSecond: number;
  seconds: number;
  /** job time from the sink's last record to FINISHED: with checkpoints, the wait for the final checkpoint */
  finishWaitMs: number;
  checkpoints: number;
  /** checkpoints triggered before the sink had every record: those the steady rate ran beside */
  triggeredWhileProcessing: number;
  /** the median over completed checkpoints of the slowest subtask's end-to-end, alignment, start delay and async ms; the first checkpoint's end-to-end apart */
  checkpointPhasesMs: { endToEnd: number; firstEndToEnd: number; alignment: number; startDelay: number; async: number };
  sinkRecords: number;
  /** main-thread tasks over 50 ms during the run, [start, duration] */
  longTasks: Array<[number, number]>;
}

async function runPipeline(session: BrowserSession, scenario: object, expectedRecords: number): Promise<PipelineRun> {
  const run = await session.page.evaluate(
    async ({ s, expected }) => {
      const startedAt = performance.now();
      const api = window.liveTest!;
      await api.start(s);
      const driver = window.liveDriver!;
      // The job time the sink's external system held every record: the moment all input was processed.
      let processedAt = Infinity;
      const sink = driver.sinkOutput;
      const write = sink.writeColumns.bind(sink);
      sink.writeColumns = (...batch) => {
        write(...batch);
        if (sink.totalRecords >= expected && processedAt === Infinity) processedAt = driver.now;
      };
      const status = await driver.whenTerminal();
      const finished = driver.events.find((e) => e.type === 'job-status' && e.status === 'FINISHED');
      if (status !== 'FINISHED' || !finished) throw new Error(`the bench job ended ${status}: ${driver.failureCause ?? 'no cause'}`);
      const sinkRecords = sink.totalRecords;
      if (sinkRecords !== expected || processedAt === Infinity) throw new Error(`the bench job wrote ${sinkRecords} records, not ${expected}`);
      const stats = driver.coordinator.stats;
      const phases = Object.keys(stats.allCheckpointDetails()).flatMap((id) => {
        const tasks = ['source', 'count', 'sink'].map((vertex) => stats.taskCheckpointStatistics(Number(id), vertex)?.summary);
        if (tasks.some((t) => t === undefined)) return [];
        const max = (pick: (t: NonNullable<(typeof tasks)[number]>) => { max: number }) => Math.max(...tasks.map((t) => pick(t!).max));
        return [{ endToEnd: max((t) => t.end_to_end_duration), alignment: max((t) => t.alignment.duration), startDelay: max((t) => t.start_delay), async: max((t) => t.checkpoint_duration.async) }];
      });
      const checkpoints = stats.checkpointingStatistics().counts.completed;
      const triggeredWhileProcessing = Object.values(stats.allCheckpointDetails()).filter((c) => c.trigger_timestamp < processedAt).length;
      api.dispose();
      const seconds = finished.time / 1000;
      return {
        recordsPerSecond: Math.round(sinkRecords / seconds),
        processedPerSecond: Math.round(sinkRecords / (processedAt / 1000)),
        seconds,
        finishWaitMs: Math.round(finished.time - processedAt),
        checkpoints,
        triggeredWhileProcessing,
        phases,
        sinkRecords,
        startedAt,
        endedAt: performance.now(),
      };
    },
    { s: scenario, expected: expectedRecords },
  );
  const longTasks = (await longTasksSince(session.page, run.startedAt)).filter(([start]) => start <= run.endedAt);
  const phase = (pick: (p: (typeof run.phases)[number]) => number) => Math.round(median(run.phases.map(pick)));
  const checkpointPhasesMs = run.phases.length === 0
    ? { endToEnd: 0, firstEndToEnd: 0, alignment: 0, startDelay: 0, async: 0 }
    : { endToEnd: phase((p) => p.endToEnd), firstEndToEnd: Math.round(run.phases[0]!.endToEnd), alignment: phase((p) => p.alignment), startDelay: phase((p) => p.startDelay), async: phase((p) => p.async) };
  return { ...run, checkpointPhasesMs, longTasks };
}

export async function benchLiveThroughput(): Promise<BenchFigure[]> {
  const session = await openBrowserSession();
  try {
    await addPageScript(session.page, observeLongTasks);
    await session.page.goto(`${session.baseUrl}/live/live-test.html`);
    await session.page.waitForFunction(() => window.liveTest !== undefined);
    const total = RECORDS_PER_SOURCE * PARALLELISM;
    const oneHop: number[] = [];
    const jobPaths: number[] = [];
    const pipelineOnly: PipelineRun[] = [];
    const off: PipelineRun[] = [];
    const on: PipelineRun[] = [];
    const checkpointedTotal = CHECKPOINTED_RECORDS_PER_SOURCE * PARALLELISM;
    for (let round = 0; round < ROUNDS; round++) {
      const raw = await session.page.evaluate((o) => window.liveTest!.channelCeiling(o), { records: total, batch: RECORDS_PER_BUFFER });
      oneHop.push(raw.recordsPerSecond);
      const paths = await session.page.evaluate((o) => window.liveTest!.jobPathCeiling(o), { records: total, batch: RECORDS_PER_BUFFER, keys: KEYS, parallelism: PARALLELISM });
      jobPaths.push(paths.recordsPerSecond);
      pipelineOnly.push(await runPipeline(session, pipeline(undefined), total));
      // Each side goes first in every other round: whatever the previous run leaves (garbage, a
      // warm JIT, the ceiling's workers) weighs on both alike.
      const sides = [
        async () => off.push(await runPipeline(session, pipeline(undefined, CHECKPOINTED_RECORDS_PER_SOURCE), checkpointedTotal)),
        async () => on.push(await runPipeline(session, pipeline('1 s', CHECKPOINTED_RECORDS_PER_SOURCE), checkpointedTotal)),
      ];
      for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
    }
    if (session.errors.length > 0) throw new Error(`the bench page logged errors: ${session.errors.join('\n')}`);
    const pipelineNote = `source→keyBy count→sink, p=${PARALLELISM} on ${PARALLELISM} TaskManager workers, ${total} records`;
    const rate = (runs: PipelineRun[]) => runs.map((r) => r.recordsPerSecond);
    const processed = (runs: PipelineRun[]) => runs.map((r) => r.processedPerSecond);
    const longTasks = (runs: PipelineRun[]) => runs.map((r) => r.longTasks.length);
    const repetitions = ROUNDS;
    return [
      { figure: 'live.records_per_s', value: Math.round(median(rate(pipelineOnly))), unit: 'records/s', repetitions, pipeline: pipelineNote, seconds: round3(median(pipelineOnly.map((r) => r.seconds))) },
      { figure: 'raw_message_channel.records_per_s', value: Math.round(median(oneHop)), unit: 'records/s', repetitions, note: `one hop: worker→worker MessageChannel, batches of ${RECORDS_PER_BUFFER} records, no flow control` },
      { figure: 'live_vs_raw_channel.ratio', value: round3(medianRatio(rate(pipelineOnly), oneHop)), unit: 'ratio', repetitions, note: "against one worker→worker hop; median of the rounds' ratios" },
      {
        figure: 'raw_message_channel_job_paths.records_per_s',
        value: Math.round(median(jobPaths)),
        unit: 'records/s',
        repetitions,
        note: `the job's paths: ${PARALLELISM} workers, each record to its key's worker (3/4 cross), then all to the main thread; objects in batches of ${RECORDS_PER_BUFFER} records, no flow control`,
      },
      { figure: 'live_vs_raw_job_paths.ratio', value: round3(medianRatio(rate(pipelineOnly), jobPaths)), unit: 'ratio', repetitions, note: "against raw channels along the job's paths (objects, where the live data plane transfers columns); informational; median of the rounds' ratios" },
      {
        figure: 'live_with_checkpoints_1s.records_per_s',
        value: Math.round(median(processed(on))),
        unit: 'records/s',
        repetitions,
        without_checkpoints: Math.round(median(processed(off))),
        checkpoints: median(on.map((r) => r.checkpoints)),
        checkpoints_while_processing: median(on.map((r) => r.triggeredWhileProcessing)),
        seconds: round3(median(on.map((r) => r.seconds))),
        final_checkpoint_wait_ms: median(on.map((r) => r.finishWaitMs)),
        checkpoint_ms: {
          end_to_end: median(on.map((r) => r.checkpointPhasesMs.endToEnd)),
          first_end_to_end: median(on.map((r) => r.checkpointPhasesMs.firstEndToEnd)),
          alignment: median(on.map((r) => r.checkpointPhasesMs.alignment)),
          start_delay: median(on.map((r) => r.checkpointPhasesMs.startDelay)),
          async: median(on.map((r) => r.checkpointPhasesMs.async)),
        },
        records: checkpointedTotal,
        note: `${checkpointedTotal} records ÷ job time until the sink had them all, on both sides`,
      },
      {
        figure: 'live_checkpoints_vs_none.ratio',
        value: round3(medianRatio(processed(on), processed(off))),
        unit: 'ratio',
        repetitions,
        until_finished_ratio: round3(medianRatio(rate(on), rate(off))),
        note: "median of the rounds' ratios of records ÷ job time until the sink had them all; until_finished_ratio also counts the wait for the final checkpoint, which only the run with checkpoints has",
      },
      {
        figure: 'long_tasks.live_full_speed',
        value: median(longTasks(pipelineOnly)),
        unit: 'tasks > 50 ms',
        repetitions,
        longest_ms: Math.round(Math.max(0, ...pipelineOnly.flatMap((r) => r.longTasks.map(([, d]) => d)))),
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
