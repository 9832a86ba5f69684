/**
 * Reads which runtime runs the scenario (`runtime: records | scale`) and, for `scale`, its flows:
 * the keyed state and how it changes (Flink memory sizes: `state_size: 1 tb`,
 * `state_churn_per_s: 2 gb`) and the bandwidths uploads and restore reads share.
 */

import { message } from '../messages/engine-message.ts';
import type { Issues, ObjectReader } from './field-reader.ts';
import { DEFAULT_SCALE } from './scenario-defaults.ts';
import type { RuntimeKind, ScaleSpec } from './scenario-types.ts';
import { RUNTIMES, SCALE_FIELDS } from './scenario-vocabulary.ts';

export function readRuntime(root: ObjectReader): RuntimeKind | undefined {
  return root.oneOf('runtime', RUNTIMES, { default: 'records', what: 'runtime' });
}

/** The `scale` section: defaults for `runtime: scale`; refused for `records`, which would ignore it. */
export function readScale(issues: Issues, root: ObjectReader, runtime: RuntimeKind | undefined): ScaleSpec | undefined {
  if (runtime !== 'scale') {
    if (runtime === 'records' && root.has('scale')) {
      issues.error(root.pathOf('scale'), message('scale.needs-scale-runtime'), { allowed: message('allowed.scale-or-leave-out') });
    }
    return undefined;
  }
  const scale = root.object('scale', 'a scale description');
  if (!scale) return root.has('scale') ? undefined : { ...DEFAULT_SCALE };
  scale.rejectUnknown(SCALE_FIELDS);
  const d = DEFAULT_SCALE;
  const bandwidth = (key: string, fallback: number) => scale.number(key, { min: 0, above: true, default: fallback });
  const read: Record<keyof ScaleSpec, number | undefined> = {
    state_size_bytes: scale.memorySize('state_size', { default: d.state_size_bytes }),
    state_growth_bytes_per_s: scale.memorySize('state_growth_per_s', { default: d.state_growth_bytes_per_s }),
    state_churn_bytes_per_s: scale.memorySize('state_churn_per_s', { default: d.state_churn_bytes_per_s }),
    compaction_bytes_per_s: scale.memorySize('compaction_per_s', { default: d.compaction_bytes_per_s }),
    host_bandwidth_mb_per_s: bandwidth('host_bandwidth_mb_per_s', d.host_bandwidth_mb_per_s),
    remote_store_bandwidth_mb_per_s: bandwidth('remote_store_bandwidth_mb_per_s', d.remote_store_bandwidth_mb_per_s),
  };
  return Object.values(read).every((v) => v !== undefined) ? (read as ScaleSpec) : undefined;
}
