/**
 * Compare mode's words where no page renders them: `ckpt-lab compare` in English and Simplified
 * Chinese (`--lang zh-CN`). The page has its own i18n layer (web/i18n/messages-compare.ts and its
 * zh-CN chunk) with the same names; these follow it so the CLI and the page say the same thing.
 * Flink's option names and enum values (HEAP, ROCKSDB) stay as they are.
 */
import type { MessageLocale } from '../messages/message-codes.ts';
import { reportBytes, reportDuration } from '../report/report-units.ts';
import type { CompareDifference } from './compare-differences.ts';
import type { CompareFigure, FigureUnit } from './compare-figures.ts';
import type { CompareSide, CompareVariation } from './compare-variation.ts';

interface CompareWords {
  variation: { readonly [V in CompareVariation]: string };
  /** `{pause}`: the min-pause of the `b` side of `min-pause` */
  side: { readonly [V in CompareVariation]: { readonly [S in CompareSide]: string } };
  figure: { readonly [F in CompareFigure]: string };
  /** `{figure}`, `{a}`, `{sideA}`, `{b}`, `{sideB}` */
  difference: string;
  noDifferences: string;
  notMeasured: string;
}

const WORDS: { readonly [L in MessageLocale]: CompareWords } = {
  en: {
    variation: {
      'full-vs-incremental': 'Full vs incremental checkpoints',
      'aligned-vs-unaligned': 'Aligned vs unaligned checkpoints',
      'local-recovery': 'Task-local recovery off vs on',
      'min-pause': 'Without vs with min-pause',
      'heap-vs-rocksdb-timers': 'Timers on the heap vs in RocksDB',
    },
    side: {
      'full-vs-incremental': { a: 'full', b: 'incremental' },
      'aligned-vs-unaligned': { a: 'aligned', b: 'unaligned' },
      'local-recovery': { a: 'local recovery off', b: 'local recovery on' },
      'min-pause': { a: 'no min-pause', b: 'min-pause {pause}' },
      'heap-vs-rocksdb-timers': { a: 'HEAP timers', b: 'ROCKSDB timers' },
    },
    figure: {
      'end-to-end-p50': 'Checkpoint duration, end to end (median)',
      'end-to-end-p90': 'Checkpoint duration, end to end (p90)',
      'checkpointed-size-p50': 'Checkpointed data size (median)',
      'full-size-p50': 'Full checkpoint data size (median)',
      'alignment-p50': 'Alignment duration, slowest subtask (median)',
      'start-delay-p50': 'Start delay, slowest subtask (median)',
      'sync-duration-p50': 'Sync duration, slowest subtask (median)',
      'persisted-data-p50': 'Persisted in-flight data (median)',
      'checkpoint-pause-p50': 'Pause between checkpoints (median)',
      'restore-duration-p50': 'Restore duration per subtask (median)',
      'restored-remote-bytes': 'Read from remote storage on restore',
      'restored-from-local': 'Subtasks restored from their local copy',
      'completed-checkpoints': 'Completed checkpoints',
      'failed-checkpoints': 'Failed checkpoints',
    },
    difference: '{figure}: {a} ({sideA}) vs {b} ({sideB})',
    noDifferences: 'Nothing differs by {percent}% or more and by enough to matter: the variation did not change what this scenario measures in this run length.',
    notMeasured: 'n/a',
  },
  'zh-CN': {
    variation: {
      'full-vs-incremental': '全量 checkpoint 与增量 checkpoint',
      'aligned-vs-unaligned': '对齐 checkpoint 与非对齐 checkpoint',
      'local-recovery': '关闭与开启任务本地恢复',
      'min-pause': '不设与设置 min-pause',
      'heap-vs-rocksdb-timers': '定时器放在堆上与放在 RocksDB 中',
    },
    side: {
      'full-vs-incremental': { a: '全量', b: '增量' },
      'aligned-vs-unaligned': { a: '对齐', b: '非对齐' },
      'local-recovery': { a: '关闭本地恢复', b: '开启本地恢复' },
      'min-pause': { a: '不设 min-pause', b: 'min-pause {pause}' },
      'heap-vs-rocksdb-timers': { a: 'HEAP 定时器', b: 'ROCKSDB 定时器' },
    },
    figure: {
      'end-to-end-p50': 'checkpoint 端到端耗时（中位数）',
      'end-to-end-p90': 'checkpoint 端到端耗时（p90）',
      'checkpointed-size-p50': 'checkpoint 上传的数据量（中位数）',
      'full-size-p50': 'checkpoint 全量数据大小（中位数）',
      'alignment-p50': '对齐耗时，最慢的子任务（中位数）',
      'start-delay-p50': '启动延迟，最慢的子任务（中位数）',
      'sync-duration-p50': '同步阶段耗时，最慢的子任务（中位数）',
      'persisted-data-p50': '持久化的在途数据（中位数）',
      'checkpoint-pause-p50': '两次 checkpoint 之间的间隔（中位数）',
      'restore-duration-p50': '每个子任务的恢复耗时（中位数）',
      'restored-remote-bytes': '恢复时从远端存储读取的数据量',
      'restored-from-local': '从本地副本恢复的子任务数',
      'completed-checkpoints': '完成的 checkpoint 数',
      'failed-checkpoints': '失败的 checkpoint 数',
    },
    difference: '{figure}：{a}（{sideA}）对比 {b}（{sideB}）',
    noDifferences: '没有相差 {percent}% 以上、且差值大到值得一提的指标：在这个运行时长内，这一对比项没有改变该场景测得的指标。',
    notMeasured: '无',
  },
};

function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}

export function variationWords(variation: CompareVariation, locale: MessageLocale): string {
  return WORDS[locale].variation[variation];
}

export function sideWords(variation: CompareVariation, side: CompareSide, minPauseMs: number, locale: MessageLocale): string {
  return fill(WORDS[locale].side[variation][side], { pause: reportDuration(minPauseMs) });
}

export function figureWords(code: CompareFigure, locale: MessageLocale): string {
  return WORDS[locale].figure[code];
}

export function figureValueWords(value: number, unit: FigureUnit, locale: MessageLocale): string {
  if (!Number.isFinite(value)) return WORDS[locale].notMeasured;
  if (unit === 'ms') return reportDuration(value);
  if (unit === 'bytes') return reportBytes(value);
  return String(value);
}

/** "Checkpointed data size (median): 1.2 MiB (full) vs 180.0 KiB (incremental)" */
export function differenceWords(difference: CompareDifference, variation: CompareVariation, minPauseMs: number, locale: MessageLocale): string {
  return fill(WORDS[locale].difference, {
    figure: figureWords(difference.code, locale),
    a: figureValueWords(difference.a, difference.unit, locale),
    b: figureValueWords(difference.b, difference.unit, locale),
    sideA: sideWords(variation, 'a', minPauseMs, locale),
    sideB: sideWords(variation, 'b', minPauseMs, locale),
  });
}

export function noDifferencesWords(percent: number, locale: MessageLocale): string {
  return fill(WORDS[locale].noDifferences, { percent: String(percent) });
}
