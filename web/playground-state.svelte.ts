/**
 * The playground's app state: which scenario is loaded, the driver running it, the virtual clock,
 * and the figures and Flink documents the page shows. One class with runes; components read its
 * fields, and the Playground API (playground/api/playground-api.ts) calls its methods.
 *
 * The simulation runs on a virtual clock. While running, every animation frame advances virtual
 * time by the wall-clock time since the previous frame times `speed`, within a time budget per
 * frame: when the machine cannot keep up, virtual time falls behind and `effectiveSpeed` shows it.
 *
 * The live driver (`driverName === 'live'`, Web Worker TaskManagers) runs on the wall clock by
 * itself: start and pause set its job clock's speed, and every animation frame (paused or not:
 * the workers go on answering heartbeats and a kill is still noticed) re-reads what it shows.
 * A `runtime: scale` scenario runs the same way, whichever driver is chosen: in the scale
 * runtime's worker (ScalePageDriver), its job clock the wall clock times the speed.
 */
import type { SessionDocument } from '../engine/replay/session-document.ts';
import type { LsmStorageFactory } from '../engine/state/state-backend-factory.ts';
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../engine/checkpoint/stats/rest-document-types.ts';
import { parseDuration } from '../engine/config/duration.ts';
import type { Topology } from '../engine/job/topology.ts';
import type { TaskManagerHealth } from '../engine/job/task-manager-liveness.ts';
import type { JobMetrics } from '../engine/metrics/metrics-sampler.ts';
import type { JobEvent, RestoreRecord } from '../engine/run/job-events.ts';
import { formatScenarioErrors, type ScenarioError } from '../engine/scenario/scenario-document-validator.ts';
import { readScenarioText } from './playground/scenario-text-reader.ts';
import { message, renderEnglish } from '../engine/messages/engine-message.ts';
import type { EngineMessage } from '../engine/messages/message-codes.ts';
import { scenarioError } from '../engine/scenario/scenario-error.ts';
import { validateForPage } from './page-runtime.ts';
import type { Scenario } from '../engine/scenario/scenario-types.ts';
import type { ScenarioTranslations } from '../engine/scenario/localized-text.ts';
import { EventHub } from './playground/api/event-hub.ts';
import { nextTask } from './next-task.ts';
import type { DriverName, LoadResult, PauseReason, PlaygroundStats, StepResult } from './playground/api/playground-api-types.ts';
// The live runtime (workers, IndexedDB storage) loads when a live run starts, not with the page.
import type { LivePageDriver } from './playground/drivers/live-page-driver.ts';
// The scale runtime's driver loads with the first scale scenario (its worker holds the runtime).
import type { ScalePageDriver } from './playground/drivers/scale-page-driver.ts';
import { taskManagerWorkersRunning } from './playground/drivers/task-manager-marks.ts';
import type { PlaygroundDriver } from './playground/drivers/playground-driver.ts';
import { SimDriver, type OutputComparisonView } from './playground/drivers/sim-driver.ts';
import type { JobOperation } from '../engine/job/job-operation.ts';
import type { ScheduledOperation } from '../engine/job/scheduled-operation.ts';
import { SEEK_NEEDS_SIM, SimTimeTravel, timeArgument } from './playground/time-travel/sim-time-travel.svelte.ts';
import type { BranchInfo, SeekResult } from './playground/api/playground-api-types.ts';
import type { StorageView } from './storage/storage-view.ts';
import { scenarioFromHash } from './embed/share-link.ts';
import type { SharedRun } from './embed/shared-run.ts';
import { browserStorageAccess } from './playground/storage/browser-storage-access.ts';
import { ImportedFlinkJob } from './dashboard/imported-flink-job.svelte.ts';
import { forgetLiveRun, pageRecordStorage, type LiveRunRecord } from './playground/storage/interrupted-live-run.ts';
import { sweepAbandonedRunStorage } from './playground/storage/run-storage-lease.ts';

/** One entry of /scenarios/index.json (node/scenario-index.ts): a bundled scenario's file and its name in each language its file gives. */
export interface ScenarioEntry {
  file: string;
  name: string;
  translations?: ScenarioTranslations;
}

/** Where the loaded scenario came from: a bundled file, a page through the API, a URL, or a share link. */
export type ScenarioSource = { kind: 'file'; file: string } | { kind: 'api' } | { kind: 'url'; url: string } | { kind: 'shared' };

/**
 * What a load problem names the scenario by: a file name or URL, shown as it is, or where scenario
 * text came from (a share link, the interrupted run), which the page says in its language.
 */
export type ScenarioLabel = string | { from: 'share-link' | 'interrupted-run' };

/** Why a load failed: the error's own message (a fetch's), or what a share link's reader refused (translated where shown). */
export type LoadFailure = string | { shareLink: unknown };

/** Why the current scenario is not running, for the page to show (translated there). */
export type LoadProblem =
  | { kind: 'fetch'; file: ScenarioLabel; reason: LoadFailure }
  | { kind: 'invalid'; file: ScenarioLabel; errors: ScenarioError[] };

/** The speed range of the API; the page's slider covers a part of it. */
export const SPEED_MIN = 0.01;
export const SPEED_MAX = 1000;

/** A frame after a long pause (a background tab) must not replay minutes of virtual time at once. */
const MAX_FRAME_MS = 100;
/** Wall-clock ms a frame may spend simulating; the rest is left for drawing. */
const FRAME_BUDGET_MS = 10;
/**
 * What a frame that re-reads the documents or the sink comparison may spend simulating: the
 * views re-render in that frame, and with the full budget too its task went over 50 ms at full speed.
 */
const REFRESH_FRAME_BUDGET_MS = 4;
/** How often the heavier documents (statistics, metrics, topology) are re-read while nothing happens. */
const DOCUMENT_REFRESH_MS = 250;
/**
 * How often they are re-read at most while things happen: at full speed something happens in
 * every frame, and re-reading (and re-rendering) every view 60 times a second made long tasks.
 */
const DOCUMENT_EVENT_REFRESH_MS = 100;
/** How often the views drawn over virtual time (the timeline) follow the clock while it runs. */
const VIEW_CLOCK_REFRESH_MS = 100;
/** How often the sink comparison's per-key rows are re-read (at most). */
const OUTPUT_REFRESH_MS = 500;
const SCENARIO_DIR = '/scenarios/';

