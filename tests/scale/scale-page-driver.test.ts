/**
 * A scale scenario on the playground page: the worker's session (workers/scale-run-session.ts) and
 * the page's driver (ScalePageDriver), wired by hand in Node with a wall clock the test moves.
 * The page must read the same run the CLI reports (engine/run/run-report.ts), streamed as the job
 * clock moves with wall time × speed, with vertices and their parallelism instead of channels.
 */
import { describe, expect, it } from 'vitest';
import { ScaleRuntime } from '../../engine/scale/scale-runtime.ts';
import { runReport } from '../../engine/run/run-report.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { ScalePageDriver, type ScaleRunEndpoint } from '../../web/playground/drivers/scale-page-driver.ts';
import type { ScaleRunReply, ScaleRunRequest } from '../../workers/scale-run-protocol.ts';
import { ScaleRunSession } from '../../workers/scale-run-session.ts';
import { scaleScenario } from './scale-scenarios.ts';

const MINUTE = 60_000;

/** 40 subtasks per vertex on 4 hosts; a TaskManager killed at 3 min, a host lost at 6 min, 10 min of job time. */
function smallScaleJob(): Scenario {
  return scaleScenario({
    parallelism: 40,
    hosts: 4,
    ratePerSubtask: 1000,
    countCostUs: 250,
    scale: { state_size: '40 gb', state_growth_per_s: '1 mb', state_churn_per_s: '20 mb', host_bandwidth_mb_per_s: 1250, remote_store_bandwidth_mb_per_s: 2000 },
    faults: [
      { at: '3 min', type: 'kill-task-manager', task_manager: 'tm-1' },
      { at: '6 min', type: 'lose-host', host: 'host-2' },
    ],
    until: '10 min',
  });
}

