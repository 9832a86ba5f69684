/**
 * The Playground API (DESIGN.md, contract 3) over the app's PlaygroundState: `window.playground`
 * in the app, and what the page's own buttons call. Every call returns a Promise; a call that
 * cannot be done rejects with an Error saying why, and changes nothing.
 */
import type { JobOperation } from '../../../engine/job/job-operation.ts';
import { isDriverName, PlaygroundState } from '../../playground-state.svelte.ts';
import { LessonState, lessonSummaries } from '../../lessons/lesson-state.svelte.ts';
import type { DriverName, PlaygroundApi, PlaygroundStatus } from './playground-api-types.ts';
import { CompareState } from '../../compare/compare-state.svelte.ts';
import { comparisonOf } from '../../compare/comparison.ts';
import { parseDuration } from '../../../engine/config/duration.ts';
import type { EngineMessage } from '../../../engine/messages/message-codes.ts';
import { OperationRefused } from './operation-refused.ts';
import { i18n, locales, matchLocale } from '../../i18n/i18n.svelte.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

/** Resolves with the call's value, or rejects with an Error for a thrown error or a returned message. */
async function settle<T>(call: () => T | string | undefined | Promise<T>): Promise<T> {
  const result = await call();
  if (typeof result === 'string') throw new Error(result);
  return result as T;
}

/** undefined when done, else the problem; used for the engine's "refusal or undefined" calls. */
async function done(call: () => EngineMessage | string | undefined | Promise<EngineMessage | undefined>): Promise<void> {
  const problem = await call();
  if (typeof problem === 'string') throw new Error(problem);
  if (problem !== undefined) throw new OperationRefused(problem);
}

function requireString(name: string, value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? undefined : `${name} must be a non-empty string, got ${JSON.stringify(value)}.`;
}

function requireBoolean(name: string, value: unknown): string | undefined {
  return typeof value === 'boolean' ? undefined : `${name} must be true or false, got ${JSON.stringify(value)}.`;
}

function requireFactor(name: string, value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? undefined : `${name} must be a number above 0 (1 = normal), got ${JSON.stringify(value)}.`;
}

function requireInteger(name: string, value: unknown): string | undefined {
  return Number.isInteger(value) ? undefined : `${name} must be an integer, got ${JSON.stringify(value)}.`;
}

/** The optional `{ key_group }` of corruptLocalCopy and deleteLocalCopy: a key group (0 or more) whose key-group handle alone is damaged, as the scenario faults' `key_group`. */
function requireKeyGroupOption(call: string, options: unknown): string | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object') return `${call}: the options must be an object such as { key_group: 64 }, got ${JSON.stringify(options)}.`;
  const keyGroup = (options as { key_group?: unknown }).key_group;
  if (keyGroup === undefined || (Number.isInteger(keyGroup) && (keyGroup as number) >= 0)) return undefined;
  return `${call}: key_group must be a key group (an integer, 0 or more), got ${JSON.stringify(keyGroup)}.`;
}

function keyGroupOf(options: { key_group?: number } | undefined): { key_group?: number } {
  return options?.key_group === undefined ? {} : { key_group: options.key_group };
}

/** Flink's checkpointType of a trigger request; INCREMENTAL is refused as Flink's REST refuses it (FLINK-33723). */
function requireCheckpointType(value: unknown): string | undefined {
  return value === undefined || value === 'CONFIGURED' || value === 'FULL' ? undefined : `checkpointType must be "CONFIGURED" or "FULL", got ${JSON.stringify(value)}.`;
}

function requireFinite(name: string, value: unknown): string | undefined {
  return Number.isFinite(value) ? undefined : `${name} must be a finite number, got ${String(value)}.`;
}

