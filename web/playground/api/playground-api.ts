/**
 * The Playground API (DESIGN.md, contract 3) over the app's PlaygroundState: `window.playground`
 * in the app, and what the page's own buttons call. Every call returns a Promise; a call that
 * cannot be done rejects with an Error saying why, and changes nothing.
 */
import { isDriverName, PlaygroundState } from '../../playground-state.svelte.ts';
import type { DriverName, PlaygroundApi, PlaygroundStatus } from './playground-api-types.ts';

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

/** undefined when done, else the message; used for the engine's "error string or undefined" calls. */
async function done(call: () => string | undefined): Promise<void> {
  const problem = call();
  if (problem !== undefined) throw new Error(problem);
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

export function createPlaygroundApi(state: PlaygroundState): PlaygroundApi {
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
    killTaskManager: (id) => done(() => requireString('The TaskManager id', id) ?? state.killTaskManager(id)),
    loseHost: (id) => done(() => requireString('The host id', id) ?? state.loseHost(id)),
    failTask: (vertexId, subtask) =>
      done(() => requireString('The vertex id', vertexId) ?? requireInteger('The subtask index', subtask) ?? state.failTask(vertexId, subtask)),
    slowOperator: (vertexId, factor) =>
      done(() => requireString('The vertex id', vertexId) ?? state.slowOperator(vertexId, factor)),
    corruptLocalCopy: (host, vertexId, subtask) =>
      done(() => requireString('The host', host) ?? requireString('The vertex id', vertexId) ?? requireInteger('The subtask', subtask) ?? state.corruptLocalCopy(host, vertexId, subtask)),
    triggerCheckpoint: () => done(() => state.triggerCheckpoint()),
    triggerSavepoint: () => done(() => state.triggerSavepoint()),
    rescale: (vertexId, parallelism) =>
      done(() => requireString('The vertex id', vertexId) ?? requireInteger('The parallelism', parallelism) ?? state.rescale(vertexId, parallelism)),
    stallTaskManager: (id) => done(() => requireString('The TaskManager id', id) ?? state.stallTaskManager(id)),
    deleteLocalCopy: (host, vertexId, subtask) =>
      done(() => requireString('The host', host) ?? requireString('The vertex id', vertexId) ?? requireInteger('The subtask', subtask) ?? state.deleteLocalCopy(host, vertexId, subtask)),
    slowRemoteStorage: (factor) => done(() => requireFactor('The remote storage slow-down factor', factor) ?? state.slowRemoteStorage(factor)),
    failRemoteStorage: (failing) => done(() => requireBoolean('failRemoteStorage(failing): failing', failing) ?? state.failRemoteStorage(failing)),
    restartFromSavepoint: (id) =>
      done(() => (id === undefined ? undefined : requireInteger('The savepoint id', id)) ?? state.restartFromSavepoint(id)),
    cancel: () => done(() => state.cancel()),
    stats: () => settle(() => state.stats()),
    exportSession: () => settle(() => state.exportSession()),
    seek: async (time) => state.seek(time),
    branches: () => settle(() => state.branches()),
    switchBranch: async (id, time) => {
      const problem = requireInteger('The branch id', id);
      if (problem) throw new Error(problem);
      return state.seek(time ?? state.nowMs, id);
    },
    on: (type, callback) => {
      if (typeof callback !== 'function') throw new TypeError('on(type, callback) needs a function as the callback.');
      return state.hub.on(type, callback);
    },
  };
}
