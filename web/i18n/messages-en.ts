/**
 * Every piece of UI text in English, the locale the page always has (the first page's chunk). `en` defines the keys; every other locale must translate
 * all of them (the `Messages` type enforces it), so a missing translation is a type error.
 *
 * Placeholders are `{name}` and are filled by `t(key, { name: value })`.
 * Flink's own terms that its dashboard never translates (partitioner names such as HASH or
 * FORWARD, job and task states such as RUNNING, option keys, failure reasons) stay in English in
 * every locale. The checkpoint pages use the field names of Flink's web dashboard.
 * Larger views keep their text in their own file (messages-*.ts), merged in here; the planner
 * and docs pages keep theirs apart (PageMessages).
 */

import { breakEn } from './messages-break.ts';
import { chartsEn } from './messages-charts.ts';
import { clusterEn } from './messages-cluster.ts';
import { compareEn } from './messages-compare.ts';
import { configEditorEn } from './messages-config.ts';
import type { docsEn } from './messages-docs.ts';
import { doctorEn } from './messages-doctor.ts';
import { driverEn } from './messages-driver.ts';
import { embedEn } from './messages-embed.ts';
import { faultsEn } from './messages-faults.ts';
import { flinkExportEn } from './messages-export.ts';
import { flinkNamesEn } from './messages-flink-names.ts';
import { ganttEn } from './messages-gantt.ts';
import { inspectorEn } from './messages-inspector.ts';
import { lessonsEn } from './messages-lessons.ts';
import { reproduceEn } from './messages-reproduce.ts';
import { importedEn } from './messages-imported.ts';
import type { plannerEn } from './messages-planner.ts';
import { restoreEn } from './messages-restore.ts';
import { scaleEn } from './messages-scale.ts';
import { storageEn } from './messages-storage.ts';
import { timeTravelEn } from './messages-timeline.ts';

