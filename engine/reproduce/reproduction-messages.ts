/**
 * The texts of "Reproduce in the playground" that the engine writes: the model scenario's name
 * and description (one text per language, as a scenario file carries them: localized-text.ts),
 * the comparison's figure names and the problems, for `ckpt-lab reproduce --lang`. The page
 * renders the same codes through web/i18n (messages-reproduce.ts). Counts are written as
 * "label: n", so no plural forms are needed here.
 */
import type { ImportLocale } from '../interop/flink-import-messages.ts';
import type { ComparisonFigure } from './reproduction-comparison.ts';
import type { ReproduceProblemCode } from './reproduce-scenario.ts';

export interface ModelFacts {
  intervalMs: number;
  vertices: number;
  subtasks: number | null;
  stateScale: number;
  parallelismScale: number;
  keys: number;
}

/** The model scenario's name, in each language. */
export const MODEL_NAME = { en: 'Model of an imported Flink job', 'zh-CN': '导入的 Flink 作业的模型' } as const;

export function modelDescription(facts: ModelFacts): { en: string; 'zh-CN': string } {
  const scale = (n: number) => (n >= 10 ? Math.round(n) : n > 1 ? Math.round(n * 10) / 10 : 1);
  const scaled = facts.stateScale > 1 || facts.parallelismScale > 1;
  const en =
    `A model of an imported Flink job, built from its checkpoint statistics: the checkpoint interval (${facts.intervalMs} ms) and, when the ` +
    `configuration was imported, timeout, min-pause, max-concurrent checkpoints, mode, unaligned checkpoints, tolerable failures, retention and ` +
    `state backend; its vertices and their parallelism (job subtasks: ${facts.subtasks ?? 'unknown'}; model vertices: ${facts.vertices}); keyed state ` +
    `of the same size (keys per keyed vertex: ${facts.keys}); and remote storage latency and bandwidth chosen so a checkpoint takes as long. ` +
    `Not modelled: the records' contents, the real operators (the model counts per key), the network and the machines. ` +
    (scaled
      ? `Scaled down to run in a browser: state ×1/${scale(facts.stateScale)}, parallelism ×1/${scale(facts.parallelismScale)} ` +
        `(the storage bandwidth is scaled with the state, so durations keep their size).`
      : 'Nothing is scaled down: the job fits in a browser as it is.');
  const zh =
    `根据导入的 checkpoint 统计搭建的 Flink 作业模型：checkpoint 间隔（${facts.intervalMs} ms），导入了配置时还有超时、最小间隔（min-pause）、` +
    `最大并发 checkpoint 数、模式、unaligned checkpoint、可容忍失败次数、保留策略和 state backend；作业的算子及其并行度（作业 subtask 数：` +
    `${facts.subtasks ?? '未知'}；模型算子数：${facts.vertices}）；同样大小的 keyed state（每个 keyed 算子的 key 数：${facts.keys}）；` +
    `以及让一次 checkpoint 耗时相同的远端存储延迟和带宽。没有模拟的部分：数据的内容、真实的算子（模型按 key 计数）、网络和机器。` +
    (scaled
      ? `为了能在浏览器里运行而按比例缩小：状态 ×1/${scale(facts.stateScale)}，并行度 ×1/${scale(facts.parallelismScale)}（存储带宽随状态一起缩小，耗时保持不变）。`
      : '没有按比例缩小：这个作业原样就能在浏览器里运行。');
  return { en, 'zh-CN': zh };
}

const FIGURE_NAMES: { readonly [L in ImportLocale]: { readonly [F in ComparisonFigure]: string } } = {
  en: {
    'median-duration': 'end-to-end duration, median',
    'p90-duration': 'end-to-end duration, p90',
    'max-duration': 'end-to-end duration, max',
    'checkpointed-size': 'checkpointed data size, median',
    'full-size': 'full checkpoint data size, median',
    'async-duration': 'async duration, median',
    'sync-duration': 'sync duration, median',
    'alignment-duration': 'alignment duration, median',
    'start-delay': 'start delay, median',
    completed: 'completed checkpoints (the model ran fewer)',
    failed: 'failed checkpoints',
    'failed-share': 'failed checkpoints, share of triggered',
  },
  'zh-CN': {
    'median-duration': '端到端耗时（中位数）',
    'p90-duration': '端到端耗时（p90）',
    'max-duration': '端到端耗时（最大值）',
    'checkpointed-size': 'checkpoint 数据大小（中位数）',
    'full-size': '完整 checkpoint 数据大小（中位数）',
    'async-duration': '异步阶段耗时（中位数）',
    'sync-duration': '同步阶段耗时（中位数）',
    'alignment-duration': '对齐耗时（中位数）',
    'start-delay': '启动延迟（中位数）',
    completed: '完成的 checkpoint 数（模型运行的次数更少）',
    failed: '失败的 checkpoint 数',
    'failed-share': '失败 checkpoint 占触发数的比例',
  },
};

export function comparisonFigureName(figure: ComparisonFigure, locale: ImportLocale): string {
  return FIGURE_NAMES[locale][figure];
}

const PROBLEMS: { readonly [L in ImportLocale]: { readonly [C in ReproduceProblemCode]: string } } = {
  en: {
    'no-completed-checkpoint':
      'the statistics hold no completed checkpoint (expected a /jobs/:jobid/checkpoints response or checkpoint details with at least one COMPLETED checkpoint), so there is no duration or size to model',
    'no-interval':
      'the checkpoint interval is unknown (expected a /jobs/:jobid/checkpoints/config response with an interval of at least 10 ms, or a history with two checkpoints triggered at least 10 ms apart)',
  },
  'zh-CN': {
    'no-completed-checkpoint':
      '统计中没有完成的 checkpoint（应为至少含一个 COMPLETED checkpoint 的 /jobs/:jobid/checkpoints 响应或 checkpoint 详情），没有可以模拟的耗时和大小',
    'no-interval':
      '不知道 checkpoint 间隔（应为 interval 不小于 10 ms 的 /jobs/:jobid/checkpoints/config 响应，或历史中两个触发时间相隔至少 10 ms 的 checkpoint）',
  },
};

export function reproduceProblemMessage(problem: { code: ReproduceProblemCode; field: string }, locale: ImportLocale): string {
  return `\`${problem.field}\`: ${PROBLEMS[locale][problem.code]}`;
}

const HEADINGS: { readonly [L in ImportLocale]: { figure: string; imported: string; model: string; ratio: string } } = {
  en: { figure: 'figure', imported: 'imported', model: 'model', ratio: 'model ÷ imported' },
  'zh-CN': { figure: '指标', imported: '导入的作业', model: '模型', ratio: '模型 ÷ 导入' },
};

export function comparisonHeadings(locale: ImportLocale): { figure: string; imported: string; model: string; ratio: string } {
  return HEADINGS[locale];
}
