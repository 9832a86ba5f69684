/**
 * The scenario shape of a chaos seed: operators (keyed count or sum, tumbling windows, the
 * two-input window join, a word count), parallelism, cluster, and the Flink configuration
 * (mode, sink, backend, incremental, local recovery, unaligned and the aligned timeout, restart
 * strategy, retention, heartbeats). Jobs stay small (a few hundred records per source subtask
 * when bounded) so that hundreds of seeds run in seconds.
 *
 * An unbounded job runs its operators at most at about 40% of their capacity: a job that is
 * short of capacity never catches up after a failure, in Flink as here, and catching up is what
 * the liveness phase asks.
 */
import type { RandomSource } from '../sim/random-source.ts';

export interface ChaosVertex {
  id: string;
  parallelism: number;
  /** the vertex fields of the scenario file besides id and parallelism */
  fields: Record<string, unknown>;
}

export interface ChaosJob {
  name: string;
  /** file-format vertices */
  vertices: Array<Record<string, unknown>>;
  edges: Array<{ from: string; to: string; partitioning: string }>;
  config: Record<string, string | number | boolean>;
  cluster: { hosts: number; task_managers_per_host: number; slots_per_task_manager: number };
  bounded: boolean;
  /** vertex id → parallelism, sources first */
  parallelism: Record<string, number>;
  sources: string[];
  /** the keyed vertex (count, window, join): the one chaos rescales and damages local copies of */
  keyed: string;
  /** whether `keyed` can be rescaled (no forward edge at either end) */
  rescalable: boolean;
  slots: number;
  /** how long the failure-free job takes, roughly (bounded: its input's length) */
  inputMs: number;
  intervalMs: number;
  heartbeatTimeoutMs: number;
  restartDelayMs: number;
  localRecovery: boolean;
  /** EXACTLY_ONCE with a two-phase-commit sink: the output must equal the failure-free one */
  exactlyOnce: boolean;
}

/**
 * Every shape's output is independent of how its inputs interleave (counts, sums of equal values,
 * window aggregates), so a restarted run's output can be compared with the failure-free one's.
 */
type Shape = 'count' | 'sum' | 'window' | 'filter' | 'join' | 'words';
const SHAPES: readonly Shape[] = ['count', 'sum', 'window', 'filter', 'join', 'words'];

export function chaosJob(random: RandomSource): ChaosJob {
  const shape = SHAPES[random.nextInt(0, SHAPES.length - 1)]!;
  const bounded = random.nextInt(1, 5) > 1;
  const p = random.nextInt(1, 3);
  const rate = bounded ? random.nextInt(1000, 8000) : random.nextInt(200, 1500);
  const count = bounded ? random.nextInt(150, 900) : undefined;
  const rescalable = random.nextInt(0, 1) === 1;
  const keyedP = random.nextInt(1, 3);
  const sinkP = rescalable ? random.nextInt(1, 3) : keyedP;
  const graph = jobGraph(random, shape, { p, rate, count, keyedP, sinkP, rescalable, bounded });
  const slots = 3;
  const hosts = random.nextInt(1, 3);
  const tmsPerHost = random.nextInt(1, 2);
  const intervalMs = random.nextInt(20, 250);
  const heartbeatTimeoutMs = random.nextInt(150, 800);
  const restartDelayMs = random.nextInt(5, 150);
  const localRecovery = random.nextInt(0, 1) === 1;
  const config = flinkConfig(random, { intervalMs, heartbeatTimeoutMs, restartDelayMs, localRecovery });
  return {
    name: `chaos-${shape}`,
    ...graph,
    config,
    exactlyOnce: config['execution.checkpointing.mode'] === 'EXACTLY_ONCE' && graph.sink === 'two-phase-commit',
    cluster: { hosts, task_managers_per_host: tmsPerHost, slots_per_task_manager: Math.ceil(slots / (hosts * tmsPerHost)) },
    bounded,
    rescalable,
    slots,
    inputMs: ((count ?? 0) / rate) * 1000,
    intervalMs,
    heartbeatTimeoutMs,
    restartDelayMs,
    localRecovery,
  };
}

