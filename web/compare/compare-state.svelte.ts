/**
 * Compare mode's state: the loaded scenario run twice in sim with the same seed, once per side of
 * a variation (engine/compare/compare-variation.ts), on one shared virtual clock. Each side is a
 * PlaygroundState of its own, so the page's timeline and dashboard show it unchanged; neither
 * runs by itself: this clock advances both to the same virtual time on every tick, so their
 * timelines share one time axis. A seek on one side's timeline takes the other side there too.
 *
 * Sim only, on purpose: this 2-core machine does hold two live runs of a lesson's scenario (lesson
 * 5, 12 s live: checkpoint p50 1451 ms alone, 1403 and 1526 ms for two at once), but those two,
 * of one configuration, differ by 8 % by chance; compare mode calls out differences from 10 %.
 * The page says why (`compare.whySim`).
 */
import { compareDifferences, type CompareDifference } from '../../engine/compare/compare-differences.ts';
import { compareFigures, type CompareFigures, type CompareStatistics } from '../../engine/compare/compare-figures.ts';
import { compareScenarios, type CompareSide, type CompareVariation, type ComparedScenarios } from '../../engine/compare/compare-variation.ts';
import { playgroundDoctorDocuments } from '../../engine/doctor/run-doctor-documents.ts';
import { DashboardState } from '../dashboard/dashboard-state.svelte.ts';
import { PlaygroundState, NOT_LOADED } from '../playground-state.svelte.ts';

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

  /** The min-pause of the `b` side of `min-pause` (for its name); 0 otherwise. */
  get minPauseMs(): number {
    const value = this.sides?.[1].overrides['execution.checkpointing.min-pause'];
    return typeof value === 'number' ? value : 0;
  }

  /**
   * Opens compare mode for the page's scenario: both sides loaded, paused at 0 (`autoStart`:
   * running). Rejects with the reason when the scenario cannot be compared that way; the page's
   * own run is paused either way and stays as it was.
   */
  async openWith(variation: unknown, autoStart = false): Promise<void> {
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
    const load = async (side: CompareSide): Promise<CompareSideView> => {
      const playground = new PlaygroundState();
      if (compared[side].config['state.backend.type'] === 'rocksdb') await playground.ensureLsmStorage();
      await playground.load({ ...input, config: compared[side].config });
      return { side, playground, dashboard: new DashboardState(), overrides: compared.overrides[side] };
    };
    return [await load('a'), await load('b')];
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
    this.running = true;
    void this.#loop(this.#generation);
    return undefined;
  }

  pause(): void {
    this.running = false;
  }

  /** Both runs again from virtual time 0, with the same variation, running. */
  async restart(): Promise<void> {
    await this.openWith(this.variation, true);
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

  /** Both sides to the same virtual time: the shared clock moves only once both are there. */
  async #advanceTo(target: number, generation: number): Promise<void> {
    const sides = this.sides;
    if (sides === null) return;
    await Promise.all(sides.map((s) => s.playground.runUntil(target)));
    if (generation === this.#generation) this.nowMs = Math.max(...sides.map((s) => s.playground.nowMs));
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
    this.differences = compareDifferences(a, b);
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
