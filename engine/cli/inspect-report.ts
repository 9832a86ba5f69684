/**
 * The text `ckpt-lab inspect` prints for one imported file, in English or Simplified Chinese:
 * what it is, the counts, the summary, the latest checkpoints, the slowest subtasks, and the
 * checkpoint doctor's findings.
 * Flink's own terms (checkpoint, savepoint, the status names) stay as they are in Chinese.
 */
import type { ImportLocale } from '../interop/flink-import-messages.ts';
import type { ImportedFlinkStatistics } from '../interop/flink-statistics-import.ts';
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  CompletedSubtaskCheckpointStatisticsDocument,
  JacksonDouble,
  StatsSummaryDocument,
} from '../checkpoint/stats/rest-document-types.ts';
import type { CheckpointSubtaskDetails } from '../interop/flink-statistics-import.ts';
import { doctorReportLines } from '../doctor/doctor-messages.ts';
import type { Finding } from '../doctor/finding.ts';
import { reportBytes, reportDuration } from '../report/report-units.ts';

/** How many of the slowest subtasks a subtasks document lists. */
const SLOWEST_SUBTASKS = 5;

const LABELS = {
  en: {
    fits: 'Flink {versions}',
    fitsNone: 'a shape no Flink release writes (fields from different releases)',
    counts: 'checkpoints: {total} triggered, {in_progress} in progress, {completed} completed, {failed} failed, {restored} restored',
    history: 'history: {entries} entries (ids {from}–{to})',
    summaryHead: 'summary of completed checkpoints      min        avg        max        p99',
    end_to_end_duration: 'end to end duration',
    checkpointed_size: 'checkpointed data size',
    state_size: 'full checkpoint data size',
    processed_data: 'processed in-flight data',
    persisted_data: 'persisted in-flight data',
    latestCompleted: 'latest completed: #{id}, {duration} end to end, {size} checkpointed, {path}',
    latestSavepoint: 'latest savepoint: #{id}, {path}',
    latestFailed: 'latest failed: #{id}: {message}',
    latestRestored: 'latest restore: #{id} ({kind}), {path}',
    checkpoint: 'checkpoint',
    savepoint: 'savepoint',
    noPath: 'no external path',
    noMessage: 'no failure message',
    config: 'config: {mode}, interval {interval}, timeout {timeout}, min pause {minPause}, max concurrent {maxConcurrent}, unaligned {unaligned}, tolerable failures {tolerable}, state backend {backend}',
    periodicOff: 'off (periodic checkpoints disabled)',
    details: 'checkpoint #{id} ({status}, {type}): {acked}/{subtasks} subtasks acknowledged, {duration} end to end, {vertices} vertices',
    vertex: '  vertex {vertex}: {acked}/{subtasks} acknowledged, {duration} end to end, {size} checkpointed',
    subtasksOf: 'checkpoint #{id}, vertex {vertex}: {acked}/{subtasks} subtasks acknowledged',
    unknownVertex: '(vertex id not in the response)',
    slowestHead: 'slowest subtasks   end to end   start delay   alignment   sync   async   unaligned',
    pending: '{count} subtasks pending or failed',
    yes: 'yes',
    no: 'no',
  },
  'zh-CN': {
    fits: 'Flink {versions}',
    fitsNone: '没有哪个 Flink 版本会写出这种结构（字段来自不同版本）',
    counts: 'checkpoint：触发 {total} 个，进行中 {in_progress} 个，完成 {completed} 个，失败 {failed} 个，恢复 {restored} 次',
    history: '历史：{entries} 条（id {from}–{to}）',
    summaryHead: '已完成 checkpoint 的摘要              最小       平均       最大        p99',
    end_to_end_duration: '端到端耗时',
    checkpointed_size: 'checkpoint 数据大小',
    state_size: '全量 checkpoint 数据大小',
    processed_data: '处理的在途数据',
    persisted_data: '持久化的在途数据',
    latestCompleted: '最近完成：#{id}，端到端 {duration}，checkpoint 数据 {size}，{path}',
    latestSavepoint: '最近的 savepoint：#{id}，{path}',
    latestFailed: '最近失败：#{id}：{message}',
    latestRestored: '最近恢复：#{id}（{kind}），{path}',
    checkpoint: 'checkpoint',
    savepoint: 'savepoint',
    noPath: '没有外部路径',
    noMessage: '没有失败信息',
    config: '配置：{mode}，间隔 {interval}，超时 {timeout}，最小间隔 {minPause}，最大并发 {maxConcurrent}，非对齐 {unaligned}，可容忍失败 {tolerable}，状态后端 {backend}',
    periodicOff: '关闭（周期性 checkpoint 已禁用）',
    details: 'checkpoint #{id}（{status}，{type}）：{acked}/{subtasks} 个子任务已确认，端到端 {duration}，{vertices} 个顶点',
    vertex: '  顶点 {vertex}：{acked}/{subtasks} 已确认，端到端 {duration}，checkpoint 数据 {size}',
    subtasksOf: 'checkpoint #{id}，顶点 {vertex}：{acked}/{subtasks} 个子任务已确认',
    unknownVertex: '（响应中没有顶点 id）',
    slowestHead: '最慢的子任务       端到端       启动延迟      对齐        同步    异步    非对齐',
    pending: '{count} 个子任务未完成或失败',
    yes: '是',
    no: '否',
  },
} as const satisfies Record<ImportLocale, Record<string, string>>;

