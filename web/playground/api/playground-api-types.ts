/**
 * The Playground API (DESIGN.md, contract 3): what `window.playground` offers a page, a test or
 * an embedding document. Types only; the implementation is playground-api.ts.
 *
 * Every call returns a Promise; a call that cannot be carried out rejects with an Error whose
 * message says why (the engine's own words where it has them).
 */
import type { SessionDocument } from '../../../engine/replay/session-document.ts';
import type { CheckpointConfigDocument, CheckpointingStatisticsDocument, CheckpointStatisticsDocument } from '../../../engine/checkpoint/stats/rest-document-types.ts';
import type { Topology } from '../../../engine/job/topology.ts';
import type { JobEvent } from '../../../engine/run/job-events.ts';
import type { RunReport } from '../../../engine/run/run-report.ts';
import type { CompareDifference } from '../../../engine/compare/compare-differences.ts';
import type { CompareFigures } from '../../../engine/compare/compare-figures.ts';
import type { CompareVariation } from '../../../engine/compare/compare-variation.ts';

export type { Topology } from '../../../engine/job/topology.ts';
export type { JobEvent, RestoreRecord, SubtaskRestore } from '../../../engine/run/job-events.ts';

/**
 * `sim`: the deterministic simulator on a virtual clock. `live`: the same engine with each
 * TaskManager a Web Worker, checkpoints in IndexedDB, on the wall clock (step() is sim-only).
 */
export type DriverName = 'sim' | 'live';

/**
 * The CLI's `ckpt-lab run --json` document for the run so far: the same keys and shapes
 * (RunReport), with the Flink REST documents typed. `output.duplicates` and `output.missing` are
 * counted against a failure-free run of the same scenario and seed at the same virtual time.
 */
export interface PlaygroundStats extends RunReport {
  checkpoints: CheckpointingStatisticsDocument;
  /** as the CLI prints it: interval 9223372036854775807 (Long.MAX_VALUE) when periodic checkpoints are off */
  checkpointConfig: CheckpointConfigDocument;
  checkpointDetails: Record<string, CheckpointStatisticsDocument>;
}

/** Why the clock stopped. */
export type PauseReason = 'user' | 'run-length' | 'job-ended' | 'error';

/** What `on(type, callback)` reports: the engine's job events, plus the playground's own. */
export type PlaygroundEvent =
  | JobEvent
  | { type: 'load'; time: number; scenario: { name: string; seed: number } }
  | { type: 'start'; time: number }
  | { type: 'pause'; time: number; reason: PauseReason }
  /** the virtual clock moved: at most once per animation frame while running, and after step() */
  | { type: 'tick'; time: number }
  /** a seek (sim time travel) arrived: the run is now at `time` on branch `branch`, paused */
  | { type: 'seek'; time: number; branch: number };

export type PlaygroundEventType = PlaygroundEvent['type'];

/** The event delivered for a subscription: one type, or `'*'` for every event. */
export type PlaygroundEventOf<T extends PlaygroundEventType | '*'> = T extends '*'
  ? PlaygroundEvent
  : Extract<PlaygroundEvent, { type: T }>;

export interface LoadResult {
  name: string;
  seed: number;
  /** the scenario's `run.until` in ms; null when it runs until the job finishes */
  untilMs: number | null;
  /** what validation noticed but accepted (deprecated option keys rewritten, …) */
  notes: string[];
}

export interface StepResult {
  /** virtual time after the step, ms */
  time: number;
  /** false when nothing was left to do */
  handled: boolean;
}

/** Where a seek() or switchBranch() took the run. */
export interface SeekResult {
  /** virtual time reached, ms (earlier than asked when the job ended before it) */
  time: number;
  /** the branch the run is on */
  branch: number;
}

/** One branch of a sim run's history: the operations the user applied, each at its exact point. */
export interface BranchInfo {
  id: number;
  /** the branch it was forked from (by acting at a past point); null for the first */
  parentId: number | null;
  /** virtual time it was forked at, ms */
  forkTime: number;
  /** the furthest virtual time the run got to on this branch, ms */
  reachedMs: number;
  current: boolean;
  /** oldest first: virtual time, events handled before it, and the operation (types as the scenario's `faults[].type`) */
  operations: RecordedOperation[];
}

/** An operation of a branch, at the exact point of the run it was applied at. */
export interface RecordedOperation {
  /** virtual time, ms */
  time: number;
  /** simulation events handled before it */
  handledEvents: number;
  operation: SimOperation;
}

/**
 * An operation as `branches()` reports it. The history records the engine's JobOperation; this
 * is the field naming version 1 of the API published (vertexId, taskManager, failing, …), kept
 * for callers that read it (branch-operation.ts converts).
 */
