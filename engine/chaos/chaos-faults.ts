/**
 * The fault profile of a chaos seed: which of the scenario format's fault kinds it uses and how
 * often (a weight per kind, some left out), how many faults, and when — anywhere in the safety
 * phase, near the end of bounded input, or during the restart an earlier fault caused. At the end
 * of the safety phase whatever is still broken is healed (remote storage, slowdowns), in the
 * schedule itself, so the liveness phase runs without faults.
 */
import type { RandomSource } from '../sim/random-source.ts';
import type { FaultSpec } from '../scenario/scenario-types.ts';
import type { TimedOperation } from './chaos-case.ts';
import type { ChaosJob } from './chaos-job.ts';

/** Every fault kind chaos injects: the scenario format's fault types, and the two operator restarts. */
export const CHAOS_FAULT_KINDS = [
  'fail-task',
  'kill-task-manager',
  'lose-host',
  'stall-task-manager',
  'slow-operator',
  'slow-remote-storage',
  'fail-remote-storage',
  'corrupt-local-copy',
  'delete-local-copy',
  'trigger-checkpoint',
  'trigger-savepoint',
  'rescale',
  'restart-from-savepoint',
] as const;
export type ChaosFaultKind = (typeof CHAOS_FAULT_KINDS)[number];

/** Kinds that fail the job over: a fault soon after one of them lands in its restart. */
const FAILOVER_KINDS: ReadonlySet<string> = new Set(['fail-task', 'kill-task-manager', 'lose-host', 'stall-task-manager', 'rescale', 'restart-from-savepoint']);

export interface ChaosFaultPlan {
  faults: FaultSpec[];
  operations: TimedOperation[];
  safetyEndMs: number;
  livenessMs: number;
}

export function chaosFaults(random: RandomSource, job: ChaosJob): ChaosFaultPlan {
  const safetyEndMs = job.bounded ? Math.ceil(job.inputMs * (1 + random.nextFloat())) + 100 : random.nextInt(800, 2500);
  const weights: number[] = CHAOS_FAULT_KINDS.map((kind): number => (random.nextInt(0, 2) === 0 ? 0 : random.nextInt(1, 3)) * (usable(kind, job) ? 1 : 0));
  if (!weights.some((w) => w > 0)) weights[0] = 1;
  const n = random.nextInt(1, 10);
  const faults: FaultSpec[] = [];
  const operations: TimedOperation[] = [];
  let lastFailover: number | undefined;
  for (let k = 0; k < n; k++) {
    const kind = pick(random, weights);
    const at = Math.min(safetyEndMs - 1, faultTime(random, job, safetyEndMs, lastFailover));
    if (FAILOVER_KINDS.has(kind)) lastFailover = at;
    const made = makeFault(random, job, kind, at);
    faults.push(...made.faults);
    // an operator request in the liveness phase would be a fault there: none after the safety phase
    operations.push(...made.operations.map((o) => ({ ...o, at_ms: Math.min(o.at_ms, safetyEndMs - 1) })));
  }
  faults.push(...healing(faults, safetyEndMs));
  const recovery = job.heartbeatTimeoutMs + 4 * job.restartDelayMs + job.intervalMs;
  const livenessMs = job.bounded ? Math.ceil(3 * job.inputMs + 6 * recovery + 3000) : Math.ceil(6 * recovery + 1500);
  return { faults: faults.sort((a, b) => a.at_ms - b.at_ms), operations: operations.sort((a, b) => a.at_ms - b.at_ms), safetyEndMs, livenessMs };
}

function usable(kind: ChaosFaultKind, job: ChaosJob): boolean {
  if (kind === 'lose-host') return job.cluster.hosts > 1;
  if (kind === 'rescale') return job.rescalable;
  // without local backups there is no copy to damage: the fault would only be refused
  if (kind === 'corrupt-local-copy' || kind === 'delete-local-copy') return job.localRecovery;
  return true;
}

