/**
 * UI text of "Reproduce in the playground" (merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale). The
 * figure names come from the engine (engine/reproduce/reproduction-messages.ts), which
 * `ckpt-lab inspect --reproduce` prints too.
 */

export const reproduceEn = {
  'reproduce.title': 'Reproduce a real Flink job',
  'reproduce.intro':
    'Paste or choose what your Flink JobManager serves for a job’s checkpoints (/jobs/:jobid/checkpoints, and if you have them …/checkpoints/config and …/checkpoints/details/:checkpointid). The playground builds a model of the job — interval, configuration, vertices and parallelism, state size, durations — and runs it, so you can experiment on your own job.',
  'reproduce.imported': '{files, plural, one {# response read} other {# responses read}}: {completed, plural, one {# completed checkpoint} other {# completed checkpoints}} in the history.',
  'reproduce.cannotModel': 'Cannot build a model: {reason}',
  'reproduce.button': 'Reproduce in the playground',
  'reproduce.building': 'Building and calibrating the model…',
  'reproduce.loaded': 'The model is loaded and running. Its figures fill in as it completes checkpoints.',
  'reproduce.scaled': 'Scaled down to run in a browser: state ×1/{state}, parallelism ×1/{parallelism}; model sizes below are scaled back up.',
  'reproduce.waiting': 'Waiting for the model’s first completed checkpoint…',
  'reproduce.table': 'The imported job and its model',
  'reproduce.figure': 'Figure',
  'reproduce.importedColumn': 'Imported',
  'reproduce.modelColumn': 'Model',
  'reproduce.offColumn': 'How far off',
  'reproduce.notImported': 'not in the import',
  'reproduce.same': 'the same',
  'reproduce.higher': '{percent}% higher (×{ratio})',
  'reproduce.lower': '{percent}% lower (×{ratio})',
  'reproduce.countsNote': 'counts depend on how long each ran',
} as const;