interface GraphOptions {
  p: number;
  rate: number;
  count: number | undefined;
  keyedP: number;
  sinkP: number;
  rescalable: boolean;
  bounded: boolean;
}

function jobGraph(random: RandomSource, shape: Shape, o: GraphOptions) {
  const sink = random.nextInt(1, 10) <= 7 ? 'two-phase-commit' : 'plain';
  const bounds = o.count === undefined ? {} : { count: o.count };
  // per-record cost of the keyed vertex: anything when bounded (backpressure is welcome), at most
  // ~40% busy when not, even if a rescale leaves it one subtask
  const load = o.rate * o.p * (shape === 'words' ? 5 : shape === 'join' ? 1.5 : 1);
  const costUs = o.bounded ? random.nextInt(2, 300) : Math.max(1, Math.min(200, Math.floor((0.4e6 / load) * random.nextFloat())));
  const keyedEdge = { partitioning: 'hash' };
  const sinkEdge = { partitioning: o.rescalable ? (random.nextInt(0, 1) === 1 ? 'rebalance' : 'hash') : 'forward' };
  const keyed = shape === 'join' ? 'join' : shape === 'window' || shape === 'filter' ? 'window' : 'count';
  const vertices: Array<Record<string, unknown>> = [];
  const edges: Array<{ from: string; to: string; partitioning: string }> = [];
  const add = (id: string, parallelism: number, fields: Record<string, unknown>) => vertices.push({ id, parallelism, ...fields });
  const keys = random.nextInt(3, 24);
  if (shape === 'join') {
    add('left', o.p, { type: 'source', source: { kind: 'sequence', keys, rate_per_s: o.rate, ...bounds } });
    add('right', o.p, { type: 'source', source: { kind: 'sequence', keys, rate_per_s: Math.ceil(o.rate / 2), ...(o.count === undefined ? {} : { count: Math.ceil(o.count / 2) }) } });
    add('join', o.keyedP, { type: 'window-join', size: `${random.nextInt(50, 400)} ms`, record_cost_us: costUs });
    edges.push({ from: 'left', to: 'join', ...keyedEdge }, { from: 'right', to: 'join', ...keyedEdge });
  } else if (shape === 'words') {
    add('lines', o.p, { type: 'source', source: { kind: 'lines', lines: ['to be or not to be', 'that is the question'], rate_per_s: o.rate, ...bounds } });
    add('words', o.p, { type: 'map', fn: 'split-words' });
    add('count', o.keyedP, { type: 'keyed-aggregate', aggregate: 'count', record_cost_us: costUs });
    edges.push({ from: 'lines', to: 'words', partitioning: 'forward' }, { from: 'words', to: 'count', ...keyedEdge });
  } else if (shape === 'filter') {
    // random values: only a window's sum is independent of their order
    add('source', o.p, { type: 'source', source: { kind: 'random', keys, skew: random.nextInt(0, 12) / 10, value_min: 1, value_max: 9, rate_per_s: o.rate, ...bounds } });
    add('double', o.p, { type: 'map', fn: 'double' });
    add('big', o.p, { type: 'filter', filter: { fn: 'value-at-least', value: 6 } });
    add('window', o.keyedP, { type: 'window', size: `${random.nextInt(50, 400)} ms`, aggregate: 'sum', record_cost_us: costUs });
    edges.push({ from: 'source', to: 'double', partitioning: 'forward' }, { from: 'double', to: 'big', partitioning: 'rebalance' }, { from: 'big', to: 'window', ...keyedEdge });
  } else if (shape === 'sum') {
    // a running sum of equal values (2 each): its outputs do not depend on arrival order
    add('source', o.p, { type: 'source', source: { kind: 'sequence', keys, rate_per_s: o.rate, ...bounds } });
    add('double', o.p, { type: 'map', fn: 'double' });
    add('count', o.keyedP, { type: 'keyed-aggregate', aggregate: 'sum', record_cost_us: costUs });
    edges.push({ from: 'source', to: 'double', partitioning: 'forward' }, { from: 'double', to: 'count', ...keyedEdge });
  } else {
    add('source', o.p, { type: 'source', source: { kind: 'sequence', keys, rate_per_s: o.rate, ...bounds } });
    if (shape === 'window') add('window', o.keyedP, { type: 'window', size: `${random.nextInt(50, 400)} ms`, aggregate: random.nextInt(0, 1) === 1 ? 'count' : 'sum', record_cost_us: costUs });
    else add('count', o.keyedP, { type: 'keyed-aggregate', aggregate: 'count', record_cost_us: costUs });
    edges.push({ from: 'source', to: keyed, ...keyedEdge });
  }
  add('sink', o.sinkP, { type: 'sink', sink });
  edges.push({ from: keyed, to: 'sink', ...sinkEdge });
  const parallelism = Object.fromEntries(vertices.map((v) => [v.id as string, v.parallelism as number]));
  const sources = vertices.filter((v) => v.type === 'source').map((v) => v.id as string);
  return { vertices, edges, parallelism, sources, keyed, sink };
}