export const en = {
  'app.title': 'Checkpoint Playground',
  /** the header's link to the planner page (the planner's own text is the planner page's, messages-planner.ts) */
  'planner.open': 'Capacity planner',
  'app.tagline': 'A Flink-style streaming job running in your browser',

  'locale.label': 'Language',

  'common.none': 'None',
  'common.yes': 'Yes',
  'common.no': 'No',
  'common.enabled': 'Enabled',
  'common.disabled': 'Disabled',

  'scenario.label': 'Scenario',
  'scenario.loading': 'Loading scenarios…',
  'scenario.fromApi': 'Loaded through the API: {name}',
  'scenario.indexFailed': 'Could not load the list of scenarios: {reason}',
  'scenario.loadFailed': 'Could not load scenario {file}: {reason}',
  'scenario.invalid': 'Scenario {file} is not valid, so it was not started:',
  'scenario.fromShareLink': '(from the share link)',
  'scenario.fromInterruptedRun': '(of the interrupted run)',

  'controls.label': 'Simulation controls',
  'controls.run': 'Run',
  'controls.pause': 'Pause',
  'controls.step': 'Step',
  'controls.reset': 'Restart',
  'controls.speed': 'Speed',
  'controls.speedValue': '{speed} speed',
  'controls.speedLag': 'this machine keeps up with {speed}',

  'status.clock': 'Simulated time',
  'status.job': 'Job status',
  'status.restarts': 'Restarts',
  'status.sourceOut': 'Source records out',
  'status.sinkIn': 'Sink records in',
  'status.runError': 'The simulation stopped with an error: {reason}',

  'timeline.title': 'Timeline',
  'timeline.window.label': 'Show',
  'timeline.window.all': 'the whole run',
  'timeline.window.last': 'the last {span}',
  'timeline.fact.share': 'Time spent checkpointing',
  'timeline.fact.shortestGap': 'Shortest gap between checkpoints',
  'timeline.verdict.always':
    'The job is always checkpointing: each checkpoint starts the moment the previous one ends, so there is no gap between them. Checkpoints take longer than the interval; a min pause (execution.checkpointing.min-pause) guarantees processing time between them.',
  'timeline.verdict.minPause':
    'After each completed checkpoint the min pause ({pause}) must pass before the next periodic one starts: the hatched stretch is time the job only processes records.',
  'timeline.summary':
    'Timeline of the run: {completed} completed and {failed} failed checkpoints, {faults} faults, {restores} restores; checkpointing {share}% of the time.',
  'timeline.bar.completed': '{kind} {id}: completed in {duration}',
  'timeline.bar.failed': '{kind} {id}: failed after {duration} ({reason})',
  'timeline.bar.inProgress': '{kind} {id}: in progress for {duration}',
  /** a savepoint's bar, where it is wide enough for a label: SP for Savepoint, a word Flink's dashboard keeps in English */
  'timeline.bar.savepointLabel': 'SP{id}',
  'timeline.pause': 'Min pause after checkpoint {id}: {pause}',
  'timeline.gap': 'Gap between checkpoint {from} and checkpoint {to}: {gap}',
  'timeline.noGap': 'No gap: checkpoint {to} started as soon as checkpoint {from} ended',
  'timeline.dropped': 'Periodic trigger dropped: {reason}',
  'timeline.fault': 'Fault: {description}',
  'timeline.restore': 'Restored from checkpoint {id}',
  'timeline.outage': 'Job {status} for {duration}',
  'timeline.legend': 'Legend',
  'timeline.legend.gap': 'Gap between checkpoints',
  'timeline.legend.fault': 'Fault',
  'timeline.legend.restore': 'Restore',
  'timeline.legend.outage': 'Job not running',

  'graph.title': 'Job graph',
  'graph.description': 'Job graph of {name}: {vertices} operators, in data-flow order, with one row per subtask.',
  'graph.parallelism': 'Parallelism {n}',
  'graph.subtask': 'Subtask {index} of {count}',
  'graph.empty': 'No job loaded.',
  'graph.layoutFailed': 'The job graph could not be laid out: {reason}',
  'graph.col.location': 'TM · host',
  'graph.col.busy': 'Busy / BP',
  'graph.col.queue': 'In-Q',
  'graph.col.state': 'State',
  'graph.subtaskTitle':
    '{name} #{index} — {status} on {tm} ({host}). Last second: busy {busy}, backpressured {backpressured}. Input queue {queued} of {capacity} buffers, output backlog {backlog}. State {state}.',
  'graph.legend': 'Legend of the job graph',
  'graph.legend.busy': 'Busy',
  'graph.legend.backpressured': 'Backpressured',
  'graph.legend.queue': 'Input queue fill',

  'operator.source': 'Source',
  'operator.map': 'Map',
  'operator.filter': 'Filter',
  'operator.keyed-aggregate': 'Keyed aggregate',
  'operator.window': 'Tumbling window',
  'operator.window-join': 'Window join',
  'operator.sink': 'Sink',

  'cluster.title': 'Cluster',
  'cluster.host': 'Host {host}',
  'cluster.loseHost': 'Lose host {host}',
  'cluster.loseHostShort': 'Lose host',
  'cluster.killTm': 'Kill TaskManager {tm}',
  'cluster.killTmShort': 'Kill',
  'cluster.slot': 'slot {n}',
  'cluster.freeSlot': 'free',

  'break.title': 'Break things',
  'break.taskManager': 'TaskManager',
  'break.killTm': 'Kill TaskManager',
  'break.host': 'Host',
  'break.loseHost': 'Lose host',
  'break.task': 'Subtask',
  'break.failTask': 'Fail task',
  'break.operator': 'Operator',
  'break.factor': 'Slow-down factor',
  'break.factor.normal': 'normal',
  'break.slow': 'Set speed',
  'break.rescaleOperator': 'Rescale',
  'break.parallelism': 'New parallelism',
  'break.rescale': 'Rescale',
  'break.triggerCheckpoint': 'Trigger checkpoint',
  'break.triggerSavepoint': 'Trigger savepoint',
  'break.corrupt': 'Corrupt local copy',
  'break.corruptHint': "Corrupts the selected subtask's task-local copies on its host: the next restore finds a bad checksum and reads the remote copy",
  'break.done.killTm': 'Killed TaskManager {tm}.',
  'break.done.loseHost': 'Lost host {host} with its TaskManagers.',
  'break.done.failTask': 'Failed task {task}.',
  'break.done.slow': '{vertex} now processes records {factor}× slower.',
  'break.done.normalSpeed': '{vertex} runs at normal speed again.',
  'break.done.checkpoint': 'Checkpoint requested.',
  'break.done.savepoint': 'Savepoint requested.',
  'break.done.rescale': 'Rescaling {vertex} to parallelism {parallelism} from the latest checkpoint.',

  'checkpoints.title': 'Checkpoints',
  'checkpoints.tabs': 'Checkpoint statistics',
  'checkpoints.tab.overview': 'Overview',
  'checkpoints.tab.history': 'History',
  'checkpoints.tab.summary': 'Summary',
  'checkpoints.tab.configuration': 'Configuration',
  'checkpoints.tab.loading': 'Loading this tab…',
  'checkpoints.periodicOff':
    'Periodic checkpoints are off in this scenario (execution.checkpointing.interval is not set). You can still trigger checkpoints and savepoints by hand.',

  'checkpoints.counts.title': 'Checkpoint Counts',
  'checkpoints.counts.triggered': 'Triggered',
  'checkpoints.counts.inProgress': 'In Progress',
  'checkpoints.counts.completed': 'Completed',
  'checkpoints.counts.failed': 'Failed',
  'checkpoints.counts.restored': 'Restored',

  'checkpoints.latest.completed': 'Latest Completed Checkpoint',
  'checkpoints.latest.savepoint': 'Latest Savepoint',
  'checkpoints.latest.failed': 'Latest Failed Checkpoint',
  'checkpoints.latest.restore': 'Latest Restore',
  'checkpoints.latest.noneCompleted': 'No checkpoint has completed yet.',
  'checkpoints.latest.noneSavepoint': 'No savepoint has been taken yet.',
  'checkpoints.latest.noneFailed': 'No checkpoint has failed.',
  'checkpoints.latest.failedNotNamed': 'Flink counts {count, plural, one {# failed checkpoint} other {# failed checkpoints}}, but its response names no latest failed one.',
  'checkpoints.latest.noneRestore': 'The job has not restored from a checkpoint.',
  'checkpoints.latest.onlyTriggerFailures': 'No checkpoint with an id has failed: the failed count is of triggers refused before a checkpoint was created (listed below).',
  'checkpoints.triggerFailures.title': 'Failed Before a Checkpoint Was Created',
  'checkpoints.triggerFailures.note':
    'Flink counts these in Triggered and Failed, but without a checkpoint id they have no row in the history, and its dashboard shows them nowhere.',
  'checkpoints.triggerFailures.checkpoint': 'Checkpoint trigger refused at {time}: {reason}',
  'checkpoints.triggerFailures.savepoint': 'Savepoint trigger refused at {time}: {reason}',
  'checkpoints.triggerFailures.explained': '{reason} — {explanation}',
  'checkpoints.triggerFailures.why.NOT_ALL_REQUIRED_TASKS_RUNNING':
    'not all tasks were running (the job was restarting, or a task had failed or finished), so no barrier could be sent',
  'checkpoints.triggerFailures.earlier': '… and {n} earlier',
  'checkpoints.restore.subtasks': 'Subtasks',
  'checkpoints.restore.sources': '{remote} from remote storage, {local} from a local copy',
  'checkpoints.restore.read': 'Read',
  'checkpoints.restore.readValue': '{bytes}, slowest subtask {slowest}',
  'checkpoints.restore.catchUp': 'Catch-up',
  'checkpoints.restore.caughtUp': "the sources' pendingRecords was back to its level before the failure {duration} after RUNNING",
  'checkpoints.restore.notCaughtUp': "not yet: the sources' pendingRecords is still above its level before the failure",

  'checkpoints.type.checkpoint': 'Checkpoint',
  'checkpoints.type.savepoint': 'Savepoint',

  'checkpoints.status.inProgress': 'IN_PROGRESS',
  'checkpoints.status.completed': 'COMPLETED',
  'checkpoints.status.failed': 'FAILED',

  'checkpoints.field.id': 'ID',
  'checkpoints.field.status': 'Status',
  'checkpoints.field.acknowledged': 'Acknowledged',
  'checkpoints.field.acknowledgedAt': 'Acknowledged',
  'checkpoints.field.triggerTime': 'Trigger Time',
  'checkpoints.field.latestAck': 'Latest Acknowledgement',
  'checkpoints.field.completionTime': 'Completion Time',
  'checkpoints.field.endToEnd': 'End to End Duration',
  'checkpoints.field.checkpointedSize': 'Checkpointed Data Size',
  'checkpoints.field.fullSize': 'Full Checkpoint Data Size',
  'checkpoints.field.inFlight': 'Processed (persisted) in-flight data',
  'checkpoints.field.path': 'Path',
  'checkpoints.field.savepointFormat': 'Savepoint Format',
  'checkpoints.field.failureTime': 'Failure Time',
  'checkpoints.field.cause': 'Cause',
  'checkpoints.field.restoreTime': 'Restore Time',
  'checkpoints.field.type': 'Type',
  'checkpoints.field.operator': 'Operator',
  'checkpoints.field.subtask': 'Subtask',
  'checkpoints.field.syncDuration': 'Sync Duration',
  'checkpoints.field.asyncDuration': 'Async Duration',
  'checkpoints.field.alignmentDuration': 'Alignment Duration',
  'checkpoints.field.startDelay': 'Start Delay',
  'checkpoints.field.unaligned': 'Unaligned Checkpoint',

  'checkpoints.history.caption': 'Checkpoint history, newest first',
  'checkpoints.history.empty': 'No checkpoint has been triggered yet.',
  'checkpoints.history.expand': 'Details of checkpoint {id}',
  'checkpoints.history.note': 'As in Flink (web.checkpoints.history), the history keeps the last 10 checkpoints; the timeline shows all of them.',

  'checkpoints.detail.discarded': 'Discarded',
  'checkpoints.detail.checkpointType': 'Checkpoint Type',
  'checkpoints.detail.type.aligned': 'aligned checkpoint',
  'checkpoints.detail.type.unaligned': 'unaligned checkpoint',
  'checkpoints.detail.type.savepoint': 'savepoint',
  'checkpoints.detail.type.syncSavepoint': 'savepoint on cancel',
  'checkpoints.detail.failureMessage': 'Failure Message',
  'checkpoints.detail.caption': 'Operators of checkpoint {id}',
  'checkpoints.detail.subtasksOf': 'Subtasks of {name}',
  'checkpoints.detail.gone': 'Checkpoint {id} has left the history.',

  'checkpoints.subtasks.summaryCaption': '{name}: over all subtasks',
  'checkpoints.subtasks.caption': '{name}: per subtask',
  'checkpoints.subtasks.aborted': 'aborted',
  'checkpoints.subtasks.pending': 'n/a — not acknowledged yet (on {location})',

  'checkpoints.phases.title': 'Where the time of checkpoint {id} went',
  'checkpoints.phases.legend':
    'Start Delay: from the trigger until the first barrier reached the subtask. Alignment: from its first to its last barrier. Sync: the snapshot, while the subtask is blocked. Async: the upload to checkpoint storage.',
  'checkpoints.phases.hint.startDelay':
    'Start Delay is the largest: barriers take long to travel from the sources, which usually means the job runs under backpressure.',
  'checkpoints.phases.hint.alignment':
    'Alignment is the largest: with exactly-once, an input that has its barrier waits for the others; slow or backpressured inputs make it long.',
  'checkpoints.phases.hint.sync': 'Sync is the largest: taking the snapshot itself blocks the subtasks.',
  'checkpoints.phases.hint.async':
    'Async is the largest: uploading the state to checkpoint storage takes the time; smaller state, incremental checkpoints or faster storage help.',

  'checkpoints.summary.min': 'Minimum',
  'checkpoints.summary.avg': 'Average',
  'checkpoints.summary.max': 'Maximum',
  'checkpoints.summary.percentile': '{p}th percentile',
  'checkpoints.summary.percentiles': 'Percentiles',
  'checkpoints.summary.caption': 'Over {n, plural, one {# completed checkpoint} other {# completed checkpoints}}',
  'checkpoints.summary.empty': 'No checkpoint has completed yet; the summary covers completed checkpoints only.',

  'config.caption': 'Checkpoint configuration',
  'config.option': 'Option',
  'config.value': 'Value',
  'config.mode': 'Checkpointing Mode',
  /** the mode as Flink's Configuration tab prints it, in every locale; FlinkName.svelte explains it (messages-flink-names.ts) */
  'config.mode.exactlyOnce': 'Exactly Once',
  'config.mode.atLeastOnce': 'At Least Once',
  'config.storage': 'Checkpoint Storage',
  'config.backend': 'State Backend',
  'config.interval': 'Interval',
  'config.interval.disabled': 'Periodic checkpoints disabled',
  'config.timeout': 'Timeout',
  'config.minPause': 'Minimum Pause Between Checkpoints',
  'config.maxConcurrent': 'Maximum Concurrent Checkpoints',
  'config.unaligned': 'Unaligned Checkpoints',
  'config.alignedTimeout': 'Aligned Checkpoint Timeout',
  'config.externalization': 'Persist Checkpoints Externally',
  'config.externalization.delete': 'Enabled (delete on cancellation)',
  'config.externalization.retain': 'Enabled (retain on cancellation)',
  'config.tolerable': 'Tolerable Failed Checkpoints',
  'config.finishedTasks': 'Checkpoints With Finished Tasks',
  'config.changelog': 'State Changelog',
  'config.changelogStorage': 'Changelog Storage',
  'config.materialization': 'Periodic Materialization Interval',
  'config.scenarioCaption': 'Flink options set by the scenario',
  'config.scenarioNone': 'The scenario sets no Flink options; Flink’s defaults apply.',

  'output.title': 'Sink output against the failure-free run',
  'output.records': 'Records written',
  'output.expected': 'Failure-free run',
  'output.duplicates': 'Duplicates',
  'output.missing': 'Missing',
  'output.explain':
    'The failure-free run is the same scenario and seed without faults or operations, at the same simulated time. Duplicates are records written more often than the failure-free run writes them (it runs a few checkpoint intervals ahead, so a commit that merely came earlier does not count). Missing records are ones it had written by now and this run has not: lost, or not produced yet because this run is behind (after a restore, or slowed down).',
  'output.explain.twoPhase':
    'This sink commits in two phases on completed checkpoints (exactly-once): a restore must not write anything twice.',
  'output.explain.plain':
    'This sink writes at once: after a restore it writes again what it wrote since the checkpoint, so duplicates show up.',
  'output.caption': 'Records per key, this run against the failure-free run',
  'output.key': 'Key',
  'output.thisRun': 'This run',
  'output.failureFree': 'Failure-free',
  'output.keyDuplicates': 'Duplicates',
  'output.keyMissing': 'Missing',
  'output.lastValue': 'Last value (this / failure-free)',
  'output.showMore': 'Show {n} keys',
  'output.keysShown': '{shown} of {total} keys; those with duplicates or missing records first.',
  'output.showFewer': 'Show fewer keys',

  'shortcuts.title': 'Keyboard shortcuts',
  'shortcuts.open': 'Shortcuts',
  'shortcuts.key': 'Key',
  'shortcuts.action': 'Action',
  'shortcuts.runPause': 'Run or pause',
  'shortcuts.step': 'Step one simulation event',
  'shortcuts.restart': 'Restart the scenario',
  'shortcuts.faster': 'Twice as fast',
  'shortcuts.slower': 'Half as fast',
  'shortcuts.checkpoint': 'Trigger a checkpoint',
  'shortcuts.savepoint': 'Trigger a savepoint',
  'shortcuts.killTm': 'Kill the TaskManager selected under “Break things”',
  'shortcuts.loseHost': 'Lose the host selected under “Break things”',
  'shortcuts.failTask': 'Fail the subtask selected under “Break things”',
  'shortcuts.tabs': 'Overview, History, Summary, Configuration',
  'shortcuts.help': 'Show or hide this help',
  'shortcuts.note': 'Shortcuts do nothing while you type in a field. Esc closes this dialog.',
  'shortcuts.close': 'Close',

  ...inspectorEn,
  ...storageEn,
  ...chartsEn,
  ...configEditorEn,
  ...embedEn,
  ...driverEn,
  ...timeTravelEn,
  ...breakEn,
  ...faultsEn,
  ...restoreEn,
  ...doctorEn,
  ...clusterEn,
  ...lessonsEn,
  ...flinkExportEn,
  ...compareEn,
  ...ganttEn,
  ...reproduceEn,
  ...importedEn,
  ...scaleEn,
  ...flinkNamesEn,
} as const;

/**
 * The text of the planner and docs pages is theirs: each page adds it to the English it renders
 * (i18n.addEnglish), so the playground's first chunk does not carry it. Every locale still
 * translates every key.
 */
export type PageMessages = typeof plannerEn | typeof docsEn;
export type MessageKey = keyof typeof en | keyof typeof plannerEn | keyof typeof docsEn;
export type Messages = { readonly [K in MessageKey]: string };