type LabelKey = keyof (typeof LABELS)['en'];

/** Java's Long.MAX_VALUE as JSON.parse reads it: Flink's interval when periodic checkpoints are off. */
const LONG_MAX_AS_DOUBLE = 2 ** 63;

export function inspectReport(file: string, statistics: ImportedFlinkStatistics, locale: ImportLocale, findings: readonly Finding[]): string {
  const say = (key: LabelKey, params: Record<string, string | number> = {}) =>
    (LABELS[locale][key] as string).replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
  const versions = statistics.flinkVersions;
  const fits = versions.length === 0 ? say('fitsNone') : say('fits', { versions: versionRange(versions) });
  const lines = [`${file}: ${statistics.endpoint} — ${fits}`];
  if (statistics.checkpointConfig) lines.push(...configLines(statistics.checkpointConfig, say));
  if (statistics.checkpoints) lines.push(...overviewLines(statistics.checkpoints, say));
  for (const details of Object.values(statistics.checkpointDetails ?? {})) lines.push(...detailsLines(details, say));
  for (const subtasks of statistics.checkpointSubtaskDetails ?? []) lines.push(...subtaskLines(subtasks, say));
  lines.push(...doctorReportLines(findings, locale));
  return lines.join('\n') + '\n';
}

type Say = (key: LabelKey, params?: Record<string, string | number>) => string;

function versionRange(versions: readonly string[]): string {
  return versions.length === 1 ? versions[0]! : `${versions[0]} – ${versions[versions.length - 1]}`;
}

function configLines(config: CheckpointConfigDocument, say: Say): string[] {
  return [
    say('config', {
      mode: config.mode,
      interval: config.interval >= LONG_MAX_AS_DOUBLE ? say('periodicOff') : duration(config.interval),
      timeout: duration(config.timeout),
      minPause: duration(config.min_pause),
      maxConcurrent: config.max_concurrent,
      unaligned: config.unaligned_checkpoints ? say('yes') : say('no'),
      tolerable: config.tolerable_failed_checkpoints,
      backend: config.state_backend,
    }),
  ];
}

