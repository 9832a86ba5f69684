/**
 * The controls' UI state: what the break-things panel has selected (so a keyboard shortcut can
 * act on it too), the feedback line after an action, and the shortcut help dialog. Every action
 * goes through the Playground API, as an embedding page's would.
 */
import type { Topology } from '../../engine/job/topology.ts';
import { i18n, t } from '../i18n/i18n.svelte.ts';
import { liveHosts } from '../job-graph/cluster-health.ts';
import { OperationRefused } from '../playground/api/operation-refused.ts';
import type { PlaygroundApi } from '../playground/api/playground-api-types.ts';
import type { PlaygroundState } from '../playground-state.svelte.ts';

export interface Feedback {
  tone: 'ok' | 'error';
  /** a function, so a success note follows a change of language */
  text: () => string;
}

/** Speeds the page's slider covers, as exponents of ten: 0.1× … 100×. */
export const SPEED_EXPONENT_MIN = -1;
export const SPEED_EXPONENT_MAX = 2;
export const SLOW_FACTORS = [1, 2, 5, 10, 50] as const;

/** The value, or the first of `options` when it is no longer one of them (a killed TaskManager). */
/** A refusal in the reader's language (rendered when shown, so it follows a language switch); any other error as it is. */
function refusalText(error: unknown): () => string {
  if (error instanceof OperationRefused) return () => i18n.engineText(error.problem);
  const message = error instanceof Error ? error.message : String(error);
  return () => message;
}

function valid<T>(value: T | null, options: readonly T[]): T | null {
  return value !== null && options.includes(value) ? value : (options[0] ?? null);
}

export class ControlsState {
  taskManager = $state<string | null>(null);
  host = $state<string | null>(null);
  /** `vertexId#index` */
  task = $state<string | null>(null);
  slowVertex = $state<string | null>(null);
  slowFactor = $state<number>(5);
  rescaleVertex = $state<string | null>(null);
  rescaleParallelism = $state<number>(2);
  remoteFactor = $state<number>(5);
  /** stop-with-savepoint's `--drain` */
  drain = $state(false);
  feedback = $state.raw<Feedback | null>(null);
  helpOpen = $state(false);

