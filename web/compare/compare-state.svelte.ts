/**
 * Compare mode's state: the loaded scenario run twice with the same seed, once per side of a
 * variation (engine/compare/compare-variation.ts), on one time axis. Each side is a
 * PlaygroundState of its own, so the page's timeline and dashboard show it unchanged.
 *
 * In the sim (the default, and the choice wherever live cannot run), neither side runs by itself:
 * this clock advances both to the same virtual time on every tick. A seek on one side's timeline
 * takes the other side there too.
 *
 * In the live runtime (the page's driver is live), each side is a real live run: its own
 * TaskManager Web Workers, its own checkpoint database and host disks (a live run keeps everything
 * under `checkpoint-playground-live/<run id>/`, a new id per run, so the two never collide). Both
 * job clocks start together at the same speed and run to the same job time; the shared clock is
 * the earlier of the two. Live runs vary by chance, so a difference is called out only from
 * LIVE_NOISE (engine/compare/compare-differences.ts says why), and only where
 * the machine can hold both (live-compare-capacity.ts); otherwise compare mode says why and
 * offers the sim. Closing terminates both runs' workers and deletes their databases.
 */
import { compareDifferences, LIVE_NOISE, SIM_NOISE, type CompareDifference, type NoiseThreshold } from '../../engine/compare/compare-differences.ts';
import { compareFigures, type CompareFigures, type CompareStatistics } from '../../engine/compare/compare-figures.ts';
import { compareScenarios, type CompareSide, type CompareVariation, type ComparedScenarios } from '../../engine/compare/compare-variation.ts';
import { playgroundDoctorDocuments } from '../../engine/doctor/run-doctor-documents.ts';
import { DashboardState } from '../dashboard/dashboard-state.svelte.ts';
import type { DriverName } from '../playground/api/playground-api-types.ts';
import { PlaygroundState, NOT_LOADED } from '../playground-state.svelte.ts';
import { browserMachineCapacity, liveCompareCapacity, liveCompareRefusalMessage, type LiveCompareCapacity } from './live-compare-capacity.ts';

/** Wall ms between two advances of the shared clock: both runs re-read their documents on each. */
const TICK_MS = 100;
/** A tick after a long pause (a background tab) must not replay minutes of virtual time at once. */
const MAX_TICK_MS = 250;
/** Wall ms between two recomputations of the differences (they read every checkpoint's subtasks). */
const DIFFERENCES_REFRESH_MS = 500;

