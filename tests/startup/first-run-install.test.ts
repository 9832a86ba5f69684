/**
 * The page's first run is built in one task and shown in the next (PlaygroundState.#install): the
 * run's set-up and the page's update for it were one start-up long task. A run that replaces
 * another is shown in the task that built it, so the page never shows an empty state between two
 * runs; and a first run that another load overtook while it waited is disposed, never shown.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tiny } from '../cli/tiny-scenario.ts';

/** Per SimDriver built: the scenario the page showed in the next task (null: none yet). */
const shownAfterBuild: Array<Promise<string | null>> = [];
const built: object[] = [];
const disposed = new Set<object>();
let page: { scenario: { name: string } | null } | undefined;
/** Called once, as the next SimDriver is built. */
let onNextBuild: (() => void) | undefined;

vi.mock('../../web/playground/drivers/sim-driver.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../web/playground/drivers/sim-driver.ts')>();
  class WatchedSimDriver extends original.SimDriver {
    constructor(...args: ConstructorParameters<typeof original.SimDriver>) {
      super(...args);
      built.push(this);
      const hook = onNextBuild;
      onNextBuild = undefined;
      hook?.();
      // a task scheduled now runs before any task the page schedules after building the run
      shownAfterBuild.push(new Promise((resolve) => setTimeout(() => resolve(page?.scenario?.name ?? null), 0)));
    }

    override dispose(): Promise<void> {
      disposed.add(this);
      return super.dispose();
    }
  }
  return { ...original, SimDriver: WatchedSimDriver };
});

const { PlaygroundState } = await import('../../web/playground-state.svelte.ts');

const named = (name: string) => tiny('  - { type: job-status, status: FINISHED }\n').replace('name: Tiny', `name: ${name}`);

beforeEach(() => {
  vi.stubGlobal('location', new URL('https://playground.example.org/'));
  vi.stubGlobal('requestAnimationFrame', () => 1);
  vi.stubGlobal('cancelAnimationFrame', () => {});
  shownAfterBuild.length = 0;
  built.length = 0;
  disposed.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the page’s first run', () => {
  it('shows the first run in a task after the one that built it, and a later run in the task that built it', async () => {
    const playground = new PlaygroundState();
    page = playground;
    await playground.load(named('First'));
    await playground.load(named('Second'));
    expect(await Promise.all(shownAfterBuild)).toEqual([null, 'Second']);
    expect(playground.scenario?.name).toBe('Second');
    playground.destroy();
  });

  it('disposes a first run that a configuration change overtook before it was shown, and shows the new run', async () => {
    const playground = new PlaygroundState();
    page = playground;
    let applied: ReturnType<typeof playground.applyConfig> | undefined;
    // asked as the first run is built, before the page shows it: the change's run replaces it
    onNextBuild = () => (applied = playground.applyConfig({ 'parallelism.default': 2, 'execution.checkpointing.interval': '1 s' }));
    await playground.load(named('First'));
    expect(applied).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(disposed.has(built[0]!)).toBe(true));
    expect(playground.driver).toBe(built[1]);
    expect(built).toHaveLength(2);
    expect(disposed.has(built[1]!)).toBe(false);
    expect(playground.checkpointConfig?.interval).toBe(1000);
    playground.destroy();
  });
});
