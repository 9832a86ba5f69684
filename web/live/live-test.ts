/**
 * A bare page for the live driver, apart from the playground UI: browser tests and people run a
 * scenario on real Web Worker TaskManagers here.
 *
 *   /live/live-test.html?scenario=/scenarios/click-counts.yaml   runs a scenario file at once
 *   /live/live-test.html?speed=2&heartbeat-scale=0.01            options for that run
 *   window.liveTest.start(scenario, options)                     runs a scenario object or text
 *   window.liveDriver                                            the running LiveDriver
 *
 * The page counts the Web Workers it creates by wrapping the Worker constructor, independently of
 * the driver's own count, so a test can check that TaskManagers really are workers.
 */
import type { JobEvent } from '../../engine/run/job-events.ts';
import { parseScenarioText, validateScenario, formatScenarioErrors } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { LiveDriver, type LiveDriverOptions } from '../../workers/live/live-driver.ts';
import { measureChannelCeiling, measureJobPathCeiling, type ChannelCeiling } from './channel-ceiling.ts';
import { replayExportedSession, type ReplayCheck } from './session-replay-check.ts';
import { checkStorageLeaks, type StorageLeaks } from '../../engine/storage/storage-leak-checker.ts';
import { deleteCheckpointDatabase } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { listOpfsFiles } from '../../workers/storage/rocksdb-local-dir.ts';
import { InvariantCheckers } from '../../engine/run/invariants/invariant-checkers.ts';
import type { TaskMessage } from '../../engine/job/task-message.ts';
import type { InvariantViolation } from '../../engine/run/invariants/invariant-checker.ts';
import { runReport } from '../../engine/run/run-report.ts';

/** What the page reports about the run, as plain data for page.evaluate. */
export interface LiveTestStatus {
  time: number;
  jobStatus: string;
  attempt: number;
  restarts: number;
  /** Worker constructor calls on this page since the run started (counted by the page, not the driver) */
  workersCreated: number;
  /** workers terminated on this page since the run started (each counted once) */
  workersTerminated: number;
  taskManagers: Array<{ id: string; host: string }>;
  latestCheckpointId: number | null;
  completedCheckpoints: number;
  failedCheckpoints: number;
  sinkRecords: number;
  events: JobEvent[];
}

/** The live sink against a failure-free sim run of the same scenario and seed (complete outputs once both finished). */
export interface OutputAgainstSim {
  liveStatus: string;
  simStatus: string;
  liveRecords: number;
  simRecords: number;
  duplicates: number;
  missing: number;
  /** keys whose records, sum or last value differ */
  differingKeys: string[];
}

export interface StorageCheck extends StorageLeaks {
  retainedCheckpointIds: number[];
  /** files under the job directory now */
  files: string[];
  storageErrors: string[];
  /** local or remote restores per subtask, over every restore of the run */
  restoreSources: { local: number; remote: number };
}

export interface LiveTestApi {
  start(scenario: object | string, options?: Omit<LiveDriverOptions, 'launchTaskManager'>): Promise<{ name: string; taskManagers: number }>;
  status(): LiveTestStatus;
  compareWithSim(): OutputAgainstSim;
  /**
   * Every invariant checker (engine/run/invariants) fed the run's events so far and judged against
   * a failure-free sim run; `livenessFrom`: the job time the faults stopped (the run must finish).
   */
  checkInvariants(livenessFrom: number): InvariantViolation[];
  /** Disposes the run (if any): its workers are terminated, and its storage deleted once the driver let go of it (`disposed`). */
  dispose(): void;
  /**
   * Resolves once the run disposed last let go of its storage and its checkpoint database is
   * deleted: what went wrong on the way (a directory or database that could not be deleted), []
   * when nothing did.
   */
  disposed(): Promise<string[]>;
  /**
   * Once the JobManager's storage requests are done (and `settleMs` more, for uploads in flight):
   * the leak checker over the job directory in IndexedDB, against the checkpoints the job retains
   * (and, once it ended, its externalized-checkpoint retention).
   */
  checkStorage(settleMs?: number): Promise<StorageCheck>;
  /** Exports the live session, reads it back and replays it in sim; how the replay compares (session-replay-check.ts). */
  replayInSim(): ReplayCheck;
  /** TaskManager workers this page created for the run and did not terminate (0 once it is disposed). */
  workersAlive(): number;
  /** What a run's storage left: IndexedDB databases named after its checkpoint database, and files in its OPFS directory. */
  storageLeft(databaseName: string): Promise<{ databases: string[]; opfsFiles: string[] }>;
  /** Every file under an OPFS directory (paths relative to it) with its bytes; [] when it does not exist. */
  opfsFiles(path: string): Promise<Array<{ path: string; bytes: number }>>;
  /** The raw MessageChannel ceiling between two bare workers, measured on this page (for the bench). */
  channelCeiling(options: { records: number; batch: number }): Promise<ChannelCeiling>;
  /** The raw MessageChannel ceiling along the live bench job's thread boundaries (channel-ceiling.ts), measured on this page. */
  jobPathCeiling(options: { records: number; batch: number; keys: number; parallelism: number }): Promise<ChannelCeiling>;
}