export type SimOperation =
  | { type: 'kill-task-manager'; taskManager: string }
  | { type: 'lose-host'; host: string }
  | { type: 'fail-task'; vertexId: string; subtask: number }
  | { type: 'slow-operator'; vertexId: string; factor: number }
  | { type: 'stall-task-manager'; taskManager: string }
  | { type: 'corrupt-local-copy'; host: string; vertexId: string; subtask: number; run?: string }
  | { type: 'delete-local-copy'; host: string; vertexId: string; subtask: number; run?: string }
  | { type: 'slow-remote-storage'; factor: number }
  | { type: 'fail-remote-storage'; failing: boolean }
  | { type: 'trigger-checkpoint'; checkpointType?: 'FULL' }
  | { type: 'trigger-savepoint' }
  | { type: 'rescale'; vertexId: string; parallelism: number }
  | { type: 'restart-from-savepoint'; savepointId?: number }
  | { type: 'cancel' }
  | { type: 'stop-with-savepoint'; drain?: boolean };

/** One text in every language a lesson is written in. */
export type LessonText = { en: string; 'zh-CN': string };

/** What `lessons()` lists per lesson. */
export interface LessonSummary {
  /** for `openLesson(id)` and links */
  id: string;
  title: LessonText;
  steps: { title: LessonText }[];
}

export interface OpenLessonResult {
  id: string;
  /** the step opened, from 1 */
  step: number;
  /** how many steps the lesson has */
  steps: number;
  /** the lesson's scenario as loaded (with the actions of the steps before `step`) */
  scenario: LoadResult;
}

export interface LessonProgress {
  id: string;
  /** the step the learner is on, from 1 */
  step: number;
  /** per step: seen on a run of the lesson (kept in the browser) */
  seen: boolean[];
}

export interface PlaygroundStatus {
  driver: DriverName;
  scenario: { name: string; seed: number } | null;
  /** virtual time, ms */
  time: number;
  /** Flink's JobStatus: CREATED, RUNNING, RESTARTING, FAILING, FAILED, FINISHED, … */
  jobStatus: string;
  running: boolean;
  speed: number;
}

