/**
 * The Flink releases whose checkpoint REST documents the importer reads, and the fields each
 * release's REST handlers added. A document's shape (which of these fields it carries) tells which
 * releases could have written it.
 *
 * Where each `since` comes from (apache/flink pull requests, merged before the named release's
 * feature freeze):
 * - `processed_data` / `persisted_data` (checkpoint, task, summary, subtask alignment): FLINK-18662,
 *   #13562, Oct 2020 → 1.12;
 * - `checkpoint_type`: FLINK-18851, #13458, Oct 2020 → 1.12;
 * - `tolerable_failed_checkpoints` in the config: FLINK-20209, #14307, Dec 2020 → 1.13;
 * - p50…p999 in every summary (StatsSummaryDto instead of min/max/avg): FLINK-23144, #16447,
 *   Jul 2021 → 1.14;
 * - `checkpoints_after_tasks_finish` in the config: FLIP-147 → 1.14;
 * - `className` instead of `@class` as the type discriminator: FLINK-25808, #18508 → 1.15;
 * - `checkpointed_size` (the persisted delta, next to the full `state_size`): FLINK-25557, #18324 → 1.15;
 * - `state_changelog_enabled` in the config: the changelog state backend → 1.15;
 * - `savepointFormat`: FLINK-29322, #21269, Nov 2022 → 1.17.
 * Fields whose first release could not be pinned down (the config's `state_backend`,
 * `checkpoint_storage`, `unaligned_checkpoints`, `aligned_checkpoint_timeout`, the changelog
 * interval and storage, a subtask's `unaligned_checkpoint` and `aborted`) are read when present
 * and filled in when absent, but tell nothing about the version.
 */

export const FLINK_VERSIONS = [
  '1.9', '1.10', '1.11', '1.12', '1.13', '1.14', '1.15', '1.16', '1.17', '1.18', '1.19', '1.20', '2.0', '2.1', '2.2',
] as const;

export type FlinkVersion = (typeof FLINK_VERSIONS)[number];

/** A field (or a convention) that appeared in one release and stayed. */
export type VersionedFeature =
  | 'className'
  | 'checkpointed_size'
  | 'processed_data'
  | 'checkpoint_type'
  | 'percentiles'
  | 'savepointFormat'
  | 'tolerable_failed_checkpoints'
  | 'checkpoints_after_tasks_finish'
  | 'state_changelog_enabled';

export const FEATURE_SINCE: { readonly [F in VersionedFeature]: FlinkVersion } = {
  className: '1.15',
  checkpointed_size: '1.15',
  processed_data: '1.12',
  checkpoint_type: '1.12',
  percentiles: '1.14',
  savepointFormat: '1.17',
  tolerable_failed_checkpoints: '1.13',
  checkpoints_after_tasks_finish: '1.14',
  state_changelog_enabled: '1.15',
};

/** Whether a document carried a versioned feature where a release that has it would write it. */
export interface FeatureObservation {
  feature: VersionedFeature;
  present: boolean;
}

export function hasFeature(version: FlinkVersion, feature: VersionedFeature): boolean {
  return FLINK_VERSIONS.indexOf(version) >= FLINK_VERSIONS.indexOf(FEATURE_SINCE[feature]);
}

/** The releases whose REST handlers write exactly what was observed (empty: no release does). */
export function fittingVersions(observations: readonly FeatureObservation[]): FlinkVersion[] {
  return FLINK_VERSIONS.filter((version) => observations.every((o) => hasFeature(version, o.feature) === o.present));
}

/** "1.15–2.2", "1.9" or "?" (no release writes all the documents together). */
export function versionRange(versions: readonly FlinkVersion[]): string {
  if (versions.length === 0) return '?';
  const first = versions[0]!;
  const last = versions[versions.length - 1]!;
  return first === last ? first : `${first}–${last}`;
}