export interface CompareSideView {
  side: CompareSide;
  playground: PlaygroundState;
  dashboard: DashboardState;
  /** the Flink options this side sets over the scenario's configuration */
  overrides: Readonly<Record<string, string | number | boolean>>;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class CompareState {
  /** compare mode is shown (also while its runs start, or when they could not) */
  open = $state(false);
  variation = $state<CompareVariation>('full-vs-incremental');
  /** the runtime both sides run in */
  runtime = $state<DriverName>('sim');
  /** why this machine cannot hold two live runs of the scenario (compare mode then offers the sim) */
  liveRefusal = $state.raw<Extract<LiveCompareCapacity, { ok: false }> | null>(null);
  sides = $state.raw<readonly [CompareSideView, CompareSideView] | null>(null);
  /** why compare mode could not start (the engine's message names the field and what is allowed) */
  problem = $state<string | null>(null);
  loading = $state(false);
  running = $state(false);
  /** the shared clock, virtual ms */
  nowMs = $state(0);
  untilMs = $state(Number.POSITIVE_INFINITY);
  differences = $state.raw<readonly CompareDifference[]>([]);
  figures = $state.raw<readonly [CompareFigures, CompareFigures] | null>(null);

  readonly finished = $derived(
    this.sides !== null && (this.nowMs >= this.untilMs || this.sides.every((s) => ['FINISHED', 'FAILED', 'CANCELED'].includes(s.playground.jobStatus))),
  );

  readonly #main: PlaygroundState;
  /** bumped on every open and close, so an older clock loop or load stops acting */
  #generation = 0;
  #lastDifferences = -Infinity;
  /** a seek this state made on a side, not the user's: not mirrored back */
  #mirroring = false;
  #unsubscribe: (() => void)[] = [];

  constructor(main: PlaygroundState) {
    this.#main = main;
  }

  /** Below this a difference is noise (more of it live, where runs vary by chance). */
  get noise(): NoiseThreshold {
    return this.runtime === 'live' ? LIVE_NOISE : SIM_NOISE;
  }

  /** The min-pause of the `b` side of `min-pause` (for its name); 0 otherwise. */
  get minPauseMs(): number {
    const value = this.sides?.[1].overrides['execution.checkpointing.min-pause'];
    return typeof value === 'number' ? value : 0;
  }

  /**
   * Opens compare mode for the page's scenario: both sides loaded, paused at 0 (`autoStart`:
   * running), in `runtime` (default: the page's driver). Rejects with the reason when the
   * scenario cannot be compared that way, or live when the machine cannot hold two live runs;
   * the page's own run is paused either way and stays as it was.
   */
  async openWith(variation: unknown, autoStart = false, runtime: DriverName = this.#main.driverName): Promise<void> {
    const scenario = this.#main.scenario;
    const input = this.#main.scenarioInput;
    this.close();
    const generation = this.#generation;
    this.open = true;
    this.#main.pause('user');
    if (scenario === null || input === null) return this.#fail(NOT_LOADED);
    const compared = compareScenarios(scenario, variation);
    if (!compared.ok) return this.#fail(compared.message);
    this.variation = compared.value.variation;
    this.runtime = runtime;
    if (runtime === 'live') {
      const capacity = liveCompareCapacity(scenario.cluster.hosts * scenario.cluster.task_managers_per_host, browserMachineCapacity());
      if (!capacity.ok) {
        this.liveRefusal = capacity;
        throw new Error(liveCompareRefusalMessage(capacity));
      }
    }
    this.loading = true;
    try {
      const sides = await this.#loadSides(compared.value, input);
      if (generation !== this.#generation) return sides.forEach((s) => s.playground.destroy());
      this.sides = sides;
      this.untilMs = scenario.run.until_ms;
      this.#follow(sides);
      this.#refreshDifferences(true);
    } catch (error) {
      if (generation === this.#generation) return this.#fail(errorMessage(error));
    } finally {
      if (generation === this.#generation) this.loading = false;
    }
    if (autoStart) this.start();
  }

  #fail(message: string): never {
    this.problem = message;
    this.loading = false;
    throw new Error(message);
  }

  /** Each side is the scenario document with its configuration: the parsed options plus the side's overrides. */
  async #loadSides(compared: ComparedScenarios, input: Record<string, unknown>): Promise<[CompareSideView, CompareSideView]> {
    const runtime = this.runtime;
    const loaded: PlaygroundState[] = [];
    const load = async (side: CompareSide): Promise<CompareSideView> => {
      // not the page's own run: a reload does not offer to resume a side
      const playground = new PlaygroundState({ resumable: false });
      loaded.push(playground);
      playground.driverName = runtime;
      playground.setSpeed(this.#main.speed);
      if (runtime === 'sim' && compared[side].config['state.backend.type'] === 'rocksdb') await playground.ensureLsmStorage();
      await playground.load({ ...input, config: compared[side].config });
      // never a sim run in place of a live one (a browser that denies storage runs the sim)
      if (playground.driver?.name !== runtime) throw new Error(`side ${side} could not run in the ${runtime} runtime: ${playground.storageDenied ?? 'it ran in another'}`);
      return { side, playground, dashboard: new DashboardState(), overrides: compared.overrides[side] };
    };
    try {
      // Live: both sides' workers boot at once, so neither waits twice as long for its run.
      return runtime === 'live' ? await Promise.all([load('a'), load('b')]) : [await load('a'), await load('b')];
    } catch (error) {
      // a side that did start (its workers, its databases) ends with the one that could not
      for (const playground of loaded) playground.destroy();
      throw error;
    }
  }

  /** A seek on one side's timeline takes the other side, and the shared clock, to the same time. */
  #follow(sides: readonly [CompareSideView, CompareSideView]): void {
    for (const [index, { playground }] of sides.entries()) {
      const other = sides[1 - index]!.playground;
      this.#unsubscribe.push(
        playground.hub.on('seek', (event) => {
          if (this.#mirroring) return;
          this.pause();
          this.nowMs = event.time;
          this.#mirroring = true;
          void other.seek(event.time).catch(() => undefined).finally(() => {
            this.#mirroring = false;
            this.#refreshDifferences(true);
          });
        }),
      );
    }
  }

  close(): void {
    this.#generation++;
    this.running = false;
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
    for (const side of this.sides ?? []) side.playground.destroy();
    this.sides = null;
    this.open = false;
    this.problem = null;
    this.liveRefusal = null;
    this.loading = false;
    this.nowMs = 0;
    this.untilMs = Number.POSITIVE_INFINITY;
    this.differences = [];
    this.figures = null;
  }

  /** Runs the shared clock at the playground's speed; a message when it cannot run. */
  start(): string | undefined {
    if (this.sides === null) return this.problem ?? 'Compare mode is not open: call compare(variation) first.';
    if (this.finished) return 'Both runs reached their end; restart them to run again.';
    if (this.running) return undefined;
    if (this.runtime === 'live') return this.#startLive(this.sides);
    this.running = true;
    void this.#loop(this.#generation);
    return undefined;
  }

  /** Both live job clocks at once, at the page's speed; each stops at the run length by itself. */
  #startLive(sides: readonly [CompareSideView, CompareSideView]): string | undefined {
    for (const { playground } of sides) {
      if (playground.finished) continue;
      playground.setSpeed(this.#main.speed);
      const problem = playground.start();
      if (problem !== undefined) {
        this.pause();
        return problem;
      }
    }
    this.running = true;
    void this.#followLive(this.#generation);
    return undefined;
  }

  pause(): void {
    this.running = false;
    if (this.runtime === 'live') for (const side of this.sides ?? []) side.playground.pause('user');
  }

  /** The page's speed changed: live job clocks follow it at once (the sim's clock reads it every tick). */
  setSpeed(speed: number): void {
    if (this.runtime !== 'live' || !this.running) return;
    for (const side of this.sides ?? []) side.playground.setSpeed(speed);
  }

  /** Both runs again from virtual time 0, with the same variation, running. */
  async restart(): Promise<void> {
    await this.openWith(this.variation, true, this.runtime);
  }

  /** Advances both runs to `time` (capped at the run length) on the shared clock, then pauses. */
  async runUntil(time: number): Promise<void> {
    if (this.sides === null) throw new Error(this.problem ?? 'Compare mode is not open: call compare(variation) first.');
    this.pause();
    await this.#advanceTo(Math.min(time, this.untilMs), this.#generation);
    this.#refreshDifferences(true);
  }

  async #loop(generation: number): Promise<void> {
    let last = performance.now();
    while (this.running && generation === this.#generation) {
      await wait(TICK_MS);
      if (!this.running || generation !== this.#generation) return;
      const wall = performance.now();
      const target = Math.min(this.nowMs + Math.min(wall - last, MAX_TICK_MS) * this.#main.speed, this.untilMs);
      last = wall;
      try {
        await this.#advanceTo(target, generation);
      } catch (error) {
        if (generation === this.#generation) this.problem = errorMessage(error);
        this.running = false;
      }
      if (this.finished) this.running = false;
      this.#refreshDifferences(!this.running);
    }
  }

  /** Live runs move by themselves: the shared clock follows the later of them to where both are. */
  async #followLive(generation: number): Promise<void> {
    while (this.running && generation === this.#generation && this.sides !== null) {
      await wait(TICK_MS);
      const sides = this.sides;
      if (generation !== this.#generation || sides === null) return;
      this.nowMs = Math.min(...sides.map((s) => s.playground.nowMs));
      const problem = sides.map((s) => s.playground.runError).find((e) => e !== null);
      if (problem !== undefined) this.problem = problem;
      // each side pauses itself at the run length, or when its job ends
      if (problem !== undefined || sides.every((s) => !s.playground.running)) this.running = false;
      this.#refreshDifferences(!this.running);
    }
  }

  /**
   * Both sides to the same time: the shared clock moves only once both are there. Live runs run
   * there at once on their own job clocks, so the clock is the earlier of the two.
   */
  async #advanceTo(target: number, generation: number): Promise<void> {
    const sides = this.sides;
    if (sides === null) return;
    await Promise.all(sides.map((s) => s.playground.runUntil(target)));
    const times = sides.map((s) => s.playground.nowMs);
    if (generation === this.#generation) this.nowMs = this.runtime === 'live' ? Math.min(...times) : Math.max(...times);
  }

  #refreshDifferences(force: boolean): void {
    const sides = this.sides;
    const wall = performance.now();
    if (sides === null || (!force && wall - this.#lastDifferences < DIFFERENCES_REFRESH_MS)) return;
    this.#lastDifferences = wall;
    const a = statisticsOf(sides[0].playground);
    const b = statisticsOf(sides[1].playground);
    if (a === null || b === null) return;
    this.figures = [compareFigures(a), compareFigures(b)];
    this.differences = compareDifferences(a, b, this.noise);
  }
}

/** A side's statistics as compare mode reads them: the same documents its dashboard shows. */
function statisticsOf(playground: PlaygroundState): CompareStatistics | null {
  const { scenario, checkpointing, checkpointConfig } = playground;
  if (scenario === null || checkpointing === null || checkpointConfig === null) return null;
  const documents = playgroundDoctorDocuments({
    scenario,
    checkpoints: checkpointing,
    checkpointConfig,
    checkpointDetails: (id) => playground.checkpointDetails(id),
    taskCheckpointStatistics: (id, vertexId) => playground.taskCheckpointStatistics(id, vertexId),
    restores: playground.restores,
    duplicates: 0,
  });
  return { checkpoints: checkpointing, checkpointSubtaskDetails: documents.checkpointSubtaskDetails ?? [], restores: playground.restores };
}
