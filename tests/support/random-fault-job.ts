import { RandomSource } from '../../engine/sim/random-source.ts';
import type { FaultSpec, Scenario, VertexSpec } from '../../engine/scenario/scenario-types.ts';
import { pipeline, sequenceSource, vertex } from './scenario-builder.ts';

export interface RandomFaultJobOptions {
  mode: 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';
  sink: 'plain' | 'two-phase-commit';
  /** allow unaligned checkpoints (exactly-once only) */
  unaligned?: boolean;
}

/**
 * A bounded job and a fault schedule, both drawn from one seed: the job shape (keyed count,
 * tumbling window, or two-input window join), parallelism, checkpoint interval and alignment,
 * and one to three faults (task failures, TaskManager kills, host losses) at random times.
 * The restart strategy allows enough attempts that the job always finishes.
 */
export function randomFaultJob(seed: number, options: RandomFaultJobOptions): Scenario {
  const random = new RandomSource(seed);
  const p = random.nextInt(1, 3);
  const count = random.nextInt(1500, 5000);
  const rate = random.nextInt(500, 20_000);
  const shape = random.nextInt(0, 2);
  // Operator costs from light to heavier than the sources' rate: backpressure fills the queues,
  // so barriers on different channels arrive far apart and alignment really matters.
  const costUs = random.nextInt(5, 400);
  const sink = vertex('sink', { type: 'sink', sink: options.sink }, p);
  const { vertices, edges } = jobShape(shape, p, count, rate, sink, costUs);
  const intervalMs = random.nextInt(40, 400);
  const unaligned = options.unaligned === true && options.mode === 'EXACTLY_ONCE' && random.nextInt(0, 1) === 1;
  const hosts = random.nextInt(1, 3);
  const base = pipeline(vertices, edges);
  // Under backpressure the job runs longer than count / rate; faults land anywhere in it.
  const runMs = Math.max((count / rate) * 1000, (count * costUs) / 1000);
  return {
    ...base,
    seed,
    name: `random fault job ${seed}`,
    cluster: { hosts, task_managers_per_host: 1, slots_per_task_manager: p },
    config: {
      'execution.checkpointing.interval': intervalMs,
      'execution.checkpointing.mode': options.mode,
      'execution.checkpointing.unaligned.enabled': unaligned,
      'execution.checkpointing.tolerable-failed-checkpoints': 1000,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': 100,
      'restart-strategy.fixed-delay.delay': random.nextInt(10, 300),
    },
    faults: randomFaults(random, runMs, vertices, hosts),
  };
}

function jobShape(shape: number, p: number, count: number, rate: number, sink: VertexSpec, costUs: number) {
  if (shape === 0) {
    return {
      vertices: [vertex('source', sequenceSource(17, rate, count), p), vertex('count', { type: 'keyed-aggregate', aggregate: 'count' }, p, costUs), sink],
      edges: [['source', 'count', 'hash'], ['count', 'sink', 'forward']] as Array<[string, string, 'hash' | 'forward']>,
    };
  }
  if (shape === 1) {
    return {
      vertices: [vertex('source', sequenceSource(11, rate, count), p), vertex('window', { type: 'window', size_ms: 250, aggregate: 'count' }, p, costUs), sink],
      edges: [['source', 'window', 'hash'], ['window', 'sink', 'forward']] as Array<[string, string, 'hash' | 'forward']>,
    };
  }
  return {
    vertices: [
      vertex('left', sequenceSource(7, rate, count), p),
      vertex('right', sequenceSource(7, Math.ceil(rate / 2), Math.ceil(count / 2)), p),
      vertex('join', { type: 'window-join', size_ms: 300 }, p, costUs),
      sink,
    ],
    edges: [['left', 'join', 'hash'], ['right', 'join', 'hash'], ['join', 'sink', 'forward']] as Array<[string, string, 'hash' | 'forward']>,
  };
}

function randomFaults(random: RandomSource, runMs: number, vertices: VertexSpec[], hosts: number): FaultSpec[] {
  const n = random.nextInt(1, 3);
  const faults: FaultSpec[] = [];
  for (let k = 0; k < n; k++) {
    const at_ms = random.nextInt(50, Math.max(60, Math.floor(runMs * 0.9)));
    const kind = random.nextInt(0, 2);
    if (kind === 0) {
      const v = vertices[random.nextInt(0, vertices.length - 1)]!;
      faults.push({ at_ms, type: 'fail-task', vertex: v.id, subtask: random.nextInt(0, v.parallelism - 1) });
    } else if (kind === 1) {
      faults.push({ at_ms, type: 'kill-task-manager', task_manager: `tm-${random.nextInt(0, hosts - 1)}` });
    } else {
      faults.push({ at_ms, type: 'lose-host', host: `host-${random.nextInt(0, hosts - 1)}` });
    }
  }
  return faults.sort((a, b) => a.at_ms - b.at_ms);
}
