/**
 * `window.playground` in real Chromium: load, run, pause, step, operations and their errors, the
 * stats() document (the CLI's --json shape, with Flink's REST documents inside), and on().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaygroundApi, PlaygroundEvent, PlaygroundStats } from '../../web/playground/api/playground-api-types.ts';
import { inPage } from './playground-in-page.ts';
import { animationFrames } from './animation-frames.ts';
import { openPlaygroundSession, type BrowserSession } from './browser-session.ts';
import { CHECKPOINTING_SCENARIO, CHECKPOINTING_SCENARIO_YAML } from './scenarios.ts';

declare global {
  interface Window {
    recordedEvents?: PlaygroundEvent[];
  }
}


/** The message a call rejects with, or 'resolved'. */
async function rejection<A>(session: BrowserSession, body: (api: PlaygroundApi, arg: A) => Promise<unknown>, arg: A): Promise<string> {
  return inPage(
    session,
    async (api, [source, argument]) => {
      const fn = new Function(`return (${source})`)() as (api: PlaygroundApi, arg: unknown) => Promise<unknown>;
      try {
        await fn(api, argument);
        return 'resolved';
      } catch (error) {
        return error instanceof Error ? `Error: ${error.message}` : `not an Error: ${String(error)}`;
      }
    },
    [body.toString(), arg] as const,
  );
}

