/**
 * The dashboard's Gantt tab (FLINK-39566's per-checkpoint timeline) and the Flink statistics
 * importer it offers. Field names reuse the checkpoint pages' keys (Flink's dashboard words);
 * these are the tab's own. Merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale.
 */

export const ganttEn = {
  'checkpoints.tab.gantt': 'Gantt',
  'gantt.intro':
    'Why a checkpoint was slow, at a glance: the recent checkpoints as a strip (width = duration), and for the one selected each subtask’s phases from the trigger, slowest first.',
  'gantt.source': 'Statistics of',
  'gantt.source.run': 'this run',
  'gantt.source.imported': 'the imported job',
  'gantt.strip': 'Recent checkpoints',
  'gantt.strip.bar': 'Checkpoint {id}: {status}, {duration}',
  'gantt.strip.outliers': 'Outlined: slower than max(p95, 1.5 × median) = {threshold}.',
  'gantt.follow': 'Follow newest',
  'gantt.export': 'Export as PNG',
  'gantt.empty': 'No checkpoint yet: the strip fills as checkpoints are triggered.',
  'gantt.empty.imported': 'The import holds no checkpoint: add the response of /jobs/:jobid/checkpoints (or of …/details/:checkpointid) for the strip.',
  'gantt.chart': 'Subtasks of checkpoint {id}, by operator, slowest first',
  'gantt.noSubtasks.run': 'No subtask has reported for checkpoint {id} yet.',
  'gantt.noSubtasks.imported':
    'The import holds no subtask statistics for checkpoint {id}. Add the responses of /jobs/:jobid/checkpoints/details/{id}/subtasks/:vertexid (one per operator) to see its subtasks.',
  'gantt.unknownVertex': 'operator (id not in the response)',
  'gantt.group': '{name} · {n, plural, one {# subtask} other {# subtasks}}',
  'gantt.row': 'Subtask {index}',
  'gantt.axis': 'ms after the trigger',
  'gantt.state.pending': 'not acknowledged',
  'gantt.state.aborted': 'aborted',
  'gantt.unaligned': 'unaligned',
  'gantt.outlier': 'outlier',
  'gantt.legend': 'Legend',
  'gantt.legend.outlier': 'outlier: above max(p95, 1.5 × median) of its operator',
  'gantt.legend.unaligned': 'hatched: unaligned checkpoint',
  'gantt.legend.pending': 'dashed: not acknowledged',
  'gantt.legend.aborted': '✕ aborted',
  'gantt.hover.empty': 'Point at a subtask for its figures.',
  'gantt.hover.title': '{operator}, subtask {index}',
  'gantt.threshold': 'Outlier above',

  'import.title': 'Import Flink statistics',
  'import.intro':
    'Paste or open what a Flink JobManager or History Server serves for a job’s checkpoints (/jobs/:jobid/checkpoints, …/config, …/details/:checkpointid, …/subtasks/:vertexid, or an archive). Each response adds to the imported job.',
  'import.paste': 'Response body (JSON)',
  'import.add': 'Import',
  'import.file': 'Open files',
  'import.clear': 'Forget the import',
  'import.archive': 'a History Server archive',
  'import.loaded': 'Imported: {endpoints} (fits Flink {versions}).',
  'import.problems': 'Not imported: {n, plural, one {# problem} other {# problems}}',
  'import.url': 'Or fetch from a URL',
  'import.fetch': 'Fetch',
  'import.fetching': 'Fetching…',
  'import.url.invalid': 'URL: “{url}” is not an http:// or https:// address; expected one such as http://localhost:8081/jobs/<job id>/checkpoints.',
  'import.url.refused':
    'The browser could not read {url}: the server did not allow this page ({origin}) to read it (CORS: no Access-Control-Allow-Origin for this origin), or it could not be reached. Flink’s REST API sends that header as web.access-control-allow-origin sets it; a proxy in front of it may drop it. Fetch it from a terminal and open the file here:',
  'import.url.status': 'The server answered HTTP {status} for {url}: check the job id and the path. To fetch it from a terminal and open the file here:',
} as const;