/** A worker in the same thread: messages are cloned as postMessage clones them; `later` waits until the test pumps. */
class InThreadWorker implements ScaleRunEndpoint {
  onmessage: ((event: { data: ScaleRunReply }) => void) | null = null;
  wall = 0;
  readonly replies: ScaleRunReply[] = [];
  readonly #due: Array<() => void> = [];
  readonly session = new ScaleRunSession(
    (reply) => {
      const data = structuredClone(reply);
      this.replies.push(data);
      this.onmessage?.({ data });
    },
    { now: () => this.wall, later: (next) => void this.#due.push(next) },
  );
  terminated = false;

  postMessage(request: ScaleRunRequest): void {
    this.session.handle(structuredClone(request));
  }

  terminate(): void {
    this.terminated = true;
  }

  /** Moves the wall clock by `stepMs` before each due slice, until nothing is due (the run ended, or its clock is held). */
  pump(stepMs: number): void {
    for (let next = this.#due.shift(); next; next = this.#due.shift()) {
      this.wall += stepMs;
      next();
    }
  }

  /** Runs the slices due now, without moving the wall clock (the slices they schedule wait). */
  pumpOnce(): void {
    for (const next of this.#due.splice(0)) next();
  }
}

describe('a scale scenario on the page', () => {
  it('streams the run the CLI reports: the same checkpoints, restores and job status', async () => {
    const worker = new InThreadWorker();
    const driver = await ScalePageDriver.start(smallScaleJob(), { speed: 600, paused: false }, worker);
    worker.pump(100); // 100 wall ms × 600 = a minute of job time per slice

    const cli = new ScaleRuntime(smallScaleJob());
    cli.runToEnd();
    const expected = runReport(cli, { duplicates: 0, missing: 0 });
    const stats = driver.stats();
    expect(stats.scenario.virtual_time_ms).toBe(10 * MINUTE);
    expect(stats.checkpoints.counts).toEqual((expected.checkpoints as typeof stats.checkpoints).counts);
    expect(stats.checkpoints.counts.completed).toBeGreaterThanOrEqual(8);
    expect(stats.restores).toEqual(expected.restores);
    // every job event, a restore's with its 120 subtasks (sent once, with the restore)
    expect(driver.events).toEqual(cli.events);
    expect(stats.job).toEqual(expected.job);
    expect(driver.isTerminal || driver.now >= 10 * MINUTE).toBe(true);
    // each operator's Min/Avg/Max over its subtasks, as the CLI's runtime computes it, without the 40 rows
    const latest = stats.checkpoints.latest.completed!.id;
    const summary = driver.taskCheckpointStatistics(latest, 'count');
    expect(summary?.summary).toEqual(cli.coordinator.stats.taskCheckpointStatistics(latest, 'count')?.summary);
    expect(summary?.num_subtasks).toBe(40);
    expect(summary?.subtasks).toEqual([]);
    expect(worker.session.ended).toBe(true);
  });

  it('moves the job clock with wall time × speed, and holds it at speed 0', async () => {
    const worker = new InThreadWorker();
    const driver = await ScalePageDriver.start(smallScaleJob(), { speed: 10, paused: true }, worker);
    worker.pump(1000);
    expect(driver.now).toBe(0);
    driver.run(60); // a minute of job time per wall second
    worker.wall += 1000;
    worker.pumpOnce();
    expect(driver.now).toBe(MINUTE);
    driver.hold();
    worker.wall += 5000;
    worker.pump(1000);
    expect(driver.now).toBe(MINUTE);
  });

  it('shows vertices with their parallelism and where each subtask runs, without a million channels', async () => {
    const driver = await ScalePageDriver.start(smallScaleJob(), { speed: 1, paused: true }, new InThreadWorker());
    const topology = driver.topology();
    expect(topology.vertices.map((v) => [v.id, v.parallelism])).toEqual([['events', 40], ['count', 40], ['sink', 40]]);
    expect(topology.subtasks).toHaveLength(120);
    expect(topology.channels).toEqual([]);
    expect(driver.output().totalRecords).toBe(0);
  });

  it('sends where subtasks run again only when a restart moved them', async () => {
    const worker = new InThreadWorker();
    await ScalePageDriver.start(smallScaleJob(), { speed: 600, paused: false }, worker);
    worker.pump(100);
    const progress = worker.replies.filter((r) => r.type === 'progress').length;
    const placements = worker.replies.filter((r) => r.type === 'placement').length;
    expect(progress).toBeGreaterThan(placements);
    expect(placements).toBe(3); // the start, and after each of the two restarts
    expect(worker.replies.filter((r) => r.type === 'restored').length).toBe(2);
  });

  it('answers an operation with the JobMaster\'s refusal, or carries it out and reports what followed', async () => {
    const worker = new InThreadWorker();
    const driver = await ScalePageDriver.start(smallScaleJob(), { speed: 600, paused: true }, worker);
    expect(await driver.perform({ type: 'kill-task-manager', task_manager: 'tm-99' })).toMatchObject({ code: expect.any(String) });
    driver.run(600);
    worker.wall += 200; // two minutes of job time: a checkpoint completed
    worker.pumpOnce();
    driver.hold();
    expect(await driver.perform({ type: 'kill-task-manager', task_manager: 'tm-0' })).toBeUndefined();
    expect(driver.events.some((e) => e.type === 'fault' && e.time === 2 * MINUTE)).toBe(true);
    driver.run(600);
    worker.pump(100);
    // the page's kill, then the scenario's kill and host loss
    expect(driver.restores.map((r) => r.time >= 2 * MINUTE && r.time < 3 * MINUTE)).toEqual([true, false, false]);
    expect(driver.expectationInputs().restoredSubtasks.length).toBe(driver.restores.reduce((n, r) => n + r.subtasks.length, 0));
  });

  it('restores from local copies after the TaskManager kill and from remote storage after the host loss', async () => {
    const worker = new InThreadWorker();
    const driver = await ScalePageDriver.start(smallScaleJob(), { speed: 600, paused: false }, worker);
    worker.pump(100);
    const [kill, loss] = driver.restores;
    expect(kill!.subtasks.some((s) => s.source === 'local')).toBe(true);
    expect(loss!.subtasks.some((s) => s.source === 'remote')).toBe(true);
  });

  it('ends the worker when the page replaces the run', async () => {
    const worker = new InThreadWorker();
    const driver = await ScalePageDriver.start(smallScaleJob(), { speed: 1, paused: true }, worker);
    driver.dispose();
    expect(worker.terminated).toBe(true);
  });
});
