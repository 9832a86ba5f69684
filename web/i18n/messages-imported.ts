/**
 * The checkpoint dashboard and the timeline showing an imported Flink job instead of the run: what
 * the import lacks, and what only a run has. Endpoint paths and Flink's enum names stay as Flink
 * writes them. Merged into `en` in messages-en.ts; the Chinese is in zh-CN/messages-imported.ts.
 */

export const importedEn = {
  'imported.showing': 'Showing the imported Flink job (its responses fit Flink {versions}), not this run.',
  'imported.noCheckpoints': 'The import holds no /jobs/:jobid/checkpoints response: import it to see the counts, the history and the summary.',
  'imported.noConfig': 'The import holds no /jobs/:jobid/checkpoints/config response: import it to see the job’s checkpoint configuration.',
  'imported.notReported': 'not reported by Flink {versions}',
  'imported.summary.percentiles': 'Percentiles: not reported by Flink {versions} (its REST API wrote Min/Avg/Max only; percentiles came in 1.14).',
  'imported.detail.noTasks': 'The import holds no details of checkpoint {id}: add the response of /jobs/:jobid/checkpoints/details/{id} to see its operators.',
  'imported.config.noScenario': 'An imported job has no scenario: the options above are what its JobManager reported.',
  'imported.restore.noSubtasks': 'Flink’s statistics do not say which subtasks restored from a local copy; a playground run shows it.',
  'imported.timeline.note':
    'The imported job’s checkpoints as Flink reported them, on a time axis from the first trigger in its history. The playhead and time travel replay a playground run, so they are off here; a bar opens its checkpoint in the History tab.',
} as const;