function overviewLines(checkpoints: CheckpointingStatisticsDocument, say: Say): string[] {
  const lines = [say('counts', { ...checkpoints.counts })];
  const ids = checkpoints.history.map((e) => e.id);
  if (ids.length > 0) lines.push(say('history', { entries: ids.length, from: Math.min(...ids), to: Math.max(...ids) }));
  lines.push('', say('summaryHead'));
  const summary = checkpoints.summary;
  lines.push(summaryLine(say('end_to_end_duration'), summary.end_to_end_duration, duration));
  for (const key of ['checkpointed_size', 'state_size', 'processed_data', 'persisted_data'] as const) {
    lines.push(summaryLine(say(key), summary[key], bytes));
  }
  lines.push('', ...latestLines(checkpoints.latest, say));
  return lines;
}

function summaryLine(label: string, s: StatsSummaryDocument, unit: (n: number) => string): string {
  const cell = (v: JacksonDouble) => (typeof v === 'number' ? unit(v) : 'n/a').padStart(10);
  return `  ${label.padEnd(33)} ${cell(s.min)} ${cell(s.avg)} ${cell(s.max)} ${cell(s.p99)}`;
}

function latestLines(latest: CheckpointingStatisticsDocument['latest'], say: Say): string[] {
  const lines: string[] = [];
  const { completed, savepoint, failed, restored } = latest;
  if (completed) {
    lines.push(say('latestCompleted', { id: completed.id, duration: duration(completed.end_to_end_duration), size: bytes(completed.checkpointed_size), path: completed.external_path ?? say('noPath') }));
  }
  if (savepoint) lines.push(say('latestSavepoint', { id: savepoint.id, path: savepoint.external_path ?? say('noPath') }));
  if (failed) lines.push(say('latestFailed', { id: failed.id, message: failed.failure_message ?? say('noMessage') }));
  if (restored) {
    lines.push(say('latestRestored', { id: restored.id, kind: restored.is_savepoint ? say('savepoint') : say('checkpoint'), path: restored.external_path ?? say('noPath') }));
  }
  return lines;
}

function detailsLines(details: CheckpointStatisticsDocument, say: Say): string[] {
  const lines = [
    say('details', {
      id: details.id,
      status: details.status,
      type: details.checkpoint_type,
      acked: details.num_acknowledged_subtasks,
      subtasks: details.num_subtasks,
      duration: duration(details.end_to_end_duration),
      vertices: Object.keys(details.tasks).length,
    }),
  ];
  for (const [vertex, task] of Object.entries(details.tasks)) {
    lines.push(say('vertex', { vertex, acked: task.num_acknowledged_subtasks, subtasks: task.num_subtasks, duration: duration(task.end_to_end_duration), size: bytes(task.checkpointed_size) }));
  }
  return lines;
}

function subtaskLines(details: CheckpointSubtaskDetails, say: Say): string[] {
  const { statistics } = details;
  const lines = [
    say('subtasksOf', { id: details.checkpointId, vertex: details.vertexId ?? say('unknownVertex'), acked: statistics.num_acknowledged_subtasks, subtasks: statistics.num_subtasks }),
  ];
  const completed = statistics.subtasks.filter((s): s is CompletedSubtaskCheckpointStatisticsDocument => s.className === 'completed');
  const slowest = [...completed].sort((a, b) => b.end_to_end_duration - a.end_to_end_duration).slice(0, SLOWEST_SUBTASKS);
  if (slowest.length > 0) lines.push(say('slowestHead'));
  for (const s of slowest) {
    const cells = [duration(s.end_to_end_duration), duration(s.start_delay), duration(s.alignment.duration), duration(s.checkpoint.sync), duration(s.checkpoint.async)];
    lines.push(`  #${String(s.index).padEnd(14)} ${cells.map((c, i) => c.padStart(i < 3 ? 12 : 7)).join(' ')}   ${s.unaligned_checkpoint ? say('yes') : say('no')}`);
  }
  const pending = statistics.subtasks.length - completed.length;
  if (pending > 0) lines.push(say('pending', { count: pending }));
  return lines;
}

/** Flink writes -1 (or nothing) for a figure it does not know. */
function duration(ms: number): string {
  return ms < 0 ? 'n/a' : reportDuration(ms);
}

const bytes = reportBytes;