function pick(random: RandomSource, weights: number[]): ChaosFaultKind {
  let x = random.nextInt(1, weights.reduce((a, b) => a + b, 0));
  for (let i = 0; i < weights.length; i++) if ((x -= weights[i]!) <= 0) return CHAOS_FAULT_KINDS[i]!;
  return CHAOS_FAULT_KINDS[0];
}

/** Anywhere in the safety phase; near the end of bounded input; or in the restart of the previous failover. */
function faultTime(random: RandomSource, job: ChaosJob, safetyEndMs: number, lastFailover: number | undefined): number {
  const when = random.nextInt(1, 10);
  if (when <= 2 && job.bounded) return Math.max(1, Math.round(job.inputMs * (0.85 + 0.3 * random.nextFloat())));
  if (when <= 4 && lastFailover !== undefined) return lastFailover + random.nextInt(1, job.restartDelayMs + 30);
  return random.nextInt(10, safetyEndMs - 1);
}

function makeFault(random: RandomSource, job: ChaosJob, kind: ChaosFaultKind, at_ms: number): { faults: FaultSpec[]; operations: TimedOperation[] } {
  const one = (f: FaultSpec) => ({ faults: [f], operations: [] });
  const tms = job.cluster.hosts * job.cluster.task_managers_per_host;
  const tm = `tm-${random.nextInt(0, tms - 1)}`;
  const host = `host-${random.nextInt(0, job.cluster.hosts - 1)}`;
  const vertices = Object.keys(job.parallelism);
  const vertex = vertices[random.nextInt(0, vertices.length - 1)]!;
  const subtask = (v: string) => random.nextInt(0, job.parallelism[v]! - 1);
  switch (kind) {
    case 'fail-task':
      return one({ at_ms, type: kind, vertex, subtask: subtask(vertex) });
    case 'kill-task-manager':
    case 'stall-task-manager':
      return one({ at_ms, type: kind, task_manager: tm });
    case 'lose-host':
      return one({ at_ms, type: kind, host });
    case 'slow-operator':
      return one({ at_ms, type: kind, vertex, factor: random.nextInt(2, 20) });
    case 'slow-remote-storage':
      return one({ at_ms, type: kind, factor: random.nextInt(2, 30) });
    case 'fail-remote-storage': {
      // healed after a while, or only when the liveness phase starts
      const heal: FaultSpec[] = random.nextInt(0, 1) === 1 ? [{ at_ms: at_ms + random.nextInt(20, 600), type: 'heal-remote-storage' }] : [];
      return { faults: [{ at_ms, type: kind }, ...heal], operations: [] };
    }
    case 'corrupt-local-copy':
    case 'delete-local-copy':
      return one({ at_ms, type: kind, host, vertex: job.keyed, subtask: subtask(job.keyed) });
    case 'trigger-checkpoint':
    case 'trigger-savepoint':
      return one({ at_ms, type: kind });
    case 'rescale':
      return { faults: [], operations: [{ at_ms, operation: { type: 'rescale', vertex: job.keyed, parallelism: random.nextInt(1, job.slots) } }] };
    case 'restart-from-savepoint':
      // a savepoint first, and the restart from it once it may have completed
      return { faults: [{ at_ms, type: 'trigger-savepoint' }], operations: [{ at_ms: at_ms + random.nextInt(20, 400), operation: { type: 'restart-from-savepoint' } }] };

  }
}

/** At the end of the safety phase: remote storage works, at full speed, and no operator is slowed. */
function healing(faults: readonly FaultSpec[], at_ms: number): FaultSpec[] {
  const out: FaultSpec[] = [];
  if (faults.some((f) => f.type === 'fail-remote-storage')) out.push({ at_ms, type: 'heal-remote-storage' });
  if (faults.some((f) => f.type === 'slow-remote-storage')) out.push({ at_ms, type: 'slow-remote-storage', factor: 1 });
  for (const vertex of new Set(faults.flatMap((f) => (f.type === 'slow-operator' ? [f.vertex] : [])))) out.push({ at_ms, type: 'slow-operator', vertex, factor: 1 });
  return out;
}