export const NOT_LOADED = renderEnglish(message('scenario.not-loaded'));
export const STEP_IS_SIM_ONLY =
  "step() is for the 'sim' driver only: the 'live' driver runs on the wall clock. Use runUntil(time), or start() and pause(), or setDriver('sim').";
export const STEP_IS_NOT_SCALE =
  "step() is for record-level scenarios in the 'sim' driver: a runtime: scale scenario runs in its worker on the wall clock times the speed. Use runUntil(time), or start() and pause().";
/** How often a live runUntil looks at the job clock (wall ms). */
const LIVE_WAIT_POLL_MS = 20;

export function isDriverName(value: unknown): value is DriverName {
  return value === 'sim' || value === 'live';
}

/** The API's answer to setDriver('live') where the browser denies storage (the page shows it translated). */
function liveNeedsStorage(reason: string | null): string {
  return `The live runtime cannot run here: the browser denies this page storage (${reason ?? 'IndexedDB'}), as it does to an embedded page of another site. The simulator keeps running, with its checkpoints in memory.`;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A driver whose job runs by itself (live TaskManagers, the scale worker): the page follows it every frame. */
type SelfRunningDriver = LivePageDriver | ScalePageDriver;

function runsByItself(driver: SimDriver | SelfRunningDriver | null | undefined): driver is SelfRunningDriver {
  return driver !== null && driver !== undefined && driver.name !== 'sim';
}

export class PlaygroundState {
  scenarios = $state.raw<ScenarioEntry[]>([]);
  /** Set when index.json could not be loaded. */
  indexError = $state<string | null>(null);
  source = $state.raw<ScenarioSource | null>(null);
  loadProblem = $state.raw<LoadProblem | null>(null);
  /** An error thrown by the simulation while running; the run stops. */
  runError = $state<string | null>(null);

  scenario = $state.raw<Scenario | null>(null);
  /**
   * The scenario as it was written (parsed JSON or YAML, before validation filled defaults):
   * what the configuration editor changes and a share link carries.
   */
  scenarioInput = $state.raw<Record<string, unknown> | null>(null);
  /** operator requests the loaded run makes at set times (a lesson step's cancel or rescale), again on every restart of it */
  operations: readonly ScheduledOperation[] = [];
  topology = $state.raw<Topology | null>(null);
  /** each TaskManager's heartbeats as the JobMaster sees them (re-read with the topology) */
  taskManagerHealth = $state.raw<TaskManagerHealth[]>([]);
  metrics = $state.raw<JobMetrics | null>(null);
  checkpointing = $state.raw<CheckpointingStatisticsDocument | null>(null);
  checkpointConfig = $state.raw<CheckpointConfigDocument | null>(null);
  events = $state.raw<readonly JobEvent[]>([]);
  restores = $state.raw<readonly RestoreRecord[]>([]);
  output = $state.raw<OutputComparisonView | null>(null);
  /** local disks and remote checkpoint storage */
  storage = $state.raw<StorageView | null>(null);
  /** How many per-key rows of the sink comparison the page asks for. */
  outputRowLimit = $state(12);
  /** Bumped whenever the documents above were re-read; detail views re-read with it. */
  revision = $state(0);
  /** A real Flink job's checkpoint statistics the user imported: one per page, kept across runs. */
  readonly imported = new ImportedFlinkJob();

  nowMs = $state(0);
  /**
   * nowMs for the views that redraw everything when the clock moves (the timeline's scale and
   * bars): at most every VIEW_CLOCK_REFRESH_MS while running, so a full-speed run does not
   * re-lay them out in every frame; exact whenever the clock stops or jumps (step, seek, load).
   */
  viewNowMs = $state(0);
  /** The scenario's run length (`run.until`); Infinity when it runs until the job finishes. */
  runUntilMs = $state(Number.POSITIVE_INFINITY);
  jobStatus = $state('');
  restarts = $state(0);

  running = $state(false);
  speed = $state<number>(1);
  /** The driver the scenario runs in; a switch reloads the scenario in the other one. */
  driverName = $state<DriverName>('sim');
  /** The live driver's TaskManager workers are starting (the scenario shows once they run). */
  booting = $state(false);
  /** A live run a reload interrupted: the page offers to resume it from its latest checkpoint, or to discard it. */
  interruptedRun = $state.raw<LiveRunRecord | null>(null);
  /** the interrupted run the next live install resumes */
  #resuming: LiveRunRecord | undefined;
  /** TaskManager Web Workers running on this page now (live; 0 in sim). */
  workers = $state(0);
  /** Virtual ms per wall ms actually reached over the last frames (below `speed` when the machine cannot keep up). */
  effectiveSpeed = $state(0);
  /**
   * Why the browser denies this page storage (a third-party iframe, browser-storage-access.ts),
   * or null while it grants it or has not answered yet. Then the live runtime cannot run, and the
   * sim keeps its checkpoints and local disks in memory; the page says so.
   */
  storageDenied = $state<string | null>(null);

  readonly selectedFile = $derived(this.source?.kind === 'file' ? this.source.file : null);
  readonly loaded = $derived(this.scenario !== null && this.loadProblem === null);
  /** The job ended, or the scenario's run length is used up: only Restart goes on. */
  readonly finished = $derived(
    ['FINISHED', 'FAILED', 'CANCELED'].includes(this.jobStatus) || this.nowMs >= this.runUntilMs,
  );
  readonly canRun = $derived(this.loaded && !this.running && !this.finished && this.runError === null);
  /** The loaded scenario runs in the scale runtime (vertices modelled by flows, in a worker), whichever driver is chosen. */
  readonly scaleRun = $derived(this.scenario?.runtime === 'scale');

  /** Subscribers of the Playground API. */
  readonly hub = new EventHub();

  /** Sim time travel: seeks, replays and the branches of the run's history. */
  readonly timeTravel = new SimTimeTravel({
    adopt: (driver, branch) => this.#adoptDriver(driver, branch),
    deliver: () => this.#deliverQueued(),
    advanced: () => this.#afterAdvance(false),
    guard: (call) => this.#guard(call),
  });

  #driver: SimDriver | SelfRunningDriver | null = null;
  #unsubscribeDriver: (() => void) | null = null;
  /** Job events from the engine not yet delivered to the API's subscribers. */
  #queued: JobEvent[] = [];
  #frame: number | null = null;
  #lastFrameTime: number | null = null;
  /** what the live driver is starting for (`booting`) */
  #booting: { scenario: Scenario; autoStart: boolean } | null = null;
  /** the job clock at the last live frame */
  #lastFrameNow = 0;
  #lastDocumentRefresh = -Infinity;
  /** an engine event arrived since the documents were last read */
  #documentsStale = false;
  #lastViewClock = -Infinity;
  #nextOutputRefresh = -Infinity;
  /** Bumped on every load so a slow fetch or a fast-forward cannot act on a newer scenario. */
  #generation = 0;
  /**
   * load() calls under way or done, counted when asked, not when installed: a load validates and
   * waits a task before it replaces the job, and the first page must not open its lesson over one
   * under way. A refused load is taken back off: it loaded nothing, so the page loads its own.
   */
  #loadsAsked = 0;
  /** The browser's answer on storage, asked at once; undefined until it came. */
  #storageGranted: boolean | undefined;
  readonly #storageAnswer = browserStorageAccess().then((access) => {
    this.#storageGranted = access.granted;
    this.storageDenied = access.granted ? null : access.reason;
  });
  /** the run was running until it stopped by itself (its job ended, or it reached run.until) */
  #ranToItsEnd = false;
  /** whether a live run of this state is the page's own, which a reload offers to resume */
  readonly #resumable: boolean;

  /**
   * `resumable: false` for a run that is not the page's own (a side of compare mode): its live run
   * is not recorded for a reload to resume, nor does it replace the page's own run's record.
   */
  constructor(options: { resumable?: boolean } = {}) {
    this.#resumable = options.resumable ?? true;
  }

  /**
   * The running driver, for views that read the simulation every frame (channels, storage,
   * inspector). Not reactive: subscribe to `hub` 'load' to learn that it was replaced.
   */
  get driver(): PlaygroundDriver | null {
    return this.#driver;
  }

  /** The running driver when it is the simulator (for what only the sim can do: step, replay), else null. */
  get simDriver(): SimDriver | null {
    return this.#driver?.name === 'sim' ? this.#driver : null;
  }

  // ---- loading ----

  /**
   * Loads the scenario list, then what the URL names: a share link (`#scenario=<base64>`), a
   * bundled file (`?scenario=file`), or nothing, a newcomer's first page, which `firstPage` loads
   * (lesson 1); the first bundled scenario when there is no `firstPage` or it loaded nothing.
   * `loadInitial: false` leaves the scenario to the caller (a lesson link opens its own).
   */
  async init(options: { loadInitial?: boolean; firstPage?: () => Promise<void> } = {}): Promise<void> {
    const driver = new URL(location.href).searchParams.get('driver');
    if (isDriverName(driver)) this.driverName = driver;
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
    // A page that loaded its own scenario through the API before the list arrived (or is loading it) keeps it.
    if (this.source !== null || this.#loadsAsked > 0 || options.loadInitial === false) return;
    if (this.loadSharedFromHash()) return;
    const requested = new URL(location.href).searchParams.get('scenario');
    if (requested === null && options.firstPage) {
      await options.firstPage().catch((error: unknown) => console.warn('The first page could not open its lesson:', error));
    }
    // The first page's lesson may have failed, or the API or the picker loaded a scenario meanwhile.
    const initial = entries.find((entry) => entry.file === requested) ?? entries[0];
    if (this.source === null && initial) await this.#loadFile(initial.file, true);
    this.#warmUpLsmStorage();
  }

  /**
   * wa-sqlite (1 MB of wasm, for state.backend.type: rocksdb) warms up once the first scenario's
   * first checkpoint completed (at once when it is not running): a hashmap scenario never waits
   * for it, and its glue's compile and the wasm's fetch do not hold the first checkpoint back.
   * A rocksdb scenario loaded before then waits for it (load, #installText).
   */
  #warmUpLsmStorage(): void {
    if (!this.running) return void this.ensureLsmStorage();
    const off = this.hub.on('checkpoint-completed', () => {
      off();
      void this.ensureLsmStorage();
    });
  }

  /**
   * A share link (`#scenario=<base64 yaml>`) names the scenario: load and start it. The page
   * calls it again when its hash changes; false when the hash names no scenario.
   */
  loadSharedFromHash(): boolean {
    const hash = location.hash;
    let text: string | null;
    try {
      text = scenarioFromHash(hash);
    } catch (error) {
      this.#shareLinkProblem(error);
      return true;
    }
    if (text === null) return false;
    void this.#loadSharedRun(text, hash);
    return true;
  }

  /** A run link (`&operations=`, `&at=`: a chaos seed's) reads its own parts, in a chunk only such a link loads. */
  async #loadSharedRun(text: string, hash: string): Promise<void> {
    if (!/[#&](operations|at)=/.test(hash)) return this.loadShared(text, true);
    const generation = this.#generation;
    const { runPartsFromHash } = await import('./embed/shared-run.ts');
    if (generation !== this.#generation) return;
    let run: Omit<SharedRun, 'text'>;
    try {
      run = runPartsFromHash(hash);
    } catch (error) {
      return this.#shareLinkProblem(error);
    }
    await this.loadShared(text, run.atMs === undefined, run);
  }

  #shareLinkProblem(error: unknown): void {
    this.loadProblem = { kind: 'fetch', file: { from: 'share-link' }, reason: { shareLink: error } };
  }

  /** The user picked a bundled scenario: load it, start it, and keep the choice in the URL. */
  async chooseScenario(file: string): Promise<void> {
    this.#rememberInUrl(file);
    await this.#loadFile(file, true);
  }

  /**
   * The API's load() (and a lesson's, with its file as the source and its steps' operator requests):
   * validates, then loads paused at time 0; invalid input rejects and changes nothing.
   */
  async load(input: object | string, source: ScenarioSource = { kind: 'api' }, operations: readonly ScheduledOperation[] = []): Promise<LoadResult> {
    this.#loadsAsked++;
    try {
      return await this.#load(input, source, operations);
    } catch (error) {
      this.#loadsAsked--;
      throw error;
    }
  }

  async #load(input: object | string, source: ScenarioSource, operations: readonly ScheduledOperation[]): Promise<LoadResult> {
    let value: unknown = input;
    if (typeof input === 'string') {
      const parsed = await readScenarioText(input);
      if (!parsed.ok) throw new Error(`The scenario is not valid JSON or YAML; nothing was loaded.\n${formatScenarioErrors(parsed.errors)}`);
      value = parsed.value;
    }
    const validated = validateForPage(value);
    if (!validated.ok) throw new Error(`The scenario is not valid; nothing was loaded.\n${formatScenarioErrors(validated.errors)}`);
    if (validated.scenario.config['state.backend.type'] === 'rocksdb') await this.ensureLsmStorage();
    // The job's set-up (its two simulations, the views of its graph) in a task after the
    // validation's: together they were one long task of the first page (lesson 1 loads here).
    await nextTask();
    this.#generation++;
    this.pause('user');
    this.operations = operations;
    await this.#install(validated.scenario, source, value, false);
    if (!this.#driver) throw new Error(`The scenario could not be started: ${this.runError ?? 'a newer scenario replaced it'}`);
    const untilMs = validated.scenario.run.until_ms;
    return { name: validated.scenario.name, seed: this.#driver.seed, untilMs: untilMs === Infinity ? null : untilMs, notes: validated.notes };
  }

  async #loadFile(file: string, autoStart: boolean): Promise<void> {
    await this.#loadText(SCENARIO_DIR + encodeURIComponent(file), { kind: 'file', file }, file, autoStart);
  }

  /**
   * Loads a scenario from a URL (an embedded playground's `?scenario=`); a bare file name means a
   * bundled scenario. Problems show on the page, as for a bundled file.
   */
  async loadFromUrl(url: string, autoStart: boolean): Promise<void> {
    if (!url.includes('/') && !url.includes(':')) return this.#loadFile(url, autoStart);
    await this.#loadText(url, { kind: 'url', url }, url, autoStart);
  }

  /**
   * Loads scenario text that came in a share link (`#scenario=<base64>`); settles once it is
   * installed (the YAML parser is a lazy chunk), so an embed announces `ready` only after it.
   */
  loadShared(text: string, autoStart: boolean, run: Omit<SharedRun, 'text'> = { operations: [] }): Promise<void> {
    this.#generation++;
    this.pause('user');
    return this.#installText(text, { kind: 'shared' }, { from: 'share-link' }, autoStart, run);
  }

  /**
   * A run link's moment (`&at=<ms>`): the sim runs there and pauses, as a seek does (a live or
   * scale run cannot go to a time: it opens at its start, paused).
   */
  async #openAt(atMs: number): Promise<void> {
    if (this.#driver?.name !== 'sim') return;
    // A seek cancelled by what the user did meanwhile (a pause, a load) leaves the run where it is.
    await this.seek(atMs).catch((error: unknown) => console.warn('The link could not open its run at its time:', error));
  }

  /** How many scenario loads the API, a lesson or the page asked for and did not have refused (see #loadsAsked). */
  get loadsAsked(): number {
    return this.#loadsAsked;
  }

  async #loadText(url: string, source: ScenarioSource, label: string, autoStart: boolean): Promise<void> {
    const generation = ++this.#generation;
    this.pause('user');
    this.source = source;
    let text: string;
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
      // A dev or SPA server answers a missing file with the app's index.html and status 200.
      if (response.headers.get('content-type')?.includes('text/html')) throw new Error('file not found');
      text = await response.text();
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#clearJob();
      this.source = source;
      this.loadProblem = { kind: 'fetch', file: label, reason: errorMessage(error) };
      return;
    }
    if (generation !== this.#generation) return;
    await this.#installText(text, source, label, autoStart);
  }

  /**
   * Resumes the run a reload interrupted, in the live runtime: its scenario and seed, from its
   * latest completed checkpoint (a JobManager failover), running at once.
   */
  async resumeInterruptedRun(): Promise<void> {
    const run = this.interruptedRun;
    if (!run) return;
    this.interruptedRun = null;
    this.#generation++;
    this.pause('user');
    this.driverName = 'live';
    this.#resuming = run;
    await this.#installText(run.scenarioText, { kind: 'api' }, { from: 'interrupted-run' }, true);
    this.#resuming = undefined;
  }

  /** Lets the interrupted run go: the record is forgotten and its storage swept as abandoned. */
  async discardInterruptedRun(): Promise<void> {
    const run = this.interruptedRun;
    if (!run) return;
    this.interruptedRun = null;
    forgetLiveRun(pageRecordStorage(), run.checkpointDatabase);
    await sweepAbandonedRunStorage().catch((error: unknown) => console.warn('Could not delete the storage of the discarded run:', error));
  }

  async #installText(text: string, source: ScenarioSource, label: ScenarioLabel, autoStart: boolean, run: Omit<SharedRun, 'text'> = { operations: [] }): Promise<void> {
    const generation = this.#generation;
    const parsed = await readScenarioText(text);
    // the YAML parser may have loaded meanwhile, and another scenario with it
    if (generation !== this.#generation) return;
    // A file or a share link is a scenario alone (a run link adds its own operator requests): a lesson's end with it.
    this.operations = run.operations;
    const validated = parsed.ok ? validateForPage(parsed.value) : parsed;
    if (!validated.ok) {
      this.#clearJob();
      this.source = source;
      this.loadProblem = { kind: 'invalid', file: label, errors: validated.errors };
      return;
    }
    if (validated.scenario.config['state.backend.type'] === 'rocksdb' && !this.#lsmStorage) {
      await this.ensureLsmStorage();
      if (generation !== this.#generation) return;
    }
    await this.#install(validated.scenario, source, parsed.ok ? parsed.value : null, autoStart);
    if (run.atMs !== undefined && generation === this.#generation) await this.#openAt(run.atMs);
  }

  /** Starts the current scenario again from virtual time 0, keeping running or paused. */
  restart(): void {
    const scenario = this.scenario;
    const source = this.source;
    if (scenario === null || source === null) return;
    // A run that ended by itself was running as far as the user is concerned: it starts again.
    const wasRunning = this.running || this.#ranToItsEnd;
    this.#generation++;
    this.pause('user');
    void this.#install(scenario, source, this.scenarioInput, wasRunning);
  }

  /**
   * Runs the current scenario (with its configuration edits) from time 0 in the other driver,
   * running if it was running. Rejects, and goes back to the driver it had, when the scenario
   * cannot run there (the live runtime's message says why).
   */
  async setDriver(name: DriverName): Promise<void> {
    if (!isDriverName(name)) throw new Error(`Unknown driver ${JSON.stringify(name)}: use 'sim' or 'live'.`);
    if (name === this.driverName) return;
    // Refused before anything changes: the run in the sim goes on where it was.
    // Asked at page start: once answered, without an await, so a later setDriver call cannot overtake this one.
    if (name === 'live' && !(this.#storageGranted ?? (await this.#storageAllowed()))) throw new Error(liveNeedsStorage(this.storageDenied));
    if (name === this.driverName) return;
    const previous = this.driverName;
    this.driverName = name;
    this.#rememberDriverInUrl(name);
    // The scenario running, or the one whose live workers are still starting.
    const scenario = this.scenario ?? this.#booting?.scenario ?? null;
    const source = this.source;
    if (scenario === null || source === null) return;
    const wasRunning = this.running || (this.#booting?.autoStart ?? false);
    const input = this.scenarioInput;
    this.#generation++;
    this.pause('user');
    const generation = this.#generation;
    await this.#install(scenario, source, input, wasRunning);
    if (this.#driver || generation !== this.#generation) return;
    const problem = this.runError ?? 'it did not start';
    this.driverName = previous;
    this.#rememberDriverInUrl(previous);
    await this.#install(scenario, source, input, wasRunning);
    throw new Error(`The scenario cannot run in the '${name}' driver: ${problem}. It runs in '${previous}' again.`);
  }

  /**
   * Restarts the scenario from time 0 with another Flink configuration (`config` as a user
   * writes it: flat or nested keys, Flink value syntax), running if it was running. Invalid
   * configuration changes nothing and comes back as the validator's errors.
   */
  applyConfig(config: unknown): { ok: true; notes: string[]; noteMessages: EngineMessage[] } | { ok: false; errors: ScenarioError[] } {
    const input = this.scenarioInput;
    const source = this.source;
    if (input === null || source === null) return { ok: false, errors: [scenarioError('', message('scenario.not-loaded'))] };
    const candidate = { ...input, config };
    const validated = validateForPage(candidate);
    if (!validated.ok) return validated;
    const wasRunning = this.running;
    this.#generation++;
    this.pause('user');
    void this.#install(validated.scenario, source, candidate, wasRunning);
    return { ok: true, notes: validated.notes, noteMessages: validated.noteMessages };
  }

  #lsmStorage: LsmStorageFactory | undefined;

  /**
   * What a sim run of the loaded scenario takes besides it: wa-sqlite, the run's operator requests,
   * and no IndexedDB (checkpoints and local disks in memory) where the browser denies it storage.
   */
  #simOptions(): ConstructorParameters<typeof SimDriver>[1] {
    return {
      ...(this.#lsmStorage ? { lsmStorage: this.#lsmStorage } : {}),
      ...(this.operations.length > 0 ? { operations: this.operations } : {}),
      ...(this.#storageGranted === false ? { checkpointStorage: false } : {}),
    };
  }

  /** Loads wa-sqlite once; rocksdb scenarios need it before they can be installed. */
  async ensureLsmStorage(): Promise<void> {
    try {
      // a dynamic import: wa-sqlite's glue code stays out of the first paint too, not only its wasm
      this.#lsmStorage ??= await (await import('./playground/storage/wa-sqlite-browser.ts')).browserLsmStorage();
    } catch (error) {
      console.error('wa-sqlite could not be loaded; rocksdb scenarios cannot run:', error);
    }
  }

  /**
   * Runs `scenario` in the chosen driver, paused at time 0 or started (`autoStart`). The sim is
   * ready at once; the live driver first starts its TaskManager workers (`booting`), and a load
   * that came meanwhile wins: the workers of the older one are terminated.
   */
  async #install(scenario: Scenario, source: ScenarioSource, input: unknown, autoStart: boolean): Promise<void> {
    // Asked once, before the first run: which storage a run may use depends on the answer.
    if (this.#storageGranted === undefined) {
      const generation = this.#generation;
      await this.#storageAnswer;
      if (generation !== this.#generation) return;
    }
    // A page asked for live (`?driver=live`) where it cannot run: the sim runs, and the page says why.
    if (this.driverName === 'live' && this.#storageGranted === false) this.driverName = 'sim';
    const pageHadNoRun = this.#driver === null;
    this.#clearJob();
    this.#ranToItsEnd = false;
    this.source = source;
    this.scenarioInput = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
    let driver: SimDriver | SelfRunningDriver;
    // what a later load, restart or change makes stale while this one waits (the live boot, the sim's next task)
    const generation = this.#generation;
    try {
      if (scenario.runtime === 'scale') {
        const started = await this.#startScale(scenario, autoStart);
        if (!started) return;
        driver = started;
      } else if (this.driverName === 'live') {
        this.booting = true;
        this.#booting = { scenario, autoStart };
        // The loaded document as JSON text (valid scenario text): an exported session carries it.
        const scenarioText = this.#resumable && input !== null && typeof input === 'object' ? JSON.stringify(input) : undefined;
        const operations = this.operations.length > 0 ? { operations: this.operations } : {};
        const resume = this.#resuming ? { resume: this.#resuming } : {};
        this.#resuming = undefined;
        const { LivePageDriver } = await import('./playground/drivers/live-page-driver.ts');
        const booted = await LivePageDriver.start(scenario, { speed: this.speed, paused: !autoStart, ...operations, ...resume, ...(scenarioText === undefined ? {} : { scenarioText }) }).finally(() => {
          if (generation !== this.#generation) return;
          this.booting = false;
          this.#booting = null;
        });
        if (generation !== this.#generation) {
          booted.dispose();
          return;
        }
        driver = booted;
      } else {
        // The failure-free reference builds its lead over the first frames, not before the first one.
        driver = new SimDriver(scenario, { ...this.#simOptions(), referenceCatchUp: 'in-frames' });
        // The page's first run (nothing shown yet to clear, so nothing flashes empty): the page's
        // update for it (Svelte's flush of the state below) in a task after the run's set-up; in
        // one task the two made a start-up long task of 50–60 ms on a loaded machine.
        if (pageHadNoRun) {
          await nextTask();
          if (generation !== this.#generation) return void driver.dispose();
        }
      }
    } catch (error) {
      this.runError = errorMessage(error);
      console.warn('The scenario could not be started:', error);
      return;
    }
    this.#driver = driver;
    this.#subscribe(driver);
    const simOptions = this.#simOptions();
    this.timeTravel.reset(driver instanceof SimDriver ? driver : null, () => new SimDriver(scenario, simOptions));
    this.scenario = scenario;
    this.runUntilMs = scenario.run.until_ms;
    this.#refresh(true);
    this.hub.emit({ type: 'load', time: 0, scenario: { name: scenario.name, seed: driver.seed } });
    // Said while the live runtime booted, before this page subscribed to the run's events.
    for (const event of driver.events) if (event.type === 'runtime-notice') this.hub.emit(event);
    if (runsByItself(driver)) this.#scheduleFrame();
    if (autoStart) this.start();
  }

  /** Starts the scale runtime's worker for `scenario` (`booting` meanwhile); undefined when a newer load came first. */
  async #startScale(scenario: Scenario, autoStart: boolean): Promise<ScalePageDriver | undefined> {
    const generation = this.#generation;
    this.booting = true;
    this.#booting = { scenario, autoStart };
    const { ScalePageDriver } = await import('./playground/drivers/scale-page-driver.ts');
    // started held: start() sets the speed once the page follows the run
    const booted = await ScalePageDriver.start(scenario, { speed: this.speed, paused: true, operations: this.operations }).finally(() => {
      if (generation !== this.#generation) return;
      this.booting = false;
      this.#booting = null;
    });
    if (generation === this.#generation) return booted;
    booted.dispose();
    return undefined;
  }

  async #storageAllowed(): Promise<boolean> {
    await this.#storageAnswer;
    return this.#storageGranted === true;
  }

  /** The page wants more (or fewer) per-key rows of the sink comparison. */
  setOutputRowLimit(limit: number): void {
    this.outputRowLimit = limit;
    if (this.#driver) this.output = this.#driver.output(limit);
  }

  /** Follows the driver's job events, and the IndexedDB listing of a sim's checkpoint storage (also while paused). */
  #subscribe(driver: SimDriver | SelfRunningDriver): void {
    const unsubscribeEvents = driver.onEvent((event) => this.#queued.push(event));
    const unsubscribeStorage = driver instanceof SimDriver ? driver.checkpointStorage?.onViewChange(() => {
      if (this.#driver === driver) this.storage = driver.storage();
    }) : undefined;
    this.#unsubscribeDriver = () => {
      unsubscribeEvents();
      unsubscribeStorage?.();
    };
  }

  #clearJob(): void {
    this.#unsubscribeDriver?.();
    this.#unsubscribeDriver = null;
    // A replaced run is cancelled: its checkpoint storage applies Flink's retention, then closes;
    // a live run's workers are terminated.
    void this.#driver?.dispose();
    this.#cancelFrame();
    this.#driver = null;
    this.running = false;
    this.booting = false;
    this.#booting = null;
    this.workers = 0;
    this.#queued = [];
    this.loadProblem = null;
    this.runError = null;
    this.scenario = null;
    this.scenarioInput = null;
    this.topology = null;
    this.taskManagerHealth = [];
    this.metrics = null;
    this.checkpointing = null;
    this.checkpointConfig = null;
    this.events = [];
    this.restores = [];
    this.output = null;
    this.storage = null;
    this.nowMs = 0;
    this.runUntilMs = Number.POSITIVE_INFINITY;
    this.jobStatus = '';
    this.restarts = 0;
    this.effectiveSpeed = 0;
  }

  // ---- the clock ----

  /** Runs the clock; returns why it cannot, if it cannot. */
  start(): string | undefined {
    const driver = this.#driver;
    if (!driver) return this.booting ? 'The run is still starting (live TaskManagers, or the scale runtime\'s worker); try again in a moment.' : NOT_LOADED;
    if (this.runError !== null) return `The simulation stopped with an error: ${this.runError}`;
    if (this.finished) return this.#finishedMessage();
    if (this.running) return undefined;
    this.timeTravel.cancel('start()');
    if (runsByItself(driver)) {
      const problem = driver.run(this.speed);
      if (problem !== undefined) return problem;
    }
    this.running = true;
    this.#ranToItsEnd = false;
    this.#lastFrameTime = null;
    this.#lastFrameNow = driver.now;
    this.#scheduleFrame();
    this.hub.emit({ type: 'start', time: this.nowMs });
    return undefined;
  }

  pause(reason: PauseReason = 'user'): void {
    this.timeTravel.cancel('a pause');
    const driver = this.#driver;
    // A live job goes on (heartbeats, restarts): its frames go on too, to show what happens (and a held scale run's answers to operations).
    if (!runsByItself(driver)) this.#cancelFrame();
    if (!this.running) return;
    this.running = false;
    this.#ranToItsEnd = reason === 'job-ended' || reason === 'run-length';
    this.effectiveSpeed = 0;
    // A paused run compares the sinks at its own time, even in the first second of a run.
    if (driver?.name === 'sim') driver.catchUpReference();
    // a paused page shows the documents and clock of the moment it stopped, not of up to 100 ms before
    if (this.#documentsStale || this.viewNowMs !== this.nowMs) this.#refresh(true);
    if (runsByItself(driver)) driver.hold();
    this.hub.emit({ type: 'pause', time: this.nowMs, reason });
  }

  #scheduleFrame(): void {
    this.#frame ??= requestAnimationFrame(this.#onFrame);
  }

  #cancelFrame(): void {
    if (this.#frame !== null) cancelAnimationFrame(this.#frame);
    this.#frame = null;
  }

  toggleRunning(): void {
    if (this.running) this.pause('user');
    else this.start();
  }

  /** Pauses, then handles one event of the simulation. */
  step(): StepResult | string {
    const driver = this.#driver;
    if (!driver) return NOT_LOADED;
    if (driver.name === 'scale') return STEP_IS_NOT_SCALE;
    if (driver.name === 'live') return STEP_IS_SIM_ONLY;
    this.pause('user');
    if (this.finished) return this.#finishedMessage();
    const handled = this.#guard(() => driver.step());
    this.#afterAdvance(true);
    return { time: driver.now, handled: handled === true };
  }

  /** Advances to `time` as fast as the machine allows, yielding to the page between chunks, then pauses. */
  async runUntil(time: number | string): Promise<StepResult> {
    const target = typeof time === 'string' ? parseDuration(time) : { ok: true as const, ms: time };
    if (!target.ok) throw new Error(`runUntil needs a time in ms or a duration such as "30 s": ${target.message}`);
    if (!Number.isFinite(target.ms) || target.ms < 0) throw new Error(`runUntil needs a finite time of 0 ms or more, got ${String(time)}`);
    const driver = this.#driver;
    if (!driver) throw new Error(NOT_LOADED);
    const until = Math.min(target.ms, this.runUntilMs);
    if (runsByItself(driver)) return this.#runLiveUntil(driver, until);
    this.pause('user');
    const generation = this.#generation;
    while (driver.now < until && !driver.isTerminal && this.runError === null) {
      this.#guard(() => driver.advanceTo(until, performance.now() + 30, () => this.#deliverQueued()));
      this.#afterAdvance(false);
      await nextTask();
      if (generation !== this.#generation) throw new Error('A new scenario was loaded before runUntil reached its time.');
    }
    // What runUntil's caller reads next compares the sinks at the time it asked for.
    driver.catchUpReference();
    this.#afterAdvance(true);
    if (this.runError !== null) throw new Error(`The simulation stopped with an error: ${this.runError}`);
    return { time: driver.now, handled: true };
  }

  /**
   * The live job runs on the wall clock: runUntil starts its clock at the current speed, waits
   * until the job clock reaches `until` (or the job ends), then pauses. It rejects when the
   * clock is paused, or another scenario or driver is loaded, before that.
   */
  async #runLiveUntil(driver: SelfRunningDriver, until: number): Promise<StepResult> {
    const generation = this.#generation;
    const problem = driver.now < until && !driver.isTerminal ? this.start() : undefined;
    if (problem !== undefined) throw new Error(problem);
    while (driver.now < until && !driver.isTerminal && this.runError === null) {
      await new Promise((resolve) => setTimeout(resolve, LIVE_WAIT_POLL_MS));
      if (generation !== this.#generation) throw new Error('A new scenario or driver was loaded before runUntil reached its time.');
      if (!this.running && driver.now < until && !driver.isTerminal) {
        throw new Error(`runUntil(${until} ms) stopped at ${Math.round(driver.now)} ms: the clock was paused.`);
      }
    }
    this.pause('user');
    this.#afterAdvance(true);
    if (this.runError !== null) throw new Error(`The live run stopped with an error: ${this.runError}`);
    return { time: driver.now, handled: true };
  }

  setSpeed(speed: number): string | undefined {
    if (!Number.isFinite(speed) || speed < SPEED_MIN || speed > SPEED_MAX) {
      return `The speed must be a number from ${SPEED_MIN} to ${SPEED_MAX} (virtual ms per wall-clock ms), got ${String(speed)}.`;
    }
    const driver = this.#driver;
    if (runsByItself(driver) && this.running) {
      const problem = driver.run(speed);
      if (problem !== undefined) return problem;
    }
    this.speed = speed;
    return undefined;
  }

  /** Stops the clock; a live run's TaskManager workers are terminated. */
  destroy(): void {
    this.pause('user');
    this.#generation++;
    this.#clearJob();
  }

  #onFrame = (time: number): void => {
    this.#frame = null;
    const driver = this.#driver;
    if (runsByItself(driver)) return this.#onLiveFrame(driver, time);
    if (!this.running || !driver) return;
    const wallDeltaMs = this.#lastFrameTime === null ? 0 : Math.min(time - this.#lastFrameTime, MAX_FRAME_MS);
    this.#lastFrameTime = time;
    const before = driver.now;
    const target = Math.min(before + wallDeltaMs * this.speed, this.runUntilMs);
    const wall = performance.now();
    const budget = this.#refreshDue(wall) ? REFRESH_FRAME_BUDGET_MS : FRAME_BUDGET_MS;
    this.#guard(() => driver.advanceTo(target, wall + budget, () => this.#deliverQueued() && this.running, true));
    if (wallDeltaMs > 0) {
      const reached = (driver.now - before) / wallDeltaMs;
      this.effectiveSpeed = this.effectiveSpeed === 0 ? reached : this.effectiveSpeed * 0.8 + reached * 0.2;
    }
    this.#afterAdvance(false);
    if (this.running) this.#frame = requestAnimationFrame(this.#onFrame);
  };

  /** The live job moved on by itself: follow it, and measure the speed its clock really ran at. */
  #onLiveFrame(driver: SelfRunningDriver, time: number): void {
    const wallDeltaMs = this.#lastFrameTime === null ? 0 : time - this.#lastFrameTime;
    this.#lastFrameTime = time;
    const now = driver.now;
    if (this.running && wallDeltaMs > 0) {
      const reached = (now - this.#lastFrameNow) / wallDeltaMs;
      this.effectiveSpeed = this.effectiveSpeed === 0 ? reached : this.effectiveSpeed * 0.8 + reached * 0.2;
    }
    this.#lastFrameNow = now;
    this.#guard(() => driver.update(performance.now() + FRAME_BUDGET_MS));
    this.#afterAdvance(false);
    if (this.#driver === driver) this.#scheduleFrame();
  }

  /** Runs a call into the engine; an exception there stops the run and is shown. */
  #guard<T>(call: () => T): T | undefined {
    try {
      return call();
    } catch (error) {
      this.runError = errorMessage(error);
      console.error('The simulation stopped with an error:', error);
      this.pause('error');
      return undefined;
    }
  }

  #afterAdvance(forceDocuments: boolean): void {
    this.#deliverQueued();
    this.#refresh(forceDocuments);
    this.hub.emit({ type: 'tick', time: this.nowMs });
    if (this.running && this.finished) this.pause(this.nowMs >= this.runUntilMs ? 'run-length' : 'job-ended');
  }

  /** Delivers queued engine events to the API's subscribers; true to go on. */
  #deliverQueued(): boolean {
    if (this.#queued.length === 0) return true;
    const events = this.#queued;
    this.#queued = [];
    this.#documentsStale = true; // something happened: re-read the documents soon
    for (const event of events) this.hub.emit(event);
    return true;
  }

  /**
   * Whether a frame starting at `wall` will re-read the documents or the sink comparison (while
   * things happen, as at full speed): due by the time a frame with the full budget would end.
   */
  #refreshDue(wall: number): boolean {
    const end = wall + FRAME_BUDGET_MS;
    return end - this.#lastDocumentRefresh >= DOCUMENT_EVENT_REFRESH_MS || end >= this.#nextOutputRefresh;
  }

  #refresh(force: boolean): void {
    const driver = this.#driver;
    if (!driver) return;
    this.nowMs = driver.now;
    this.jobStatus = driver.jobStatus;
    this.restarts = driver.restarts;
    const wall = performance.now();
    const age = wall - this.#lastDocumentRefresh;
    const documents = force || age >= DOCUMENT_REFRESH_MS || (this.#documentsStale && age >= DOCUMENT_EVENT_REFRESH_MS);
    if (documents) {
      this.#lastDocumentRefresh = wall;
      this.#lastViewClock = -Infinity; // the views' clock is never behind the events they draw
      this.#documentsStale = false;
      this.workers = driver.name === 'live' ? taskManagerWorkersRunning() : 0;
      this.topology = driver.topology();
      this.taskManagerHealth = driver.taskManagerHealth();
      this.metrics = driver.metrics();
      this.checkpointing = driver.checkpointing();
      this.checkpointConfig = driver.checkpointConfig();
      this.storage = driver.storage();
      if (driver.events.length !== this.events.length) this.events = driver.events.slice();
      if (driver.restores.length !== this.restores.length) this.restores = driver.restores.slice();
      this.revision++;
    }
    if (force || !this.running || wall - this.#lastViewClock >= VIEW_CLOCK_REFRESH_MS) {
      this.#lastViewClock = wall;
      this.viewNowMs = driver.now;
    }
    // not in the frame that re-rendered the documents' views: the next frame, so neither is a long task
    if (force || (wall >= this.#nextOutputRefresh && !documents)) {
      this.output = driver.output(this.outputRowLimit);
      // A job with very many keys makes the comparison costly: refresh it less often then.
      const cost = performance.now() - wall;
      this.#nextOutputRefresh = wall + Math.max(OUTPUT_REFRESH_MS, cost * 20);
    }
  }

  #finishedMessage(): string {
    return this.nowMs >= this.runUntilMs
      ? `The scenario's run length (${this.runUntilMs} ms) is used up; restart it to run again.`
      : `The job is ${this.jobStatus}; restart the scenario to run again.`;
  }

  // ---- what the dashboard reads on demand ----

  checkpointDetails(id: number): CheckpointStatisticsDocument | undefined {
    void this.revision;
    return this.#driver?.checkpointDetails(id);
  }

  taskCheckpointStatistics(id: number, vertexId: string): TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined {
    void this.revision;
    return this.#driver?.taskCheckpointStatistics(id, vertexId);
  }

  stats(): PlaygroundStats {
    if (!this.#driver) throw new Error(NOT_LOADED);
    return this.#driver.stats();
  }

  /** The live session so far (version, scenario text, seed, recording), for `ckpt-lab replay`. */
  exportSession(): SessionDocument {
    if (!this.#driver) throw new Error(NOT_LOADED);
    if (this.#driver.name !== 'live') throw new Error('exportSession() records live runs; a sim run is replayed from its scenario and seed. Switch with setDriver("live") first.');
    return this.#driver.exportSession();
  }

  currentTopology(): Topology {
    if (!this.#driver) throw new Error(NOT_LOADED);
    return structuredClone(this.#driver.topology());
  }

  // ---- operations ----

  /**
   * Carries out one operation (the Playground API's named calls each build one): the driver's
   * runtime validates and applies it. In sim, one that was done is recorded in the run's history,
   * so time travel replays it. Why it was refused (the JobMaster's refusal as a message code, or
   * an error's message), or undefined when it was done.
   */
  operate(operation: JobOperation): EngineMessage | string | undefined | Promise<EngineMessage | undefined> {
    const driver = this.#driver;
    if (!driver) return NOT_LOADED;
    this.timeTravel.cancel(`an operation (${operation.type})`);
    let problem: EngineMessage | string | undefined | Promise<EngineMessage | undefined>;
    try {
      problem = driver.perform(operation);
    } catch (error) {
      problem = errorMessage(error);
    }
    // the scale runtime's JobMaster answers from its worker: the page shows what it did once it answered
    if (problem instanceof Promise) return problem.finally(() => this.#driver === driver && this.#afterAdvance(true));
    if (problem === undefined && driver instanceof SimDriver) this.timeTravel.record(driver, operation);
    this.#afterAdvance(true);
    return problem;
  }

  #rememberDriverInUrl(driver: DriverName): void {
    const url = new URL(location.href);
    if (driver === 'sim') url.searchParams.delete('driver');
    else url.searchParams.set('driver', driver);
    if (url.href !== location.href) history.replaceState(history.state, '', url);
  }

  // ---- time travel (sim): seek, branches ----

  /** Takes the run to `time` on its branch (replaying from 0 when it lies in the past), then pauses. */
  seek(time: number | string, branchId?: number): Promise<SeekResult> {
    const target = timeArgument('seek', time);
    const driver = this.#driver;
    if (!driver) return Promise.reject(new Error(NOT_LOADED));
    if (driver.name !== 'sim') return Promise.reject(new Error(SEEK_NEEDS_SIM));
    this.timeTravel.cancel(`a later seek to ${target} ms`);
    this.pause('user');
    return this.timeTravel.seek(driver, Math.min(target, this.runUntilMs), branchId);
  }

  branches(): BranchInfo[] {
    if (!this.#driver) throw new Error(NOT_LOADED);
    if (this.#driver.name !== 'sim') throw new Error(SEEK_NEEDS_SIM);
    return this.timeTravel.branchInfo(this.nowMs);
  }

  /** A replayed driver (or the same one after a forward seek) becomes the page's. */
  #adoptDriver(driver: SimDriver, branch: number): void {
    if (driver !== this.#driver) {
      this.#unsubscribeDriver?.();
      // The run it replaces is over: its checkpoint storage applies retention and closes.
      void this.#driver?.dispose();
      this.#driver = driver;
      this.#queued = [];
      this.#subscribe(driver);
      // The lists are refreshed by length; the replayed run's may have the same length and differ.
      this.events = driver.events.slice();
      this.restores = driver.restores.slice();
    }
    this.#afterAdvance(true);
    this.hub.emit({ type: 'seek', time: driver.now, branch });
  }

  #rememberInUrl(file: string): void {
    const url = new URL(location.href);
    if (url.searchParams.get('scenario') === file) return;
    url.searchParams.set('scenario', file);
    history.replaceState(history.state, '', url);
  }
}
