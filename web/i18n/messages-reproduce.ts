/**
 * UI text of "Reproduce in the playground" (merged into `en` and `zhCN` in messages.ts). The
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

export const reproduceZhCN: { readonly [K in keyof typeof reproduceEn]: string } = {
  'reproduce.title': '复现真实的 Flink 作业',
  'reproduce.intro':
    '粘贴或选择 Flink JobManager 为作业的 checkpoint 提供的 REST 响应（/jobs/:jobid/checkpoints，如果有的话还有 …/checkpoints/config 和 …/checkpoints/details/:checkpointid）。Playground 会为作业搭建一个模型——间隔、配置、算子和并行度、状态大小、耗时——并运行它，让你在自己作业的模型上做实验。',
  'reproduce.imported': '已读取 {files} 个响应：历史中有 {completed} 个完成的 checkpoint。',
  'reproduce.cannotModel': '无法搭建模型：{reason}',
  'reproduce.button': '在 Playground 中复现',
  'reproduce.building': '正在搭建并校准模型…',
  'reproduce.loaded': '模型已加载并在运行。随着它完成 checkpoint，下表中的数值会逐步填上。',
  'reproduce.scaled': '为了能在浏览器里运行而按比例缩小：状态 ×1/{state}，并行度 ×1/{parallelism}；下表中模型的大小已按比例放大回来。',
  'reproduce.waiting': '正在等待模型完成第一个 checkpoint…',
  'reproduce.table': '导入的作业与它的模型',
  'reproduce.figure': '指标',
  'reproduce.importedColumn': '导入的作业',
  'reproduce.modelColumn': '模型',
  'reproduce.offColumn': '偏差',
  'reproduce.notImported': '导入中没有',
  'reproduce.same': '相同',
  'reproduce.higher': '高 {percent}%（×{ratio}）',
  'reproduce.lower': '低 {percent}%（×{ratio}）',
  'reproduce.countsNote': '次数取决于各自运行了多久',
};
