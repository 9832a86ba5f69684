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
import { MODEL_NAME, modelDescription } from './reproduction-messages.ts';
import { modelVertices, type ModelVertex } from './model-vertices.ts';

/** A browser runs the model comfortably within these; a bigger job is scaled down, and says by how much. */
export const MODEL_LIMITS = {
  /** subtasks per vertex */
  maxParallelism: 8,
  /** keys per keyed vertex (its state is this many running counts) */
  maxKeys: 20_000,
  /** source records over the whole run, all source subtasks together */
  maxSourceRecords: 400_000,
  /** completed checkpoints the model runs for, once its state has its size */
  checkpoints: 12,
  /**
   * the smallest share of the state an incremental checkpoint of the model uploads: the model
   * changes that share of its keys per interval, so its state takes 1/share intervals to fill
   */
  minIncrementalShare: 0.05,
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
  const plan = statePlan(imported, shape.vertices, intervalMs, incrementalShare(documents.checkpointConfig, imported));
  const until = plan.runMs + imported.medianDurationMs;
  const document: ScenarioFileDocument = {
    version: 1,
    name: MODEL_NAME,
    description: modelDescription({ intervalMs, vertices: shape.vertices.length, subtasks: imported.subtasks, stateScale: plan.stateScale, parallelismScale: shape.parallelismScale, keys: plan.keys }),
    seed: 1,
    job: { name: 'imported-job-model', vertices: shape.vertices.map((v) => vertexDocument(v, plan)), edges: shape.edges },
    config: { ...checkpointingConfig(documents.checkpointConfig, intervalMs, plan.incrementalShare !== null), 'parallelism.default': shape.widest },
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

/**
 * The share of the state an incremental checkpoint uploads, or null for full checkpoints. The
 * config endpoint does not say whether RocksDB is incremental; a checkpoint smaller than the state it covers does.
 */
function incrementalShare(config: CheckpointConfigDocument | undefined, imported: CheckpointFigures): number | null {
  if (config === undefined || !/rocksdb/i.test(config.state_backend)) return null;
  const share = (imported.medianCheckpointedSizeBytes ?? 0) / imported.medianFullSizeBytes!;
  return share < 1 ? Math.max(MODEL_LIMITS.minIncrementalShare, share) : null;
}

interface StatePlan {
  /** keys of each keyed vertex */
  keys: number;
  /** of the keys, the share updated per interval when checkpoints are incremental */
  incrementalShare: number | null;
  /** how long the model runs: its state fills, then MODEL_LIMITS.checkpoints intervals */
  runMs: number;
  /** records per second per source subtask */
  ratePerS: number;
  stateScale: number;
  /** model bytes one keyed subtask uploads per checkpoint */
  bytesPerSubtask: number;
}

/**
 * Every keyed vertex sees the same key space (the sequence source's keys, each source subtask
 * emitting them in the same order), so the job's full state is split evenly over them. Full
 * checkpoints: every key is updated twice an interval. Incremental ones: the share of the keys
 * the imported checkpoints upload is updated per interval, so the delta has that share's size.
 * Keys and rate stay within the run's record budget.
 */
function statePlan(imported: CheckpointFigures, vertices: readonly ModelVertex[], intervalMs: number, share: number | null): StatePlan {
  const keyed = vertices.filter((v) => v.kind === 'keyed');
  const sourceSubtasks = vertices.filter((v) => v.kind === 'source').reduce((n, v) => n + v.parallelism, 0);
  const updatesPerInterval = share ?? 2;
  const fillIntervals = share === null ? 1 : Math.ceil(1 / share);
  const runMs = intervalMs * (fillIntervals + MODEL_LIMITS.checkpoints + 1);
  // records = keys × updatesPerInterval × intervals of the run, per source subtask
  const affordableKeys = Math.floor(MODEL_LIMITS.maxSourceRecords / (sourceSubtasks * updatesPerInterval * (runMs / intervalMs)));
  const perVertexBytes = imported.medianFullSizeBytes! / Math.max(1, keyed.length);
  const keys = Math.max(1, Math.min(keysForStateBytes(perVertexBytes), MODEL_LIMITS.maxKeys, affordableKeys));
  const modelBytes = stateBytesOfKeys(keys);
  const ratePerS = Math.max(1, Math.ceil((keys * updatesPerInterval * 1000) / intervalMs));
  const keyedParallelism = Math.max(1, keyed[0]?.parallelism ?? 1);
  const uploadedBytes = modelBytes * (share ?? 1);
  return { keys, incrementalShare: share, runMs, ratePerS, stateScale: Math.max(1, perVertexBytes / modelBytes), bytesPerSubtask: uploadedBytes / keyedParallelism };
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
function checkpointingConfig(config: CheckpointConfigDocument | undefined, intervalMs: number, incremental: boolean): Record<string, unknown> {
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
  out['state.backend.type'] = /rocksdb/i.test(config.state_backend) ? 'rocksdb' : 'hashmap';
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
