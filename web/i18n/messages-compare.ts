/**
 * Compare mode: one scenario and seed under two configurations on one clock
 * (web/compare/CompareView.svelte). `compare.variation.*` names each variation, `compare.side.*`
 * each side of it, `compare.figure.*` each figure of engine/compare/compare-figures.ts; a called-out
 * difference is `compare.difference` with both values. Merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale.
 */

export const compareEn = {
  'compare.open': 'Compare',
  'compare.openHint': 'Run this scenario twice, with the same seed, under two configurations on one clock',
  'compare.title': 'Compare: {variation}',
  'compare.variation.label': 'Variation',
  'compare.variation.full-vs-incremental': 'Full vs incremental checkpoints',
  'compare.variation.aligned-vs-unaligned': 'Aligned vs unaligned checkpoints',
  'compare.variation.local-recovery': 'Task-local recovery off vs on',
  'compare.variation.min-pause': 'Without vs with min-pause',
  'compare.variation.heap-vs-rocksdb-timers': 'Timers on the heap vs in RocksDB',
  'compare.side.full-vs-incremental.a': 'full',
  'compare.side.full-vs-incremental.b': 'incremental',
  'compare.side.aligned-vs-unaligned.a': 'aligned',
  'compare.side.aligned-vs-unaligned.b': 'unaligned',
  'compare.side.local-recovery.a': 'local recovery off',
  'compare.side.local-recovery.b': 'local recovery on',
  'compare.side.min-pause.a': 'no min-pause',
  'compare.side.min-pause.b': 'min-pause {pause}',
  'compare.side.heap-vs-rocksdb-timers.a': 'HEAP timers',
  'compare.side.heap-vs-rocksdb-timers.b': 'ROCKSDB timers',
  'compare.run': 'Run both',
  'compare.pause': 'Pause both',
  'compare.restart': 'Restart both',
  'compare.close': 'Close compare',
  'compare.simOnly': 'Both runs use the sim runtime, with the scenario’s seed {seed}; the speed is the playground’s.',
  'compare.whySim':
    'In the sim both runs share one seed and one virtual clock, so every difference comes from the configuration. With the live runtime selected, compare mode runs both sides on live workers instead, where the machine can hold two runs.',
  'compare.liveNote':
    'Both runs are live, with the scenario’s seed {seed}: {workers} TaskManager Web Workers on this page, each run with its own checkpoint database and host disks, both job clocks at the playground’s speed.',
  'compare.liveNoise':
    'Live runs follow the wall clock and vary by chance: two runs of one configuration differ by several percent. So a difference is called out only from {percent}%, and for a duration only from {ms} ms as well; smaller ones are noise.',
  'compare.liveRefused.cores':
    'This machine cannot hold two live runs of this scenario: they need {needed} TaskManager workers, and {cores} logical cores hold at most {limit}.',
  'compare.liveRefused.memory':
    'This machine cannot hold two live runs of this scenario: they need {needed} TaskManager workers, and {memory} GB of device memory hold at most {limit}.',
  'compare.inSim': 'Compare in the sim',
  'compare.loading': 'Starting both runs…',
  'compare.failed': 'Compare mode could not start: {reason}',
  'compare.options': 'Options set on this side: {options}',
  'compare.differences': 'What differs',
  'compare.noDifferences': 'Nothing differs by {percent}% or more, and by enough to matter, yet; let both runs take a few checkpoints.',
  'compare.difference': '{figure}: {a} ({sideA}) vs {b} ({sideB})',
  'compare.figures': 'Key figures at {time}',
  'compare.col.figure': 'Figure',
  'compare.figure.end-to-end-p50': 'Checkpoint duration, end to end (median)',
  'compare.figure.end-to-end-p90': 'Checkpoint duration, end to end (p90)',
  'compare.figure.checkpointed-size-p50': 'Checkpointed data size (median)',
  'compare.figure.full-size-p50': 'Full checkpoint data size (median)',
  'compare.figure.alignment-p50': 'Alignment duration, slowest subtask (median)',
  'compare.figure.start-delay-p50': 'Start delay, slowest subtask (median)',
  'compare.figure.sync-duration-p50': 'Sync duration, slowest subtask (median)',
  'compare.figure.persisted-data-p50': 'Persisted in-flight data (median)',
  'compare.figure.checkpoint-pause-p50': 'Pause between checkpoints (median)',
  'compare.figure.restore-duration-p50': 'Restore duration per subtask (median)',
  'compare.figure.restored-remote-bytes': 'Read from remote storage on restore',
  'compare.figure.restored-from-local': 'Subtasks restored from their local copy',
  'compare.figure.completed-checkpoints': 'Completed checkpoints',
  'compare.figure.failed-checkpoints': 'Failed checkpoints',
  'compare.timeline': 'Timeline: {side}',
  'compare.dashboard': 'Checkpoints: {side}',
  'compare.lesson': 'Compare side by side: {variation}',
} as const;
