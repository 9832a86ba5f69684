/**
 * The restore of each subtask, in the Overview's "Latest Restore" and the subtask inspector
 * (web/dashboard/restore-rows.ts makes the rows, restore-text.ts says them). `restore.reason.*`
 * says why a subtask read remote storage instead of its task-local copy: one message per
 * LocalRecoveryFallbackReason (engine/recovery/local-recovery.ts), plus the page's own
 * `stateless` and `not-keyed`. Merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale.
 */

export const restoreEn = {
  'restore.table': 'Restore of each subtask',
  'restore.col.subtask': 'Subtask',
  'restore.col.source': 'From',
  'restore.col.read': 'Read',
  'restore.col.duration': 'Duration',
  'restore.col.reason': 'Why not local',
  'restore.source.local': 'local',
  'restore.source.remote': 'remote',
  'restore.read.withRemote': '{bytes} ({remote} of it remote)',
  'restore.showAll': 'Show all {n} subtasks',
  'restore.showFewer': 'Show fewer',

  'restore.reason.local-recovery-disabled': 'local recovery is off (execution.state-recovery.from-local)',
  'restore.reason.rescaled': 'rescaled: the parallelism changed, no local copy matches the new key groups',
  'restore.reason.no-previous-slot': 'it did not run before (no previous slot)',
  'restore.reason.different-slot': 'restarted in another slot',
  'restore.reason.different-host': 'its slot is on another host now',
  'restore.reason.missing': 'no local copy of this checkpoint',
  'restore.reason.partial': 'the local copy was only partly written',
  'restore.reason.corrupt': 'the local copy is corrupt (checksum mismatch)',
  'restore.reason.stateless': 'stateless: nothing to restore',
  'restore.reason.not-keyed': 'no keyed state: local recovery covers keyed state only',
  'restore.reason.unknown': '{reason}',

  'restore.handle.kind.key-groups': 'KeyGroupsStateHandle',
  'restore.handle.kind.incremental': 'IncrementalRemoteKeyedStateHandle',
  'restore.handle.kind.operator': 'OperatorStateHandle',
  'restore.handle.kind.input-channel': 'InputChannelStateHandle',
  'restore.handle.kind.result-subpartition': 'ResultSubpartitionStateHandle',
  'restore.handle.keyGroups': '{kind}, key groups {keyGroups}',
  'restore.handle.source.local': 'local',
  'restore.handle.source.remote': 'remote',
  'restore.handle.source.failed': 'failed',
  'restore.handle.line': '{handle}: {source}, {bytes}',
  'restore.handle.lineTimed': '{handle}: {source}, {bytes} in {duration}',
  'restore.handles.show': 'Show state handles',
  'restore.handles.hide': 'Hide state handles',
  'restore.handles.title': 'Each state handle of the subtask: where it was read from, its size and how long its read took',
  'restore.handle.withReason': '{line} ({reason})',

  'inspector.lastRestore.title': 'Last restore',
  'inspector.lastRestore.from': 'From',
  'inspector.lastRestore.checkpoint': 'checkpoint {id} at {time}',
  'inspector.lastRestore.savepoint': 'savepoint {id} at {time}',
  'inspector.lastRestore.source': 'Source',
  'inspector.lastRestore.read': 'Read',
  'inspector.lastRestore.duration': 'Duration',
  'inspector.lastRestore.reason': 'Why not local',
  'inspector.lastRestore.handles': 'State handles (local first, remote as fallback)',
} as const;