/** compare({ until }): ms, or a Flink duration such as "20 s". */
function untilArgument(until: unknown): number {
  const parsed = typeof until === 'string' ? parseDuration(until) : { ok: true as const, ms: until };
  if (!parsed.ok || typeof parsed.ms !== 'number' || !Number.isFinite(parsed.ms) || parsed.ms < 0) {
    throw new Error(`compare(variation, { until }): until must be a time in ms (0 or more) or a duration such as "20 s", got ${JSON.stringify(until)}.`);
  }
  return parsed.ms;
}

/** compare({ runtime }): 'sim' or 'live'; absent, the page's driver. */
function runtimeArgument(runtime: unknown): DriverName | undefined {
  if (runtime === undefined) return undefined;
  if (isDriverName(runtime)) return runtime;
  throw new Error(`compare(variation, { runtime }): runtime must be 'sim' or 'live', got ${JSON.stringify(runtime)}.`);
}

/**
 * setLanguage(lang): the page in `lang` once its text is in. A switch a later one overtook
 * resolves too (the later one wins); one whose text could not load rejects.
 */
async function switchLanguage(lang: unknown): Promise<void> {
  const locale = typeof lang === 'string' ? matchLocale(lang) : undefined;
  if (!locale) throw new Error(`setLanguage(lang): lang must be one of ${Object.keys(locales).join(', ')}, got ${JSON.stringify(lang)}.`);
  await i18n.setLocale(locale, false);
  if (i18n.requested === locale && i18n.locale !== locale) throw new Error(`setLanguage(lang): the ${locale} text could not be loaded; the playground stays in ${i18n.locale}.`);
}

