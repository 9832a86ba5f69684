/**
 * "Reproduce in the playground": from a real job's imported checkpoint statistics, a scenario
 * that behaves like it — the same checkpointing configuration, vertices and parallelism, keyed
 * state of the same size, and remote storage costs chosen so that a checkpoint takes as long —
 * so a learner experiments on a model of their own job. What cannot be modelled (record contents,
 * the real operators, the network) the scenario's description says, in en and zh-CN.
 *
 * The result is a scenario *file* document (Flink syntax for durations, as a user writes it), so
 * the CLI can save it as YAML and the page load it as any other scenario; validateScenario accepts it.
 */
import type { CheckpointConfigDocument } from '../checkpoint/stats/rest-document-types.ts';
import type { DoctorDocuments } from '../doctor/doctor-documents.ts';
import { checkpointFigures, type CheckpointFigures } from './checkpoint-figures.ts';
import { keysForStateBytes, stateBytesOfKeys } from './model-state-keys.ts';
import { modelDescription } from './reproduction-messages.ts';
import { modelVertices, type ModelVertex } from './model-vertices.ts';

/** A browser runs the model comfortably within these; a bigger job is scaled down, and says by how much. */
export const MODEL_LIMITS = {
  /** subtasks per vertex */
  maxParallelism: 8,
  /** keys per keyed vertex (its state is this many running counts) */
  maxKeys: 20_000,
  /** source records over the whole run, all source subtasks together */
  maxSourceRecords: 400_000,
  /** completed checkpoints the model runs for */
  checkpoints: 12,
} as const;

/** Flink's Long.MAX_VALUE interval: periodic checkpoints off. Anything beyond JavaScript's safe integers is that. */
const PERIODIC_CHECKPOINTS_OFF = Number.MAX_SAFE_INTEGER;
/** Flink refuses intervals below MINIMAL_CHECKPOINT_TIME (10 ms). */
const MINIMAL_CHECKPOINT_TIME_MS = 10;
/** Time the simulated job spends on a checkpoint besides the upload (barrier travel, acks), ms. */
const MODEL_OVERHEAD_MS = 1;

export interface ReproducedScenario {
  /** the scenario file's content (validateScenario accepts it) */
  document: ScenarioFileDocument;
  /** real state bytes per model state byte (1 when the job fits) */
  stateScale: number;
  /** real parallelism per model parallelism of the widest vertex (1 when it fits) */
  parallelismScale: number;
  /** what the imported statistics said, as the comparison reads them */
  imported: CheckpointFigures;
}

export type ReproduceProblemCode = 'no-completed-checkpoint' | 'no-interval';

export type ReproduceResult = { ok: true; reproduced: ReproducedScenario } | { ok: false; problem: { code: ReproduceProblemCode; field: string } };

export type ScenarioFileDocument = Record<string, unknown>;

export function reproduceScenario(documents: DoctorDocuments): ReproduceResult {
  const imported = checkpointFigures(documents);
  if (imported.medianDurationMs === null || imported.medianFullSizeBytes === null) {
    return { ok: false, problem: { code: 'no-completed-checkpoint', field: '$.history' } };
  }
  const intervalMs = intervalOf(documents.checkpointConfig, imported);
  if (intervalMs === undefined) return { ok: false, problem: { code: 'no-interval', field: '$.interval' } };
  const shape = modelVertices(documents, imported.subtasks ?? 1, MODEL_LIMITS.maxParallelism);
  const plan = statePlan(imported, shape.vertices, intervalMs);
  const until = intervalMs * (MODEL_LIMITS.checkpoints + 1) + imported.medianDurationMs;
  const document: ScenarioFileDocument = {
    version: 1,
    name: 'Model of an imported Flink job',
    description: modelDescription({ intervalMs, vertices: shape.vertices.length, subtasks: imported.subtasks, stateScale: plan.stateScale, parallelismScale: shape.parallelismScale, keys: plan.keys }),
    seed: 1,
    job: { name: 'imported-job-model', vertices: shape.vertices.map((v) => vertexDocument(v, plan)), edges: shape.edges },
    config: { ...checkpointingConfig(documents.checkpointConfig, intervalMs, imported), 'parallelism.default': shape.widest },
    cluster: clusterFor(shape.widest),
    costs: remoteCosts(imported, plan),
    run: { until: `${until} ms` },
  };
  return { ok: true, reproduced: { document, stateScale: plan.stateScale, parallelismScale: shape.parallelismScale, imported } };
}

/** The configured interval; without the config endpoint, the history's median gap between triggers. */
function intervalOf(config: CheckpointConfigDocument | undefined, imported: CheckpointFigures): number | undefined {
  const configured = config?.interval;
  if (configured !== undefined && configured < PERIODIC_CHECKPOINTS_OFF && configured >= MINIMAL_CHECKPOINT_TIME_MS) return configured;
  const gap = imported.medianTriggerGapMs;
  return gap !== null && gap >= MINIMAL_CHECKPOINT_TIME_MS ? gap : undefined;
}

interface StatePlan {
  /** keys of each keyed vertex */
  keys: number;
  /** records per second per source subtask */
  ratePerS: number;
  stateScale: number;
  /** model bytes one keyed subtask uploads per checkpoint */
  bytesPerSubtask: number;
}

/**
 * Every keyed vertex sees the same key space (the sequence source's keys), so the job's full state
 * is split evenly over them. The rate fills every key within the first interval, within the run's record budget.
 */
