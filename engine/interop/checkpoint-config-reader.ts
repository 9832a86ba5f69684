/**
 * GET /jobs/:jobid/checkpoints/config (CheckpointConfigInfo). Releases added fields over time; an
 * absent one becomes what the release did without it:
 * - `unaligned_checkpoints`, `checkpoints_after_tasks_finish`, `state_changelog_enabled`: false (the
 *   feature did not exist);
 * - `aligned_checkpoint_timeout`: 0; `tolerable_failed_checkpoints`: 0 (the old
 *   failOnCheckpointingErrors default, true, meant no failure tolerated);
 * - `changelog_periodic_materialization_interval` and `changelog_storage`: Flink's defaults (10 min,
 *   memory);
 * - `state_backend`, `checkpoint_storage`: "unknown" (the release did not say, and the job's own
 *   configuration decided).
 * `mode` is written lower-case by Flink's ProcessingModeSerializer; the enum's own upper-case name
 * is accepted too.
 */
import type { CheckpointConfigDocument } from '../checkpoint/stats/rest-document-types.ts';
import type { JsonObjectReader } from './json-object-reader.ts';

const MODES = ['exactly_once', 'at_least_once'] as const;

/** Flink's default `state.changelog.periodic-materialize.interval`, 10 min in ms. */
const DEFAULT_PERIODIC_MATERIALIZATION_INTERVAL_MS = 600_000;

/** What a release that did not report the state backend or the checkpoint storage is shown with. */
export const UNREPORTED = 'unknown';

export function readCheckpointConfig(config: JsonObjectReader): CheckpointConfigDocument {
  const externalization = config.object('externalization');
  return {
    mode: readMode(config),
    interval: config.integer('interval'),
    timeout: config.integer('timeout'),
    min_pause: config.integer('min_pause'),
    max_concurrent: config.integer('max_concurrent'),
    externalization: {
      enabled: externalization?.boolean('enabled') ?? false,
      delete_on_cancellation: externalization?.boolean('delete_on_cancellation') ?? true,
    },
    state_backend: config.optionalString('state_backend', UNREPORTED),
    checkpoint_storage: config.optionalString('checkpoint_storage', UNREPORTED),
    unaligned_checkpoints: config.optionalBoolean('unaligned_checkpoints', false),
    tolerable_failed_checkpoints: config.integerSince('tolerable_failed_checkpoints', 'tolerable_failed_checkpoints', 0),
    aligned_checkpoint_timeout: config.has('aligned_checkpoint_timeout') ? config.integer('aligned_checkpoint_timeout') : 0,
    checkpoints_after_tasks_finish: booleanSince(config, 'checkpoints_after_tasks_finish'),
    state_changelog_enabled: booleanSince(config, 'state_changelog_enabled'),
    changelog_periodic_materialization_interval: config.has('changelog_periodic_materialization_interval')
      ? config.integer('changelog_periodic_materialization_interval')
      : DEFAULT_PERIODIC_MATERIALIZATION_INTERVAL_MS,
    changelog_storage: config.optionalString('changelog_storage', 'memory'),
  };
}

function readMode(config: JsonObjectReader): CheckpointConfigDocument['mode'] {
  const raw = config.value['mode'];
  const lower = typeof raw === 'string' && MODES.includes(raw.toLowerCase() as never) ? raw.toLowerCase() : raw;
  if (lower !== raw) return lower as CheckpointConfigDocument['mode'];
  return config.oneOf('mode', MODES, 'not-an-allowed-value') ?? 'exactly_once';
}

function booleanSince(config: JsonObjectReader, key: 'checkpoints_after_tasks_finish' | 'state_changelog_enabled'): boolean {
  config.reading.observe(key, config.has(key));
  return config.optionalBoolean(key, false);
}
