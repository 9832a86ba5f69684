/**
 * The playground's app state: which scenario is loaded, the simulation running it, and the
 * figures the page shows. One class with runes; components read its fields and call its methods.
 *
 * The simulation runs on a virtual clock. While running, every animation frame advances virtual
 * time by the wall-clock time since the previous frame times `speed`.
 */
import {
  formatScenarioErrors,
  parseScenarioText,
  validateScenario,
} from '../engine/scenario/scenario-validator.ts';
import { Simulation } from '../engine/sim/simulation.ts';

/** One entry of public/scenarios/index.json. */
export interface ScenarioEntry {
  file: string;
  name: string;
}

export interface GraphVertex {
  id: string;
  name: string;
  /** operator type: 'source', 'map', 'keyed-aggregate', 'window', 'window-join', 'sink', ... */
  type: string;
  parallelism: number;
}

export interface GraphEdge {
  from: string;
  to: string;
  partitioning: string;
}

/** Why the current scenario is not running, for the page to show (translated there). */
export type LoadProblem =
  | { kind: 'fetch'; file: string; reason: string }
  | { kind: 'invalid'; file: string; details: string };

export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10] as const;

/** A frame after a long pause (a background tab) must not replay minutes of virtual time at once. */
const MAX_FRAME_MS = 100;
const SCENARIO_DIR = '/scenarios/';
const TERMINAL_JOB_STATES = new Set(['FINISHED', 'FAILED', 'CANCELED']);

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class PlaygroundState {
  scenarios = $state.raw<ScenarioEntry[]>([]);
  /** Set when index.json could not be loaded. */
  indexError = $state<string | null>(null);
  selectedFile = $state<string | null>(null);
  loadProblem = $state.raw<LoadProblem | null>(null);
  /** An error thrown by the simulation while running; the run stops. */
  runError = $state<string | null>(null);

  jobName = $state('');
  vertices = $state.raw<GraphVertex[]>([]);
  edges = $state.raw<GraphEdge[]>([]);

  nowMs = $state(0);
  /** The scenario's run length (`run.until`); Infinity when it runs until the job finishes. */
  runUntilMs = $state(Number.POSITIVE_INFINITY);
  jobStatus = $state('');
  sourceRecordsOut = $state(0);
  sinkRecordsIn = $state(0);

  running = $state(false);
  speed = $state<number>(1);

  readonly loaded = $derived(this.vertices.length > 0 && this.loadProblem === null);
  /** The job ended, or the scenario's run length is used up: only Reset goes on. */
  readonly finished = $derived(TERMINAL_JOB_STATES.has(this.jobStatus) || this.nowMs >= this.runUntilMs);
  readonly canRun = $derived(this.loaded && !this.running && !this.finished && this.runError === null);

  #simulation: Simulation | null = null;
  #scenarioText: string | null = null;
  #frame: number | null = null;
  #lastFrameTime: number | null = null;
  /** Bumped on every load so a slow fetch cannot overwrite a newer choice. */
  #loadGeneration = 0;

  /** Loads the scenario list, then the scenario named in the URL (`?scenario=file`) or the first one. */
  async init(): Promise<void> {
    let entries: ScenarioEntry[];
    try {
      const response = await fetch(`${SCENARIO_DIR}index.json`);
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
      entries = (await response.json()) as ScenarioEntry[];
    } catch (error) {
      this.indexError = errorMessage(error);
      return;
    }
    this.scenarios = entries;
    const requested = new URL(location.href).searchParams.get('scenario');
    const initial = entries.find((entry) => entry.file === requested) ?? entries[0];
    if (initial) await this.#loadScenario(initial.file);
  }

  /** The user picked a scenario: load it, start it, and keep the choice in the URL for reloads and links. */
  async chooseScenario(file: string): Promise<void> {
    this.#rememberInUrl(file);
    await this.#loadScenario(file);
  }

  async #loadScenario(file: string): Promise<void> {
    const generation = ++this.#loadGeneration;
    this.pause();
    this.selectedFile = file;
    let text: string;
    try {
      const response = await fetch(SCENARIO_DIR + encodeURIComponent(file));
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
      // A dev or SPA server answers a missing file with the app's index.html and status 200.
      if (response.headers.get('content-type')?.includes('text/html')) throw new Error('file not found');
      text = await response.text();
    } catch (error) {
      if (generation !== this.#loadGeneration) return;
      this.#clearJob();
      this.loadProblem = { kind: 'fetch', file, reason: errorMessage(error) };
      return;
    }
    if (generation !== this.#loadGeneration) return;
    this.#scenarioText = text;
    this.#startSimulation(file, text);
    this.run();
  }

  run(): void {
    if (!this.canRun || this.#frame !== null) return;
    this.running = true;
    this.#lastFrameTime = null;
    this.#frame = requestAnimationFrame(this.#onFrame);
  }

  pause(): void {
    this.running = false;
    if (this.#frame !== null) cancelAnimationFrame(this.#frame);
    this.#frame = null;
  }

  /** Starts the current scenario again from virtual time 0, keeping running or paused. */
  reset(): void {
    if (this.selectedFile === null || this.#scenarioText === null) return;
    const wasRunning = this.running;
    this.pause();
    this.#startSimulation(this.selectedFile, this.#scenarioText);
    if (wasRunning) this.run();
  }

  setSpeed(speed: number): void {
    if (Number.isFinite(speed) && speed > 0) this.speed = speed;
  }

  destroy(): void {
    this.pause();
    this.#loadGeneration++;
  }

  #startSimulation(file: string, text: string): void {
    this.#clearJob();
    const parsed = parseScenarioText(text);
    const validated = parsed.ok ? validateScenario(parsed.value) : parsed;
    if (!validated.ok) {
      this.loadProblem = { kind: 'invalid', file, details: formatScenarioErrors(validated.errors) };
      return;
    }
    const simulation = new Simulation(validated.scenario);
    const topology = simulation.topology();
    this.#simulation = simulation;
    this.jobName = validated.scenario.job.name;
    this.runUntilMs = validated.scenario.run.until_ms;
    this.vertices = topology.vertices.map(({ id, name, type, parallelism }) => ({ id, name, type, parallelism }));
    this.edges = topology.edges.map(({ from, to, partitioning }) => ({ from, to, partitioning }));
    this.#refreshFigures();
  }

  #clearJob(): void {
    this.#simulation = null;
    this.loadProblem = null;
    this.runError = null;
    this.jobName = '';
    this.vertices = [];
    this.edges = [];
    this.nowMs = 0;
    this.runUntilMs = Number.POSITIVE_INFINITY;
    this.jobStatus = '';
    this.sourceRecordsOut = 0;
    this.sinkRecordsIn = 0;
  }

  #onFrame = (time: number): void => {
    this.#frame = null;
    const simulation = this.#simulation;
    if (!this.running || !simulation) return;
    const wallDeltaMs = this.#lastFrameTime === null ? 0 : Math.min(time - this.#lastFrameTime, MAX_FRAME_MS);
    this.#lastFrameTime = time;
    try {
      const target = Math.min(simulation.now + wallDeltaMs * this.speed, this.runUntilMs);
      if (target > simulation.now) simulation.runUntil(target);
    } catch (error) {
      this.runError = errorMessage(error);
      this.running = false;
      console.error('The simulation stopped with an error:', error);
      return;
    }
    this.#refreshFigures();
    if (this.finished) {
      this.running = false;
      return;
    }
    this.#frame = requestAnimationFrame(this.#onFrame);
  };

  #refreshFigures(): void {
    const simulation = this.#simulation;
    if (!simulation) return;
    const perVertex = simulation.metrics().vertices;
    let sourceOut = 0;
    let sinkIn = 0;
    for (const vertex of this.vertices) {
      const figures = perVertex[vertex.id];
      if (!figures) continue;
      if (vertex.type === 'source') sourceOut += figures.numRecordsOut;
      if (vertex.type === 'sink') sinkIn += figures.numRecordsIn;
    }
    this.nowMs = simulation.now;
    this.jobStatus = simulation.jobStatus;
    this.sourceRecordsOut = sourceOut;
    this.sinkRecordsIn = sinkIn;
  }

  #rememberInUrl(file: string): void {
    const url = new URL(location.href);
    if (url.searchParams.get('scenario') === file) return;
    url.searchParams.set('scenario', file);
    history.replaceState(history.state, '', url);
  }
}