describe('window.playground', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('loads a scenario object paused at time 0 and reports what it loaded', async () => {
    const result = await inPage(session, (api, scenario) => api.load(scenario), CHECKPOINTING_SCENARIO);
    expect(result).toEqual({ name: 'Checkpointed click counts', seed: 11, untilMs: 600_000, notes: [] });
    const status = await inPage(session, (api) => api.status(), null);
    expect(status).toMatchObject({ driver: 'sim', time: 0, jobStatus: 'RUNNING', running: false, scenario: { name: 'Checkpointed click counts', seed: 11 } });
  });

  it('rejects an invalid scenario with the field that is wrong, and keeps the loaded one', async () => {
    const broken = { ...CHECKPOINTING_SCENARIO, config: { 'execution.checkpointing.intervall': '1 s' } };
    const message = await rejection(session, (api, scenario) => api.load(scenario), broken);
    expect(message).toMatch(/^Error: The scenario is not valid/);
    expect(message).toContain('execution.checkpointing.intervall');
    expect(message).toContain('execution.checkpointing.interval');
    expect(await inPage(session, (api) => api.status().then((s) => s.scenario?.name), null)).toBe('Checkpointed click counts');
  });

  it('describes the topology: hosts, TaskManagers, slots and which subtask runs where', async () => {
    const topology = await inPage(session, (api) => api.topology(), null);
    expect(topology.hosts).toEqual(['host-0', 'host-1']);
    expect(topology.taskManagers.map((tm) => tm.id)).toEqual(['tm-0', 'tm-1', 'tm-2', 'tm-3']);
    expect(topology.vertices.map((v) => [v.id, v.parallelism])).toEqual([['clicks', 2], ['counts', 3], ['sink', 3]]);
    expect(topology.subtasks).toHaveLength(8);
    for (const subtask of topology.subtasks) {
      expect(topology.taskManagers.some((tm) => tm.id === subtask.taskManager && tm.host === subtask.host)).toBe(true);
      expect(subtask.slot.startsWith(`${subtask.taskManager}/`)).toBe(true);
    }
  });

  it('runs on start() and holds still on pause()', async () => {
    await inPage(session, (api) => api.setSpeed(20), null);
    await inPage(session, (api) => api.start(), null);
    await expect.poll(() => inPage(session, (api) => api.status().then((s) => s.time), null), { timeout: 10_000 }).toBeGreaterThan(2_500);
    await inPage(session, (api) => api.pause(), null);
    const paused = await inPage(session, (api) => api.status(), null);
    expect(paused.running).toBe(false);
    // Ten frames, in each of which a running sim would have advanced its clock.
    await animationFrames(session.page, 10);
    expect((await inPage(session, (api) => api.status(), null)).time).toBe(paused.time);
  });

  it('steps one event at a time', async () => {
    const before = await inPage(session, (api) => api.status().then((s) => s.time), null);
    const step = await inPage(session, (api) => api.step(), null);
    expect(step.handled).toBe(true);
    expect(step.time).toBeGreaterThanOrEqual(before);
  });

  it('answers stats() with the CLI --json document and Flink REST shapes', async () => {
    // The run before may have gone past 6 s on a busy machine (it polls while running at 20×):
    // run to the next whole second at or after 6 s.
    const now = await inPage(session, (api) => api.status().then((s) => s.time), null);
    const target = Math.max(6_000, (Math.floor(now / 1000) + 1) * 1000);
    await inPage(session, (api, until) => api.runUntil(until), target);
    const stats: PlaygroundStats = await inPage(session, (api) => api.stats(), null);
    expect(Object.keys(stats).sort()).toEqual(
      ['checkpointConfig', 'checkpointDetails', 'checkpoints', 'expectations', 'faults', 'job', 'metrics', 'output', 'restores', 'scenario'].sort(),
    );
    expect(stats.scenario).toMatchObject({ name: 'Checkpointed click counts', seed: 11, virtual_time_ms: target, until_ms: 600_000 });
    expect(Object.keys(stats.checkpoints).sort()).toEqual(['counts', 'history', 'latest', 'summary']);
    expect(stats.checkpoints.counts.completed).toBeGreaterThanOrEqual(3);
    expect(stats.checkpoints.latest.completed).toMatchObject({ className: 'completed', status: 'COMPLETED', is_savepoint: false });
    expect(Object.keys(stats.checkpoints.summary.end_to_end_duration).sort()).toEqual(['avg', 'max', 'min', 'p50', 'p90', 'p95', 'p99', 'p999']);
    expect(stats.checkpointConfig).toMatchObject({ mode: 'exactly_once', interval: 1_000, min_pause: 300, max_concurrent: 1 });
    const latestId = String(stats.checkpoints.latest.completed!.id);
    expect(Object.keys(stats.checkpointDetails[latestId]!.tasks).sort()).toEqual(['clicks', 'counts', 'sink']);
    expect(stats.output.totalRecords).toBeGreaterThan(0);
    expect(stats.output).toMatchObject({ duplicates: 0, missing: 0 });
    expect(Object.keys(stats.output.perKey).length).toBeGreaterThan(0);
    expect(stats.job).toEqual({ status: 'RUNNING', restarts: 0, failureCause: null });
    expect(stats.metrics.subtasks).toHaveLength(8);
    expect(stats.restores).toEqual([]);
  });

  it('kills a TaskManager: the job restarts, restores the latest checkpoint and runs again', async () => {
    const events = await inPage(
      session,
      async (api) => {
        const seen: string[] = [];
        const off = api.on('*', (event) => {
          if (event.type !== 'tick') seen.push(event.type === 'job-status' ? `job-status:${event.status}` : event.type);
        });
        // 3 s after the kill, wherever the runs before left the clock (a busy machine runs them further)
        const { time } = await api.status();
        await api.killTaskManager('tm-1');
        await api.runUntil(time + 3000);
        off();
        return seen;
      },
      null,
    );
    expect(events).toContain('fault');
    expect(events).toContain('task-failed');
    expect(events).toContain('job-status:RESTARTING');
    expect(events).toContain('restore');
    expect(events.lastIndexOf('job-status:RUNNING')).toBeGreaterThan(events.indexOf('job-status:RESTARTING'));
    const stats = await inPage(session, (api) => api.stats(), null);
    expect(stats.job).toMatchObject({ status: 'RUNNING', restarts: 1 });
    expect(stats.checkpoints.counts.restored).toBe(1);
    expect(stats.restores).toHaveLength(1);
    expect(stats.restores[0]!.checkpointId).toBe(stats.checkpoints.latest.restored!.id);
    // The two-phase-commit sink keeps exactly-once: nothing is written twice.
    expect(stats.output.duplicates).toBe(0);
    // The killed TaskManager restarted on its host with the same resource ID (its local disk survived).
    const topology = await inPage(session, (api) => api.topology(), null);
    expect(topology.taskManagers.find((tm) => tm.id === 'tm-1')?.host).toBe('host-0');
    expect(stats.restores[0]!.subtasks.every((s) => s.source === 'remote' || s.source === 'local')).toBe(true);
  });

  it('delivers one event type to on(type) and stops after unsubscribing', async () => {
    const counts = await inPage(
      session,
      async (api) => {
        const completed: number[] = [];
        const { time } = await api.status();
        const off = api.on('checkpoint-completed', (event) => completed.push(event.checkpointId));
        await api.runUntil(time + 3000);
        off();
        const whileSubscribed = completed.length;
        await api.runUntil(time + 5000);
        return { whileSubscribed, after: completed.length, increasing: completed.every((id, i) => i === 0 || id > completed[i - 1]!) };
      },
      null,
    );
    expect(counts.whileSubscribed).toBeGreaterThanOrEqual(2);
    expect(counts.after).toBe(counts.whileSubscribed);
    expect(counts.increasing).toBe(true);
  });

  it('triggers a savepoint and a checkpoint on request', async () => {
    const result = await inPage(
      session,
      async (api) => {
        const kinds: string[] = [];
        const off = api.on('checkpoint-completed', (event) => kinds.push(event.isSavepoint ? 'savepoint' : 'checkpoint'));
        const { time } = await api.status();
        await api.triggerSavepoint();
        await api.runUntil(time + 1000);
        off();
        return { kinds, stats: await api.stats() };
      },
      null,
    );
    expect(result.kinds).toContain('savepoint');
    expect(result.stats.checkpoints.latest.savepoint).toMatchObject({ is_savepoint: true, status: 'COMPLETED' });
    await expect(inPage(session, (api) => api.triggerCheckpoint(), null)).resolves.toBeUndefined();
  });

  it('rejects operations it cannot do with a clear Error', async () => {
    expect(await rejection(session, (api) => api.killTaskManager('tm-99'), null)).toMatch(/^Error: no TaskManager "tm-99"/);
    expect(await rejection(session, (api) => api.loseHost('host-7'), null)).toMatch(/^Error: no host "host-7"/);
    expect(await rejection(session, (api) => api.failTask('nope', 0), null)).toMatch(/^Error: no subtask nope#0/);
    expect(await rejection(session, (api) => api.slowOperator('counts', -1), null)).toMatch(/^Error: factor must be more than 0/);
    expect(await rejection(session, (api) => api.rescale('counts', 0), null)).toMatch(/^Error: parallelism must be an integer from 1/);
    expect(await rejection(session, (api) => api.setSpeed(0), null)).toMatch(/^Error: The speed must be a number/);
    expect(await rejection(session, (api) => api.setDriver('cluster' as never), null)).toMatch(/^Error: Unknown driver "cluster": use 'sim' or 'live'/);
    expect(await rejection(session, (api) => api.corruptLocalCopy('host-0', 'counts', 0), null)).toMatch(/^Error: host-0 holds no local copy of counts#0/);
    expect(await rejection(session, (api) => api.corruptLocalCopy('host-9', 'counts', 0), null)).toMatch(/^Error: no host "host-9"/);
    expect(await rejection(session, (api) => api.runUntil('soon'), null)).toMatch(/^Error: runUntil needs a time/);
    expect(await rejection(session, (api) => api.setDriver('sim'), null)).toBe('resolved');
  });

  it('slows an operator and rescales a keyed operator from its latest checkpoint', async () => {
    const result = await inPage(
      session,
      async (api) => {
        await api.slowOperator('counts', 3);
        const { time } = await api.status();
        await api.rescale('counts', 4);
        await api.runUntil(time + 3000);
        const topology = await api.topology();
        return { parallelism: topology.vertices.find((v) => v.id === 'counts')!.parallelism, stats: await api.stats() };
      },
      null,
    );
    expect(result.parallelism).toBe(4);
    expect(result.stats.job.status).toBe('RUNNING');
    expect(result.stats.restores.length).toBe(2);
    expect(result.stats.output.duplicates).toBe(0);
  });

  it('loads YAML text, and its scheduled savepoint shows in stats()', async () => {
    const result = await inPage(session, (api, text) => api.load(text), CHECKPOINTING_SCENARIO_YAML);
    expect(result.name).toBe('Checkpointed word count');
    await inPage(session, (api) => api.runUntil(3_000), null);
    const stats = await inPage(session, (api) => api.stats(), null);
    expect(stats.checkpoints.latest.savepoint?.is_savepoint).toBe(true);
    expect(stats.checkpoints.history.some((entry) => entry.is_savepoint)).toBe(true);
  });

  it('logs no console errors or page errors', () => {
    expect(session.errors).toEqual([]);
  });
});