export interface PlaygroundApi {
  /** The API's version; grows compatibly. */
  readonly version: 1;
  /** Validates and loads a scenario (an object, or JSON or YAML text), paused at time 0. */
  load(scenario: object | string): Promise<LoadResult>;
  /** Runs the virtual clock at the current speed. */
  start(): Promise<void>;
  pause(): Promise<void>;
  /** Pauses, then handles exactly one event of the simulation (sim only: rejects in live). */
  step(): Promise<StepResult>;
  /**
   * Advances job time to `time` (ms, or a Flink duration such as "30 s"), then pauses: in sim as
   * fast as possible, in live at the current speed on the wall clock.
   */
  runUntil(time: number | string): Promise<StepResult>;
  /** Virtual ms per wall-clock ms, from 0.01 to 1000. */
  setSpeed(factor: number): Promise<void>;
  /**
   * Switches the playground's language to `lang` (`en` or `zh-CN`; another tag of those languages,
   * such as `zh` or `en-GB`, as the embed's `lang` parameter takes it), once its text is in: the
   * page, and the scenario's name and description where the file carries them in that language.
   * A script's choice, not the reader's: it is not remembered across reloads. Rejects for a
   * language the playground has no text in, naming the ones it has.
   */
  setLanguage(lang: string): Promise<void>;
  /** Reloads the current scenario (with its configuration edits) in that driver, from time 0; rejects and keeps the old driver when the scenario cannot run there. */
  setDriver(driver: DriverName): Promise<void>;
  status(): Promise<PlaygroundStatus>;
  topology(): Promise<Topology>;
  killTaskManager(id: string): Promise<void>;
  loseHost(id: string): Promise<void>;
  failTask(vertexId: string, subtask: number): Promise<void>;
  slowOperator(vertexId: string, factor: number): Promise<void>;
  /**
   * Corrupts a subtask's task-local copies on a host: its next restore there reads remote storage.
   * `key_group` (as the scenario fault's): only the key-group handle holding that key group, so
   * the restore mixes its intact local handles with the remote copy of that one.
   */
  corruptLocalCopy(host: string, vertexId: string, subtask: number, options?: { key_group?: number }): Promise<void>;
  /** A manual checkpoint (Flink's POST /jobs/:id/checkpoints); `checkpointType: 'FULL'` makes an incremental backend upload all its state for this one. */
  triggerCheckpoint(options?: { checkpointType?: 'CONFIGURED' | 'FULL' }): Promise<void>;
  triggerSavepoint(): Promise<void>;
  /** Flink's stop-with-savepoint (POST /jobs/:id/stop): a synchronous savepoint, the sink commits what it covers, the job ends FINISHED; `drain` first fires every event-time window. Rejects unless the job is RUNNING. */
  stopWithSavepoint(options?: { drain?: boolean }): Promise<void>;
  rescale(vertexId: string, parallelism: number): Promise<void>;
  /** The TaskManager stops answering but is not dead (a long GC pause): its tasks fail after `heartbeat.timeout`. */
  stallTaskManager(id: string): Promise<void>;
  /** Deletes a subtask's task-local copies on a host: its next restore there reads remote storage. `key_group`: only the key-group handle holding it (the copy stays, partial). */
  deleteLocalCopy(host: string, vertexId: string, subtask: number, options?: { key_group?: number }): Promise<void>;
  /** Remote checkpoint storage uploads and downloads take `factor` times longer (1 = normal again). */
  slowRemoteStorage(factor: number): Promise<void>;
  /** Remote checkpoint storage fails every request (`true`: checkpoints fail with an IO error) or works again (`false`). */
  failRemoteStorage(failing: boolean): Promise<void>;
  /** Restarts the job from savepoint `id`, or from the newest savepoint when no id is given. */
  restartFromSavepoint(id?: number): Promise<void>;
  /** Cancels the job (CANCELED); completed checkpoints stay only with RETAIN_ON_CANCELLATION. */
  cancel(): Promise<void>;
  stats(): Promise<PlaygroundStats>;
  /** The live run so far as a session document (version, scenario text, seed, recording) that `ckpt-lab replay` replays in sim; rejects in sim. */
  exportSession(): Promise<SessionDocument>;
  /**
   * Sim time travel: takes the run to `time` (ms or a Flink duration, capped at `run.until`) on its
   * branch and pauses. Back in time it replays the scenario and the recorded operations from 0
   * (deterministic: the same run, event for event); forward it plays the rest of the branch, then
   * simply runs. Acting at a past point starts a new branch. Rejects in live mode, and when a later
   * seek, a pause, a load or an operation cancels it.
   */
  seek(time: number | string): Promise<SeekResult>;
  /** The branches of the sim run's history (sim only). */
  branches(): Promise<BranchInfo[]>;
  /** Goes to branch `id` at the current time (or at `time`), replaying it from 0 (sim only). */
  switchBranch(id: number, time?: number | string): Promise<SeekResult>;
  /** The guided lessons: id, title and step titles in every language each has. */
  lessons(): Promise<LessonSummary[]>;
  /**
   * Opens lesson `id` at `step` (from 1; default 1): loads its scenario, with the actions of the
   * steps before `step` applied, paused at time 0. Rejects for an unknown lesson or step.
   */
  openLesson(id: string, step?: number): Promise<OpenLessonResult>;
  /** The open lesson's step and which steps were seen; null when no lesson is open. */
  lessonProgress(): Promise<LessonProgress | null>;
  /**
   * Compare mode: the loaded scenario run twice with its seed, once per side of `variation`
   * (`full-vs-incremental`, `aligned-vs-unaligned`, `local-recovery`, `min-pause`,
   * `heap-vs-rocksdb-timers`), on one time axis, paused at 0; with `until` (ms or a Flink
   * duration) both run to that time first. `runtime` ('sim' or 'live'; default: the page's
   * driver): in the sim both share one virtual clock; live, each side is a real live run (its own
   * TaskManager workers and databases), both job clocks started together. Resolves with the
   * comparison; rejects for an unknown variation or a scenario without periodic checkpoints,
   * naming the field and what is allowed, and live when the machine cannot hold two live runs.
   */
  compare(variation: CompareVariation, options?: { until?: number | string; runtime?: DriverName }): Promise<Comparison>;
  /** The open comparison at the shared clock's time; null when compare mode is closed. */
  comparison(): Promise<Comparison | null>;
  /** Closes compare mode (its two runs end); the page's own run is as it was, paused. */
  closeCompare(): Promise<void>;
  /** Subscribes to one event type, or `'*'` for all; returns the unsubscribe function. */
  on<T extends PlaygroundEventType | '*'>(type: T, callback: (event: PlaygroundEventOf<T>) => void): () => void;
}

/** What `compare()` and `comparison()` report. */
export interface Comparison {
  variation: CompareVariation;
  /** the runtime both sides ran in */
  runtime: DriverName;
  /**
   * below which a difference is not called out: `relative`, a share of the larger value (0.1 in
   * the sim, 0.25 live), and for durations `absoluteMs` (0 in the sim, 100 live: runs vary by
   * chance); in every runtime a difference must also reach the figure's smallest difference that
   * matters (10 ms, 1 KiB, 2 completed checkpoints: MATERIAL_DIFFERENCE in engine/compare/compare-differences.ts)
   */
  noise: { relative: number; absoluteMs: number };
  /** the shared clock, virtual ms */
  time: number;
  /** per side: the Flink options it sets over the scenario's configuration, and its key figures (ms, bytes, counts; null where nothing was measured) */
  a: ComparisonSide;
  b: ComparisonSide;
  /** the differences worth calling out, largest relative difference first, each with `text`: the sentence the page shows, in its language */
  differences: (CompareDifference & { text: string })[];
}

export interface ComparisonSide {
  name: string;
  /** this run's virtual time, ms: the shared clock's once both reached it */
  time: number;
  options: Record<string, string | number | boolean>;
  figures: { [F in keyof CompareFigures]: number | null };
}