function statePlan(imported: CheckpointFigures, vertices: readonly ModelVertex[], intervalMs: number): StatePlan {
  const keyed = vertices.filter((v) => v.kind === 'keyed');
  const sources = vertices.filter((v) => v.kind === 'source');
  const sourceSubtasks = sources.reduce((n, v) => n + v.parallelism, 0);
  const runSeconds = (intervalMs * (MODEL_LIMITS.checkpoints + 1)) / 1000;
  const affordableRate = Math.floor(MODEL_LIMITS.maxSourceRecords / (runSeconds * sourceSubtasks));
  const affordableKeys = Math.max(1, Math.floor((affordableRate * intervalMs) / 1000));
  const perVertexBytes = imported.medianFullSizeBytes! / Math.max(1, keyed.length);
  const wantedKeys = keysForStateBytes(perVertexBytes);
  const keys = Math.min(wantedKeys, MODEL_LIMITS.maxKeys, affordableKeys);
  const modelBytes = stateBytesOfKeys(keys);
  const ratePerS = Math.max(1, Math.min(affordableRate, Math.ceil((keys * 1000) / intervalMs) * 2));
  const keyedParallelism = Math.max(1, keyed[0]?.parallelism ?? 1);
  return { keys, ratePerS, stateScale: Math.max(1, perVertexBytes / modelBytes), bytesPerSubtask: modelBytes / keyedParallelism };
}

function vertexDocument(vertex: ModelVertex, plan: StatePlan): Record<string, unknown> {
  const base = { id: vertex.id, name: vertex.name, parallelism: vertex.parallelism };
  switch (vertex.kind) {
    case 'source':
      return { ...base, type: 'source', source: { kind: 'sequence', keys: plan.keys, rate_per_s: plan.ratePerS } };
    case 'keyed':
      return { ...base, type: 'keyed-aggregate', aggregate: 'count' };
    case 'sink':
      return { ...base, type: 'sink', sink: 'plain' };
  }
}

/** Flink's checkpointing options as the config endpoint reports them; Flink's defaults for what it does not. */
function checkpointingConfig(config: CheckpointConfigDocument | undefined, intervalMs: number, imported: CheckpointFigures): Record<string, unknown> {
  const out: Record<string, unknown> = { 'execution.checkpointing.interval': `${intervalMs} ms` };
  if (config === undefined) return out;
  out['execution.checkpointing.timeout'] = `${config.timeout} ms`;
  out['execution.checkpointing.min-pause'] = `${config.min_pause} ms`;
  out['execution.checkpointing.max-concurrent-checkpoints'] = Math.max(1, config.max_concurrent);
  out['execution.checkpointing.mode'] = config.mode === 'at_least_once' ? 'AT_LEAST_ONCE' : 'EXACTLY_ONCE';
  out['execution.checkpointing.unaligned.enabled'] = config.unaligned_checkpoints;
  if (config.unaligned_checkpoints && config.aligned_checkpoint_timeout > 0) out['execution.checkpointing.aligned-checkpoint-timeout'] = `${config.aligned_checkpoint_timeout} ms`;
  out['execution.checkpointing.tolerable-failed-checkpoints'] = config.tolerable_failed_checkpoints;
  out['execution.checkpointing.externalized-checkpoint-retention'] = retention(config.externalization);
  const rocksdb = /rocksdb/i.test(config.state_backend);
  out['state.backend.type'] = rocksdb ? 'rocksdb' : 'hashmap';
  // The config endpoint does not say whether RocksDB is incremental; a checkpoint smaller than the state it covers does.
  const incremental = rocksdb && (imported.medianCheckpointedSizeBytes ?? 0) < (imported.medianFullSizeBytes ?? 0);
  if (incremental) out['execution.checkpointing.incremental'] = true;
  return out;
}

function retention(externalization: CheckpointConfigDocument['externalization']): string {
  if (!externalization.enabled) return 'NO_EXTERNALIZED_CHECKPOINTS';
  return externalization.delete_on_cancellation ? 'DELETE_ON_CANCELLATION' : 'RETAIN_ON_CANCELLATION';
}

/** Slot sharing puts one subtask of each vertex in a slot: the widest vertex sets the slots, spread over up to 4 hosts. */
function clusterFor(widest: number): Record<string, number> {
  const hosts = Math.min(4, widest);
  return { hosts, task_managers_per_host: 1, slots_per_task_manager: Math.ceil(widest / hosts) };
}

/**
 * The upload of one keyed subtask's state takes the imported async phase (or, without subtask
 * details, the median end-to-end duration less the model's own overhead): half of it round trip,
 * half transfer. Scaled-down state gets a bandwidth scaled down with it, so the time stays.
 */
function remoteCosts(imported: CheckpointFigures, plan: StatePlan): Record<string, number> {
  const uploadMs = Math.max(0.2, (imported.medianAsyncMs ?? imported.medianDurationMs! - MODEL_OVERHEAD_MS) - MODEL_OVERHEAD_MS / 2);
  const transferSeconds = uploadMs / 2 / 1000;
  const bandwidth = plan.bytesPerSubtask / 2 ** 20 / transferSeconds;
  return { remote_latency_ms: round(uploadMs / 2), remote_bandwidth_mb_per_s: round(Math.max(bandwidth, 0.001)) };
}

function round(value: number): number {
  return Number(value.toPrecision(4));
}
