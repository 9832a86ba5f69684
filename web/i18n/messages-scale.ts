/**
 * A `runtime: scale` scenario on the playground page (web/scale/): the job graph's vertex table,
 * the cluster's summary, and the one sentence that stands where a record-level view would show
 * what the scale runtime does not have (merged into `en` in messages-en.ts; the Chinese is in
 * zh-CN/messages-scale.ts).
 */

export const scaleEn = {
  'scale.notice':
    'A scale run: this scenario runs in the scale runtime, in a background worker, each subtask modelled by flows (rates, sizes, bandwidths) instead of records. The job graph shows each operator with its parallelism; at 1000× an hour of job time takes seconds.',
  'scale.graph.caption': 'Operators of the scale run, one row per vertex with its parallelism',
  'scale.col.operator': 'Operator',
  'scale.col.parallelism': 'Parallelism',
  'scale.col.busy': 'Busy (ms/s)',
  'scale.col.backpressure': 'Backpressured (ms/s)',
  'scale.col.pending': 'Source backlog (records)',
  'scale.col.stateSize': 'State size (latest checkpoint)',
  'scale.col.restore': 'Latest restore',
  'scale.restore.sources': '{local} local · {remote} remote · slowest {slowest}',
  'scale.restore.none': 'none yet',
  'scale.cluster.summary': '{hosts} hosts ({lost} lost) · {taskManagers} TaskManagers · {unresponsive} unresponsive',
  'scale.cluster.note': 'A scale run does not draw every slot and its subtasks; kill a TaskManager or lose a host under Break things.',
  'scale.noSink': 'The scale runtime moves no records, so there is no sink output to compare with a failure-free run.',
  'scale.noCharts': 'The charts are drawn from per-subtask metrics, which a scale run does not have; its checkpoints and restores are in the timeline and the dashboard.',
  'scale.noSubtaskRows': 'A scale run reports each operator’s Min/Avg/Max over its subtasks, not a row per subtask.',
  'scale.unsupported': 'Not in a scale run: the scale runtime models whole operators by flows, not a single subtask’s records, local files or parallelism changes.',
  'scale.noStep': 'A scale run moves in its worker with the wall clock times the speed: use Run and Pause, or the speed.',
  'scale.driver': 'scale runtime (worker)',
  'scale.driverChoice': 'A scale scenario runs in the scale runtime whichever driver is chosen.',
} as const;