  readonly api: PlaygroundApi;
  readonly playground: PlaygroundState;
  #feedbackTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(api: PlaygroundApi, playground: PlaygroundState) {
    this.api = api;
    this.playground = playground;
    // What an action said was about the run it acted on: another load, a restart or a seek ends it.
    playground.hub.on('load', () => this.#clearFeedback());
    playground.hub.on('seek', () => this.#clearFeedback());
  }

  /** The current selection, checked against the running topology. */
  get selected() {
    return this.selection(this.playground.topology);
  }

  /** Selections that still exist in this topology (a lost host is gone). */
  selection(topology: Topology | null) {
    const tms = topology?.taskManagers.map((tm) => tm.id) ?? [];
    const hosts = liveHosts(topology);
    // a scale run offers no subtask to act on (BreakThings), and listing its thousands costs the page
    const tasks = this.playground.scaleRun ? [] : (topology?.subtasks.map((s) => `${s.vertexId}#${s.subtaskIndex}`) ?? []);
    const vertices = topology?.vertices.map((v) => v.id) ?? [];
    const keyed = topology?.vertices.filter((v) => v.type !== 'source').map((v) => v.id) ?? [];
    return {
      taskManager: valid(this.taskManager, tms),
      host: valid(this.host, hosts),
      task: valid(this.task, tasks),
      slowVertex: valid(this.slowVertex, vertices),
      rescaleVertex: valid(this.rescaleVertex, keyed.length > 0 ? keyed : vertices),
    };
  }

  // ---- the break-things actions, shared by the panel's buttons and the keyboard shortcuts ----

  /** The selected TaskManager, or `tm` (the cluster view's button on it). */
  killTaskManager(tm = this.selected.taskManager): void {
    if (tm) void this.act(() => this.api.killTaskManager(tm), () => t('break.done.killTm', { tm }));
  }

  /** The selected host, or `host` (the cluster view's button on it). */
  loseHost(host = this.selected.host): void {
    if (host) void this.act(() => this.api.loseHost(host), () => t('break.done.loseHost', { host }));
  }

  failTask(): void {
    const task = this.selected.task;
    if (!task) return;
    const [vertexId, index] = task.split('#') as [string, string];
    void this.act(() => this.api.failTask(vertexId, Number(index)), () => t('break.done.failTask', { task }));
  }

  slowOperator(): void {
    const vertex = this.selected.slowVertex;
    const factor = this.slowFactor;
    if (!vertex) return;
    const done = () => (factor === 1 ? t('break.done.normalSpeed', { vertex }) : t('break.done.slow', { vertex, factor }));
    void this.act(() => this.api.slowOperator(vertex, factor), done);
  }

  triggerCheckpoint(): void {
    void this.act(() => this.api.triggerCheckpoint(), () => t('break.done.checkpoint'));
  }

  /** Flink 1.19+'s `checkpointType: FULL`: an incremental backend uploads everything once. */
  triggerFullCheckpoint(): void {
    void this.act(() => this.api.triggerCheckpoint({ checkpointType: 'FULL' }), () => t('break.done.fullCheckpoint'));
  }

  /** Flink's stop-with-savepoint, with `--drain` when the box is ticked. */
  stopWithSavepoint(): void {
    const drain = this.drain;
    void this.act(() => this.api.stopWithSavepoint({ drain }), () => t(drain ? 'break.done.stopWithSavepointDrain' : 'break.done.stopWithSavepoint'));
  }

  triggerSavepoint(): void {
    void this.act(() => this.api.triggerSavepoint(), () => t('break.done.savepoint'));
  }

  rescale(): void {
    const vertex = this.selected.rescaleVertex;
    const parallelism = this.rescaleParallelism;
    if (vertex) void this.act(() => this.api.rescale(vertex, parallelism), () => t('break.done.rescale', { vertex, parallelism }));
  }

  /** The selected subtask and the host it runs on: where its task-local copies are. */
  get localCopyTarget(): { task: string; vertexId: string; subtask: number; host: string } | null {
    const task = this.selected.task;
    if (!task) return null;
    const [vertexId, index] = task.split('#') as [string, string];
    const subtask = Number(index);
    const host = this.playground.topology?.subtasks.find((s) => s.vertexId === vertexId && s.subtaskIndex === subtask)?.host;
    return host ? { task, vertexId, subtask, host } : null;
  }

  corruptLocalCopy(): void {
    const target = this.localCopyTarget;
    if (!target) return;
    const { task, vertexId, subtask, host } = target;
    void this.act(() => this.api.corruptLocalCopy(host, vertexId, subtask), () => t('break.done.corrupt', { task, host }));
  }

  deleteLocalCopy(): void {
    const target = this.localCopyTarget;
    if (!target) return;
    const { task, vertexId, subtask, host } = target;
    void this.act(() => this.api.deleteLocalCopy(host, vertexId, subtask), () => t('break.done.deleteLocalCopy', { task, host }));
  }

  stallTaskManager(): void {
    const tm = this.selected.taskManager;
    if (tm) void this.act(() => this.api.stallTaskManager(tm), () => t('break.done.stallTm', { tm }));
  }

  slowRemoteStorage(): void {
    const factor = this.remoteFactor;
    const done = () => (factor === 1 ? t('break.done.normalRemote') : t('break.done.slowRemote', { factor }));
    void this.act(() => this.api.slowRemoteStorage(factor), done);
  }

  failRemoteStorage(failing: boolean): void {
    void this.act(() => this.api.failRemoteStorage(failing), () => t(failing ? 'break.done.failRemote' : 'break.done.healRemote'));
  }

  restartFromSavepoint(): void {
    void this.act(() => this.api.restartFromSavepoint(), () => t('break.done.restartFromSavepoint'));
  }

  /** Cancels the job and says what Flink's retention keeps of its checkpoints. */
  cancel(): void {
    const retention = this.playground.driver?.config.externalizedRetention ?? 'NO_EXTERNALIZED_CHECKPOINTS';
    const retained = retention === 'RETAIN_ON_CANCELLATION';
    void this.act(() => this.api.cancel(), () => t(retained ? 'break.done.cancelRetained' : 'break.done.cancelDeleted', { retention }));
  }

  /** Runs an API call; shows `done` (if any) when it resolves, or the Error's message when it rejects. */
  async act(call: () => Promise<unknown>, done?: () => string): Promise<boolean> {
    try {
      await call();
      if (done) this.#show({ tone: 'ok', text: done });
      return true;
    } catch (error) {
      this.#show({ tone: 'error', text: refusalText(error) });
      return false;
    }
  }

  #clearFeedback(): void {
    if (this.#feedbackTimer !== null) clearTimeout(this.#feedbackTimer);
    this.#feedbackTimer = null;
    this.feedback = null;
  }

  #show(feedback: Feedback): void {
    this.feedback = feedback;
    if (this.#feedbackTimer !== null) clearTimeout(this.#feedbackTimer);
    // Errors stay until the next action; a success note fades after a while.
    this.#feedbackTimer = feedback.tone === 'ok' ? setTimeout(() => (this.feedback = null), 6000) : null;
  }
}
