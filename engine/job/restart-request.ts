import type { Scenario } from '../scenario/scenario-types.ts';
import type { CheckpointCoordinator } from '../checkpoint/checkpoint-coordinator.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import { rescaleRefusal } from '../checkpoint/state-assignment.ts';
import type { ClusterTopology } from './cluster-topology.ts';
import type { ExecutionGraph } from './execution-graph.ts';
import type { JobStatus } from './job-status.ts';
import { describeFault, type FaultDetail } from '../run/fault-event.ts';
import { message } from '../messages/engine-message.ts';
import type { EngineMessage } from '../messages/message-codes.ts';

/**
 * The two restarts an operator asks for (Flink: stop the job, then run it again from its state):
 * with another parallelism for one vertex (rescale), or from a savepoint. Both drivers check the
 * request and plan the restart here, so they accept, refuse and describe alike; carrying the plan
 * out (failing over, redeploying) is each driver's own.
 */

/** What a driver does for an accepted restart request. */
export interface RestartPlan {
  /** the state to restore */
  restoreFrom: CompletedCheckpoint;
  /** the job to run from now on, when it changes (a rescale) */
  rescaled?: { scenario: Scenario; keepMaxParallelism: Record<string, number> };
  /** the timeline's entry for the request, as data and as an English line */
  fault: FaultDetail;
  description: string;
  /** the failover's cause */
  cause: string;
}

/** The driver state a restart request is checked against. */
export interface RestartRequestContext {
  scenario: Scenario;
  graph: ExecutionGraph;
  cluster: ClusterTopology;
  coordinator: CheckpointCoordinator;
  jobStatus: JobStatus;
}

/** A rescale of one vertex from the latest restorable state, or why it cannot be done. */
export function planRescale(c: RestartRequestContext, vertexId: string, parallelism: number): RestartPlan | { problem: EngineMessage } {
  const checkpoint = latestRestorable(c.coordinator);
  const problem = rescaleRequestProblem({ ...c, checkpoint, vertexId, parallelism });
  if (problem !== undefined || !checkpoint) return { problem: problem ?? message('refusal.nothing-to-rescale-from') };
  const fault: FaultDetail = { kind: 'rescale', vertex: vertexId, parallelism, checkpointId: checkpoint.id };
  return {
    restoreFrom: checkpoint,
    rescaled: { scenario: rescaledScenario(c.scenario, vertexId, parallelism), keepMaxParallelism: maxParallelismToKeep(c.graph) },
    fault,
    description: describeFault(fault),
    cause: `Rescaling ${vertexId} to ${parallelism}`,
  };
}

/** A restart from a savepoint (the newest when no id is given), or why it cannot be done. */
export function planSavepointRestart(c: RestartRequestContext, savepointId: number | undefined): RestartPlan | { problem: EngineMessage } {
  const request = savepointToRestart(c.coordinator, c.jobStatus, savepointId);
  if ('problem' in request) return request;
  const id = request.savepoint.id;
  const fault: FaultDetail = { kind: 'restart-from-savepoint', savepointId: id };
  return { restoreFrom: request.savepoint, fault, description: describeFault(fault), cause: `Restarting from savepoint ${id}` };
}

/** The state a rescale restores: the latest completed checkpoint, or a newer savepoint. */
function latestRestorable(coordinator: CheckpointCoordinator): CompletedCheckpoint | undefined {
  const checkpoint = coordinator.latestCheckpoint();
  const savepoint = coordinator.savepoints.at(-1);
  if (!savepoint) return checkpoint;
  if (!checkpoint) return savepoint;
  return savepoint.id > checkpoint.id ? savepoint : checkpoint;
}

interface RescaleRequest {
  scenario: Scenario;
  graph: ExecutionGraph;
  cluster: ClusterTopology;
  jobStatus: JobStatus;
  /** what the rescale would restore (latestRestorable) */
  checkpoint: CompletedCheckpoint | undefined;
  vertexId: string;
  parallelism: number;
}

/** Why a rescale cannot be done, or undefined when it can. */
function rescaleRequestProblem(r: RescaleRequest): EngineMessage | undefined {
  const vertex = r.scenario.job.vertices.find((v) => v.id === r.vertexId);
  if (!vertex) return message('refusal.unknown-vertex-of', { vertex: r.vertexId, vertices: r.scenario.job.vertices.map((v) => v.id) });
  const maxP = r.graph.maxParallelismOf(r.vertexId);
  if (!Number.isInteger(r.parallelism) || r.parallelism < 1 || r.parallelism > maxP) {
    return message('refusal.parallelism-range', { max: maxP, vertex: r.vertexId, parallelism: r.parallelism });
  }
  if (r.parallelism > r.cluster.slots.length) return message('refusal.parallelism-slots', { parallelism: r.parallelism, slots: r.cluster.slots.length });
  if (r.jobStatus !== 'RUNNING') return message('refusal.rescale-not-running', { status: r.jobStatus });
  if (!r.checkpoint) return message('refusal.nothing-to-rescale-from');
  const problem = rescaleRefusal(r.checkpoint, r.vertexId, r.parallelism, vertex.operator.type === 'source', r.scenario.job.edges);
  if (problem) return problem;
  const forward = r.scenario.job.edges.find((e) => e.partitioning === 'forward' && (e.from === r.vertexId || e.to === r.vertexId));
  if (forward) return message('refusal.rescale-forward', { vertex: r.vertexId, from: forward.from, to: forward.to });
  return undefined;
}

/** The scenario with the vertex's new parallelism (what the restarted job runs). */
function rescaledScenario(scenario: Scenario, vertexId: string, parallelism: number): Scenario {
  return { ...scenario, job: { ...scenario.job, vertices: scenario.job.vertices.map((v) => (v.id === vertexId ? { ...v, parallelism } : v)) } };
}

/** Every vertex's max parallelism now: Flink keeps it over a rescale, so key groups stay put. */
function maxParallelismToKeep(graph: ExecutionGraph): Record<string, number> {
  return Object.fromEntries(graph.vertices.map((v) => [v.id, graph.maxParallelismOf(v.id)]));
}

/** The savepoint a restart asks for (the newest when no id is given), or why there is none to restart from. */
function savepointToRestart(
  coordinator: CheckpointCoordinator,
  jobStatus: JobStatus,
  savepointId: number | undefined,
): { savepoint: CompletedCheckpoint } | { problem: EngineMessage } {
  const savepoints = coordinator.savepoints;
  const savepoint = savepointId === undefined ? savepoints.at(-1) : savepoints.find((s) => s.id === savepointId);
  if (!savepoint) {
    return { problem: savepointId === undefined ? message('refusal.no-savepoint-yet') : message('refusal.no-such-savepoint', { id: savepointId, savepoints: savepoints.map((s) => s.id) }) };
  }
  if (jobStatus !== 'RUNNING') return { problem: message('refusal.restart-not-running', { status: jobStatus }) };
  return { savepoint };
}