declare global {
  interface Window {
    liveDriver?: LiveDriver;
    liveTest?: LiveTestApi;
  }
}

const counts = { created: 0, terminated: 0 };
const terminated = new WeakSet<Worker>();
const NativeWorker = globalThis.Worker;
globalThis.Worker = class CountedWorker extends NativeWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    counts.created++;
  }

  override terminate(): void {
    if (!terminated.has(this)) counts.terminated++;
    terminated.add(this);
    super.terminate();
  }
};

let scenario: Scenario | undefined;
/** The run's task messages since it started, for the fencing checker (the JobMaster keeps none). */
let taskMessages: TaskMessage[] = [];
/** the teardown of the run disposed last: what went wrong in it */
let disposal: Promise<string[]> = Promise.resolve([]);

/**
 * Each run has its own database: deleted once the driver let go of its storage (its connection
 * closed, the hosts' disks deleted), never before, and never swallowing why it could not be. Only
 * the database's name is held while the deletion waits (it waits for the terminated workers'
 * connections to close): not the driver.
 */
function disposeRun(driver: LiveDriver): Promise<string[]> {
  const database = driver.checkpointStorageSpec.databaseName;
  return teardownProblems(driver).then((problems) => deleteRunDatabase(database, problems));
}

/** Disposes the driver; the storage errors its teardown added. */
async function teardownProblems(driver: LiveDriver): Promise<string[]> {
  const before = driver.storageErrors.length;
  await driver.dispose();
  return driver.storageErrors.slice(before);
}

async function deleteRunDatabase(database: string, problems: string[]): Promise<string[]> {
  try {
    await deleteCheckpointDatabase(database);
    return problems;
  } catch (error) {
    return [...problems, `the checkpoint database ${database} could not be deleted: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`];
  }
}

/**
 * The failure-free reference run: the same job without faults, on the heap backend (the sink's
 * output does not depend on where keyed state lives, and the heap backend is the small reference
 * implementation, independent of the LSM tree under test).
 */
function oracleScenario(s: Scenario): Scenario {
  const config: Scenario['config'] = { ...s.config, 'state.backend.type': 'hashmap' };
  delete config['execution.checkpointing.incremental'];
  return { ...s, config, faults: [] };
}

/** The live run and the failure-free sim run of its scenario and seed, to the end. */
function failureFreeRun(): { driver: LiveDriver; sim: Simulation; scenario: Scenario } {
  const driver = window.liveDriver;
  if (!driver || !scenario) throw new Error('no live run: call liveTest.start(scenario) first');
  const sim = new Simulation(oracleScenario(scenario), { seed: driver.seed });
  sim.runToEnd();
  return { driver, sim, scenario };
}

function readScenario(input: object | string): Scenario {
  let value: unknown = input;
  if (typeof input === 'string') {
    const parsed = parseScenarioText(input);
    if (!parsed.ok) throw new Error(`The scenario does not parse: ${formatScenarioErrors(parsed.errors)}`);
    value = parsed.value;
  }
  const validated = validateScenario(value);
  if (!validated.ok) throw new Error(`The scenario is not valid:\n${formatScenarioErrors(validated.errors)}`);
  return validated.scenario;
}