interface ConfigOptions {
  intervalMs: number;
  heartbeatTimeoutMs: number;
  restartDelayMs: number;
  localRecovery: boolean;
}

function flinkConfig(random: RandomSource, o: ConfigOptions): Record<string, string | number | boolean> {
  const exactlyOnce = random.nextInt(1, 10) <= 7;
  const rocksdb = random.nextInt(1, 4) === 1;
  const unaligned = exactlyOnce && random.nextInt(1, 3) === 1;
  const config: Record<string, string | number | boolean> = {
    'execution.checkpointing.interval': `${o.intervalMs} ms`,
    'execution.checkpointing.mode': exactlyOnce ? 'EXACTLY_ONCE' : 'AT_LEAST_ONCE',
    'execution.checkpointing.unaligned.enabled': unaligned,
    // mostly lenient, sometimes tight: a tight one turns checkpoint failures into failovers
    'execution.checkpointing.tolerable-failed-checkpoints': random.nextInt(1, 5) === 1 ? random.nextInt(0, 3) : 1000,
    'execution.checkpointing.num-retained': random.nextInt(1, 3),
    // sometimes short enough that slowed remote storage expires checkpoints, never shorter than a healthy one takes
    'execution.checkpointing.timeout': random.nextInt(1, 4) === 1 ? `${random.nextInt(400, 1500)} ms` : '10 min',
    'heartbeat.interval': `${Math.min(50, o.heartbeatTimeoutMs)} ms`,
    'heartbeat.timeout': `${o.heartbeatTimeoutMs} ms`,
    ...restartStrategy(random, o.restartDelayMs),
  };
  if (unaligned && random.nextInt(0, 1) === 1) config['execution.checkpointing.aligned-checkpoint-timeout'] = `${random.nextInt(0, 60)} ms`;
  if (rocksdb) {
    config['state.backend.type'] = 'rocksdb';
    config['execution.checkpointing.incremental'] = random.nextInt(0, 2) > 0;
    config['state.backend.rocksdb.writebuffer.size'] = '16kb';
  }
  if (o.localRecovery) {
    config['execution.checkpointing.local-backup.enabled'] = true;
    config['execution.state-recovery.from-local'] = true;
  }
  return config;
}

/** Enough attempts that only a job that truly cannot make progress runs out of them. */
function restartStrategy(random: RandomSource, delayMs: number): Record<string, string | number> {
  if (random.nextInt(1, 4) > 1) return { 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': 1000, 'restart-strategy.fixed-delay.delay': `${delayMs} ms` };
  return {
    'restart-strategy.type': 'exponential-delay',
    'restart-strategy.exponential-delay.initial-backoff': `${delayMs} ms`,
    'restart-strategy.exponential-delay.max-backoff': `${delayMs * 4} ms`,
  };
}
