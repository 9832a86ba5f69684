/**
 * Reads the simulated cluster and checks it can run the job. With Flink's default slot sharing one
 * slot holds one subtask of every vertex, so a job needs as many slots as its largest parallelism.
 */

import type { FlinkConfig } from '../config/flink-config.ts';
import type { Issues, ObjectReader } from './field-reader.ts';
import { DEFAULT_CLUSTER } from './scenario-defaults.ts';
import type { ClusterSpec } from './scenario-types.ts';
import { CLUSTER_FIELDS } from './scenario-vocabulary.ts';
import { checkClusterSize, MAX_SLOTS_PER_TASK_MANAGER, MAX_TASK_MANAGERS_PER_HOST, workloadLimits, type WorkloadLimits } from './workload-limits.ts';
import { message } from '../messages/engine-message.ts';

const SLOTS_KEY = 'taskmanager.numberOfTaskSlots';

export function readCluster(
  issues: Issues,
  cluster: ObjectReader | undefined,
  config: Readonly<Record<string, unknown>>,
  flink: FlinkConfig,
  limits: WorkloadLimits = workloadLimits('records'),
): ClusterSpec | undefined {
  cluster?.rejectUnknown(CLUSTER_FIELDS);
  const hosts = cluster ? cluster.integer('hosts', { min: 1, max: limits.hosts, default: DEFAULT_CLUSTER.hosts }) : DEFAULT_CLUSTER.hosts;
  const perHost = cluster
    ? cluster.integer('task_managers_per_host', { min: 1, max: MAX_TASK_MANAGERS_PER_HOST, default: DEFAULT_CLUSTER.task_managers_per_host })
    : DEFAULT_CLUSTER.task_managers_per_host;
  const slots = cluster
    ? cluster.integer('slots_per_task_manager', { min: 1, max: MAX_SLOTS_PER_TASK_MANAGER, default: flink.numberOfTaskSlots })
    : flink.numberOfTaskSlots;
  if (cluster && slots !== undefined && Object.hasOwn(config, SLOTS_KEY) && slots !== flink.numberOfTaskSlots) {
    issues.error(
      cluster.pathOf('slots_per_task_manager'),
      message('cluster.slots-disagree', { slots, key: SLOTS_KEY, configured: flink.numberOfTaskSlots }),
      { allowed: message('allowed.or-leave-out', { value: String(flink.numberOfTaskSlots) }) },
    );
    return undefined;
  }
  if (hosts === undefined || perHost === undefined || slots === undefined) return undefined;
  const spec = { hosts, task_managers_per_host: perHost, slots_per_task_manager: slots };
  checkClusterSize(issues, spec, limits);
  return spec;
}

/** Reports on `cluster` when it has fewer slots than the job's largest vertex parallelism. */
export function checkSlots(issues: Issues, cluster: ClusterSpec, parallelisms: number[]): void {
  const needed = Math.max(0, ...parallelisms);
  const taskManagers = cluster.hosts * cluster.task_managers_per_host;
  const available = taskManagers * cluster.slots_per_task_manager;
  if (needed <= available) return;
  issues.error(
    'cluster',
    message('cluster.too-few-slots', {
      needed,
      available,
      hosts: cluster.hosts,
      perHost: cluster.task_managers_per_host,
      slots: cluster.slots_per_task_manager,
    }),
    { allowed: message('allowed.at-least-slots', { slots: needed }) },
  );
}