const api: LiveTestApi = {
  async start(input, options = {}) {
    api.dispose();
    counts.created = 0;
    counts.terminated = 0;
    scenario = readScenario(input);
    const driver = await LiveDriver.start(scenario, { scenarioText: typeof input === 'string' ? input : JSON.stringify(input), ...options });
    window.liveDriver = driver;
    taskMessages = [];
    driver.jobMaster.onTaskMessage((m) => taskMessages.push(m));
    return { name: scenario.name, taskManagers: driver.cluster.taskManagers.length };
  },

  status() {
    const driver = window.liveDriver;
    if (!driver) throw new Error('no live run: call liveTest.start(scenario) first');
    const counts_ = driver.coordinator.stats.checkpointingStatistics().counts;
    return {
      time: driver.now,
      jobStatus: driver.jobStatus,
      attempt: driver.attempt,
      restarts: driver.restarts,
      workersCreated: counts.created,
      workersTerminated: counts.terminated,
      taskManagers: driver.taskManagers,
      latestCheckpointId: driver.coordinator.latestCheckpoint()?.id ?? null,
      completedCheckpoints: counts_.completed,
      failedCheckpoints: counts_.failed,
      sinkRecords: driver.sinkOutput.totalRecords,
      events: structuredClone([...driver.events]),
    };
  },

  compareWithSim() {
    const { driver, sim } = failureFreeRun();
    const live = driver.sinkOutput.perKey();
    const expected = sim.sinkOutput.perKey();
    const keys = new Set([...Object.keys(live), ...Object.keys(expected)]);
    const differingKeys = [...keys].filter((k) => JSON.stringify(live[k]) !== JSON.stringify(expected[k])).sort();
    return {
      liveStatus: driver.jobStatus,
      simStatus: sim.jobStatus,
      liveRecords: driver.sinkOutput.totalRecords,
      simRecords: sim.sinkOutput.totalRecords,
      ...driver.sinkOutput.compareTo(sim.sinkOutput),
      differingKeys,
    };
  },

  checkInvariants(livenessFrom) {
    const { driver, sim, scenario: started } = failureFreeRun();
    const checkers = new InvariantCheckers(driver, { liveness: { from: livenessFrom, bounded: true } });
    checkers.attach(driver, driver.events, taskMessages)();
    const comparison = driver.sinkOutput.compareTo(sim.sinkOutput);
    const finished = driver.jobStatus === 'FINISHED';
    const oracle = {
      ahead: { duplicates: comparison.duplicates },
      reference: { status: sim.jobStatus, checkpointedInLivenessPhase: true },
      ...(finished ? { behind: { perKey: sim.sinkOutput.perKey(), missing: comparison.missing } } : {}),
    };
    return checkers.verdict({ scenario: started, report: runReport(driver, comparison), oracle });
  },

  async checkStorage(settleMs = 0) {
    const driver = window.liveDriver;
    if (!driver) throw new Error('no live run: call liveTest.start(scenario) first');
    await new Promise((r) => setTimeout(r, settleMs));
    await driver.storageIdle();
    const storage = driver.checkpointStorage;
    if (!storage) throw new Error('the run has no checkpoint storage');
    const retainedCheckpointIds = driver.coordinator.store.getAllCheckpoints().map((c) => c.id);
    const status = driver.jobStatus;
    const terminal = status === 'FINISHED' || status === 'CANCELED' || status === 'FAILED';
    // In the JobManager's storage queue: a checkpoint completing during the reads cannot discard
    // one of `retainedCheckpointIds` under them.
    const { leaks, files } = await driver.inStorageQueue(async () => ({
      leaks: await checkStorageLeaks(storage, {
        retainedCheckpointIds,
        ...(terminal ? { termination: { policy: driver.config.externalizedRetention, jobStatus: status } } : {}),
      }),
      files: (await storage.list(`${driver.checkpointStorageSpec.location.checkpointDir}/`)).map((f) => f.path),
    }));
    const subtasks = driver.restores.flatMap((r) => r.subtasks);
    return {
      ...leaks,
      retainedCheckpointIds,
      files,
      storageErrors: [...driver.storageErrors],
      restoreSources: { local: subtasks.filter((s) => s.source === 'local').length, remote: subtasks.filter((s) => s.source === 'remote').length },
    };
  },

  dispose() {
    const driver = window.liveDriver;
    window.liveDriver = undefined;
    if (driver) disposal = disposeRun(driver);
  },

  disposed: () => disposal,

  opfsFiles: (path) => listOpfsFiles(path),

  workersAlive: () => counts.created - counts.terminated,

  async storageLeft(databaseName) {
    const databases = (await indexedDB.databases()).flatMap((d) => (d.name?.startsWith(databaseName) ? [d.name] : []));
    const opfsFiles = (await listOpfsFiles(databaseName)).map((f) => f.path);
    return { databases, opfsFiles };
  },

  channelCeiling: (options) => measureChannelCeiling(options),

  jobPathCeiling: (options) => measureJobPathCeiling(options),

  replayInSim() {
    const driver = window.liveDriver;
    if (!driver) throw new Error('no live run: call liveTest.start(scenario) first');
    return replayExportedSession(driver);
  },
};

window.liveTest = api;

/** Runs the scenario named in the URL, if any, and shows how it goes. */
async function startFromUrl(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const file = params.get('scenario');
  const out = document.getElementById('status');
  if (!file || !out) return;
  const options: Omit<LiveDriverOptions, 'launchTaskManager'> = {};
  if (params.has('speed')) options.speed = Number(params.get('speed'));
  if (params.has('heartbeat-scale')) options.heartbeatScale = Number(params.get('heartbeat-scale'));
  try {
    const response = await fetch(file);
    if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
    await api.start(await response.text(), options);
  } catch (error) {
    out.textContent = error instanceof Error ? error.message : String(error);
    return;
  }
  const show = () => {
    const s = api.status();
    out.textContent =
      `${scenario?.name}: ${s.jobStatus} at ${(s.time / 1000).toFixed(1)} s, attempt ${s.attempt}, ` +
      `${s.completedCheckpoints} checkpoints completed, ${s.sinkRecords} sink records, ` +
      `TaskManagers ${s.taskManagers.map((t) => `${t.id}@${t.host}`).join(' ')} (${s.workersCreated} workers started)`;
  };
  show();
  setInterval(show, 250);
}

void startFromUrl();