/** `lessons`: the page's lesson state, so the API and the lesson panel open the same lesson. */
export function createPlaygroundApi(state: PlaygroundState, lessons = new LessonState(state), compare = new CompareState(state)): PlaygroundApi {
  /** The one path of every operation: `build` checks the call's arguments (a message) or builds the JobOperation that PlaygroundState carries out. */
  const operate = (build: () => string | JobOperation) =>
    done(() => {
      const operation = build();
      return typeof operation === 'string' ? operation : state.operate(operation);
    });
  return {
    version: 1,
    load: async (scenario) => {
      await state.ensureLsmStorage();
      return settle(() => {
        if (typeof scenario !== 'string' && (typeof scenario !== 'object' || scenario === null)) {
          return `load() takes a scenario object, or its JSON or YAML text; got ${scenario === null ? 'null' : typeof scenario}.`;
        }
        return state.load(scenario);
      });
    },
    start: () => done(() => state.start()),
    pause: () =>
      done(() => {
        state.pause('user');
        return undefined;
      }),
    step: () => settle(() => state.step()),
    runUntil: (time) => state.runUntil(time),
    setSpeed: (factor) => done(() => state.setSpeed(factor)),
    setLanguage: (lang) => switchLanguage(lang),
    setDriver: async (driver: DriverName) => {
      if (!isDriverName(driver)) throw new Error(`Unknown driver ${JSON.stringify(driver)}: use 'sim' or 'live'.`);
      await state.setDriver(driver);
    },
    status: () =>
      settle<PlaygroundStatus>(() => ({
        driver: state.driverName,
        scenario: state.scenario ? { name: state.scenario.name, seed: state.scenario.seed } : null,
        time: state.nowMs,
        jobStatus: state.jobStatus,
        running: state.running,
        speed: state.speed,
      })),
    topology: () => settle(() => state.currentTopology()),
    killTaskManager: (id) => operate(() => requireString('The TaskManager id', id) ?? { type: 'kill-task-manager', task_manager: id }),
    loseHost: (id) => operate(() => requireString('The host id', id) ?? { type: 'lose-host', host: id }),
    failTask: (vertexId, subtask) =>
      operate(() => requireString('The vertex id', vertexId) ?? requireInteger('The subtask index', subtask) ?? { type: 'fail-task', vertex: vertexId, subtask }),
    slowOperator: (vertexId, factor) =>
      operate(() => requireString('The vertex id', vertexId) ?? requireFinite('The slow-down factor', factor) ?? { type: 'slow-operator', vertex: vertexId, factor }),
    corruptLocalCopy: (host, vertexId, subtask, options) =>
      operate(
        () =>
          requireString('The host', host) ??
          requireString('The vertex id', vertexId) ??
          requireInteger('The subtask', subtask) ??
          requireKeyGroupOption('corruptLocalCopy(host, vertexId, subtask, { key_group })', options) ?? { type: 'corrupt-local-copy', host, vertex: vertexId, subtask, ...keyGroupOf(options) },
      ),
    triggerCheckpoint: (options) =>
      operate(() => requireCheckpointType(options?.checkpointType) ?? { type: 'trigger-checkpoint', ...(options?.checkpointType === 'FULL' ? { checkpoint_type: 'FULL' as const } : {}) }),
    triggerSavepoint: () => operate(() => ({ type: 'trigger-savepoint' })),
    stopWithSavepoint: (options) =>
      operate(() => (options?.drain === undefined ? { type: 'stop-with-savepoint' } : (requireBoolean('stopWithSavepoint({ drain }): drain', options.drain) ?? { type: 'stop-with-savepoint', drain: options.drain }))),
    rescale: (vertexId, parallelism) =>
      operate(() => requireString('The vertex id', vertexId) ?? requireInteger('The parallelism', parallelism) ?? { type: 'rescale', vertex: vertexId, parallelism }),
    stallTaskManager: (id) => operate(() => requireString('The TaskManager id', id) ?? { type: 'stall-task-manager', task_manager: id }),
    deleteLocalCopy: (host, vertexId, subtask, options) =>
      operate(
        () =>
          requireString('The host', host) ??
          requireString('The vertex id', vertexId) ??
          requireInteger('The subtask', subtask) ??
          requireKeyGroupOption('deleteLocalCopy(host, vertexId, subtask, { key_group })', options) ?? { type: 'delete-local-copy', host, vertex: vertexId, subtask, ...keyGroupOf(options) },
      ),
    slowRemoteStorage: (factor) => operate(() => requireFactor('The remote storage slow-down factor', factor) ?? { type: 'slow-remote-storage', factor }),
    failRemoteStorage: (failing) =>
      operate(() => requireBoolean('failRemoteStorage(failing): failing', failing) ?? { type: failing ? 'fail-remote-storage' : 'heal-remote-storage' }),
    restartFromSavepoint: (id) =>
      operate(() => (id === undefined ? { type: 'restart-from-savepoint' } : (requireInteger('The savepoint id', id) ?? { type: 'restart-from-savepoint', savepoint: id }))),
    cancel: () => operate(() => ({ type: 'cancel' })),
    stats: () => settle(() => state.stats()),
    exportSession: () => settle(() => state.exportSession()),
    seek: async (time) => state.seek(time),
    branches: () => settle(() => state.branches()),
    switchBranch: async (id, time) => {
      const problem = requireInteger('The branch id', id);
      if (problem) throw new Error(problem);
      return state.seek(time ?? state.nowMs, id);
    },
    lessons: () => settle(() => lessonSummaries()),
    openLesson: async (id, step = 1) => {
      const problem = requireString('The lesson id', id) ?? requireInteger('The step', step);
      if (problem) throw new Error(problem);
      await state.ensureLsmStorage();
      return lessons.open(id, step - 1);
    },
    lessonProgress: () => settle(() => lessons.progress()),
    compare: async (variation, options) => {
      const until = options?.until === undefined ? undefined : untilArgument(options.until);
      const runtime = runtimeArgument(options?.runtime);
      await compare.openWith(variation, false, runtime);
      if (until !== undefined) await compare.runUntil(until);
      return comparisonOf(compare)!;
    },
    comparison: () => settle(() => comparisonOf(compare)),
    closeCompare: () =>
      done(() => {
        compare.close();
        return undefined;
      }),
    on: (type, callback) => {
      if (typeof callback !== 'function') throw new TypeError('on(type, callback) needs a function as the callback.');
      return state.hub.on(type, callback);
    },
  };
}
