/**
 * Every piece of UI text, per locale. `en` defines the keys; every other locale must translate
 * all of them (the `Messages` type enforces it), so a missing translation is a type error.
 *
 * Placeholders are `{name}` and are filled by `t(key, { name: value })`.
 * Flink's own terms that its dashboard never translates (partitioner names such as HASH or
 * FORWARD, job states such as RUNNING) stay in English in every locale.
 */

export const en = {
  'app.title': 'Checkpoint Playground',
  'app.tagline': 'A Flink-style streaming job running in your browser',

  'locale.label': 'Language',

  'scenario.label': 'Scenario',
  'scenario.loading': 'Loading scenarios…',
  'scenario.indexFailed': 'Could not load the list of scenarios: {reason}',
  'scenario.loadFailed': 'Could not load scenario {file}: {reason}',
  'scenario.invalid': 'Scenario {file} is not valid, so it was not started:',

  'controls.label': 'Simulation controls',
  'controls.run': 'Run',
  'controls.pause': 'Pause',
  'controls.reset': 'Reset',
  'controls.speed': 'Speed',

  'status.clock': 'Simulated time',
  'status.job': 'Job status',
  'status.sourceOut': 'Source records out',
  'status.sinkIn': 'Sink records in',

  'graph.title': 'Job graph',
  'graph.description': 'Job graph of {name}: {vertices} operators, left to right in data-flow order.',
  'graph.parallelism': 'Parallelism {n}',
  'graph.subtask': 'Subtask {index} of {count}',
  'graph.empty': 'No job loaded.',

  'operator.source': 'Source',
  'operator.map': 'Map',
  'operator.filter': 'Filter',
  'operator.keyed-aggregate': 'Keyed aggregate',
  'operator.window': 'Tumbling window',
  'operator.window-join': 'Window join',
  'operator.sink': 'Sink',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = { readonly [K in MessageKey]: string };

export const zhCN: Messages = {
  'app.title': '检查点演练场',
  'app.tagline': '在浏览器里运行的 Flink 风格流处理作业',

  'locale.label': '语言',

  'scenario.label': '场景',
  'scenario.loading': '正在加载场景…',
  'scenario.indexFailed': '无法加载场景列表：{reason}',
  'scenario.loadFailed': '无法加载场景 {file}：{reason}',
  'scenario.invalid': '场景 {file} 无效，因此没有启动：',

  'controls.label': '模拟控制',
  'controls.run': '运行',
  'controls.pause': '暂停',
  'controls.reset': '重置',
  'controls.speed': '速度',

  'status.clock': '模拟时间',
  'status.job': '作业状态',
  'status.sourceOut': 'Source 输出记录数',
  'status.sinkIn': 'Sink 输入记录数',

  'graph.title': '作业图',
  'graph.description': '{name} 的作业图：{vertices} 个算子，按数据流向从左到右排列。',
  'graph.parallelism': '并行度 {n}',
  'graph.subtask': '子任务 {index} / {count}',
  'graph.empty': '尚未加载作业。',

  'operator.source': 'Source',
  'operator.map': 'Map',
  'operator.filter': 'Filter',
  'operator.keyed-aggregate': '按键聚合',
  'operator.window': '滚动窗口',
  'operator.window-join': '窗口 Join',
  'operator.sink': 'Sink',
};

/** Display names of the bundled example scenarios, by file; other scenarios show their own name. */
export const scenarioNames: Record<Locale, Readonly<Record<string, string>>> = {
  en: {},
  'zh-CN': {
    'word-count.yaml': '单词计数',
    'click-counts.yaml': '点击计数',
    'two-stream-join.yaml': '双流 Join',
  },
};

export const locales = {
  en: { label: 'English', messages: en },
  'zh-CN': { label: '中文', messages: zhCN },
} as const satisfies Record<string, { label: string; messages: Messages }>;

export type Locale = keyof typeof locales;
