/**
 * The doctor's findings in English and Simplified Chinese. The CLI (`ckpt-lab inspect --lang`,
 * `ckpt-lab run`) and the page (web/i18n/doctor-text.ts) render the same codes; a code without a
 * rendering in either language is a type error. Flink's option names and enum values stay as they
 * are; the Chinese follows the seed articles' words (背压, 对齐, 增量 checkpoint, 任务本地恢复).
 */
import type { ImportLocale } from '../interop/flink-import-messages.ts';
import type { Finding, FindingCode, FindingParams } from './finding.ts';
import { UNKNOWN_VERTEX } from './vertex-subtasks.ts';
import { reportBytes, reportDuration } from '../report/report-units.ts';

export type DoctorLocale = ImportLocale;

type Templates = { readonly [C in FindingCode]: string };

const COMPRESSION_EN =
  ' Snapshot compression (execution.checkpointing.snapshot-compression: true) shrinks these full snapshots; it has no effect on incremental RocksDB checkpoints.';
const COMPRESSION_ZH = '快照压缩（execution.checkpointing.snapshot-compression: true）可以缩小这些全量快照；它对 RocksDB 的增量 checkpoint 没有作用。';
const SLOW_ASYNC_EN =
  'The asynchronous phase of {vertex} takes {asyncMs} (median, of {endToEndMs} end to end): uploading {sizeBytes} per subtask to checkpoint storage is the bottleneck. Use faster checkpoint storage, or raise the parallelism ({parallelism} now) so that each subtask uploads less.';
const SLOW_ASYNC_ZH =
  '{vertex} 的异步阶段耗时 {asyncMs}（中位数，端到端 {endToEndMs}）：每个子任务向 checkpoint 存储上传 {sizeBytes} 是瓶颈。使用更快的 checkpoint 存储，或提高并行度（当前为 {parallelism}），让每个子任务上传的数据更少。';

/** `{name}` is replaced by the finding's parameter of that name, formatted by its unit suffix. */
const TEMPLATES: { readonly [L in DoctorLocale]: Templates } = {
  en: {
    'always-checkpointing':
      'Checkpoints take {durationMs} (median of {checkpoints}) against an interval of {intervalMs}, and the next one starts {pauseMs} after the previous one ends: the job is always checkpointing. Set execution.checkpointing.min-pause (setMinPauseBetweenCheckpoints; now {minPauseMs}) so that the job has time for its own work between checkpoints; it does not make a checkpoint faster.',
    'backpressure-start-delay':
      'Barriers reach {vertex} {startDelayMs} after the trigger (median start delay, of {endToEndMs} end to end): they wait behind buffered records, so the job runs under constant backpressure. Give the slow operator more parallelism or resources; unaligned checkpoints (execution.checkpointing.unaligned.enabled, now {unaligned}) let barriers overtake the buffers.',
    'long-alignment':
      'Subtasks of {vertex} spend {alignmentMs} aligning (median, of {endToEndMs} end to end): the inputs whose barrier has arrived are blocked until the others’ arrive. Enable unaligned checkpoints (execution.checkpointing.unaligned.enabled), or keep them aligned and set execution.checkpointing.aligned-checkpoint-timeout (now {alignedTimeoutMs}) so that a checkpoint that aligns that long switches to unaligned.',
    'growing-full-checkpoints':
      'Every checkpoint uploads the full state, and it grows: {fromBytes} at #{fromId}, {toBytes} at #{toId}. Enable incremental checkpoints (execution.checkpointing.incremental: true), which upload only what changed since the previous one; they need the RocksDB state backend (state.backend.type: rocksdb; here {backend}).',
    'slow-async-phase': SLOW_ASYNC_EN,
    'slow-async-phase-uncompressed': SLOW_ASYNC_EN + COMPRESSION_EN,
    'heap-timers-sync-phase':
      'The synchronous phase of {vertex} takes {syncMs} (median, of {endToEndMs} end to end), and its timers are on the heap (state.backend.rocksdb.timer-service.factory: HEAP): every checkpoint copies them all while the task processes nothing. Set the factory to ROCKSDB (Flink’s default); heap timers only pay off for a job with few timers.',
    'long-sync-phase-rocksdb':
      'The synchronous phase of {vertex} takes {syncMs} (median, of {endToEndMs} end to end) with the RocksDB state backend. If the timers are on the heap (state.backend.rocksdb.timer-service.factory: HEAP; the checkpoint statistics do not say), every checkpoint copies them in this phase: set the factory to ROCKSDB.',
    'failures-near-tolerable-limit':
      '{consecutive} checkpoints failed in a row, with {tolerable} tolerable failed checkpoints (execution.checkpointing.tolerable-failed-checkpoints): one failure more than that fails the job. Latest failure: {reason}. If they expire, raise execution.checkpointing.timeout (now {timeoutMs}; the slowest completed checkpoint took {slowestCompletedMs}) or make checkpoints faster, and tolerate a few failures so that a passing one does not restart the job.',
    'slow-remote-restore':
      'Restoring took up to {slowestMs} (subtask {vertex}#{subtask}, {sizeBytes} read from remote checkpoint storage; {restores} restores). Enable task-local recovery (execution.checkpointing.local-backup.enabled and execution.state-recovery.from-local): a task restarted in its previous slot then reads its local copy.',
    'at-least-once-duplicates':
      'Checkpoints are AT_LEAST_ONCE and the job’s non-transactional sinks (here {plainSinks}) write every record at once: after a restore, the replayed records are written again ({duplicates} duplicates in this run). Use EXACTLY_ONCE with a transactional (two-phase-commit) sink, or make the sink idempotent.',
    'at-least-once-sink-unknown':
      'Checkpoints are AT_LEAST_ONCE: after a restore the records since the checkpoint are replayed, and a sink that is neither idempotent nor transactional writes them twice. The statistics do not say what the sinks are; if duplicates matter, use EXACTLY_ONCE with a transactional sink.',
    'subtask-skew':
      'Subtask #{subtask} of {vertex} took {slowMs} in checkpoint #{checkpointId}, the others {othersMs} (median): its key groups hold hot keys (data skew), and more parallelism does not split a key. Find them with `ckpt-lab key-group KEY... --parallelism {parallelism}`, which shows the subtask each key lands on.',
  },
  'zh-CN': {
    'always-checkpointing':
      'checkpoint 耗时 {durationMs}（{checkpoints} 次的中位数），而间隔是 {intervalMs}；上一次结束 {pauseMs} 后下一次就开始了：作业一直处于 checkpoint 状态。设置 execution.checkpointing.min-pause（即 setMinPauseBetweenCheckpoints，当前为 {minPauseMs}），强制两次 checkpoint 之间留出空闲时间给作业处理数据；它不会让 checkpoint 变快。',
    'backpressure-start-delay':
      'checkpoint 触发 {startDelayMs} 后 barrier 才到达 {vertex}（启动延迟的中位数，端到端 {endToEndMs}）：barrier 排在缓冲的数据之后，说明作业在持续的背压（backpressure）下运行。给慢的算子增加并行度或资源；非对齐 checkpoint（execution.checkpointing.unaligned.enabled，当前{unaligned}）可以让 barrier 越过缓冲的数据。',
    'long-alignment':
      '{vertex} 的子任务花在对齐上的时间为 {alignmentMs}（中位数，端到端 {endToEndMs}）：已收到 barrier 的输入通道被阻塞，直到其余通道的 barrier 也到达。开启非对齐 checkpoint（execution.checkpointing.unaligned.enabled），或者保持对齐并设置 execution.checkpointing.aligned-checkpoint-timeout（当前为 {alignedTimeoutMs}），让对齐超过这个时间的 checkpoint 切换为非对齐。',
    'growing-full-checkpoints':
      '每次 checkpoint 都上传全量状态，而状态还在增长：#{fromId} 为 {fromBytes}，#{toId} 为 {toBytes}。开启增量 checkpoint（execution.checkpointing.incremental: true），每次只上传相对上一次 checkpoint 的增量改动；增量 checkpoint 需要 RocksDB 状态后端（state.backend.type: rocksdb；这里是 {backend}）。',
    'slow-async-phase': SLOW_ASYNC_ZH,
    'slow-async-phase-uncompressed': SLOW_ASYNC_ZH + COMPRESSION_ZH,
    'heap-timers-sync-phase':
      '{vertex} 的同步阶段耗时 {syncMs}（中位数，端到端 {endToEndMs}），而它的 Timer 存储在堆上（state.backend.rocksdb.timer-service.factory: HEAP）：每次 checkpoint 都要复制全部 Timer，期间任务无法处理数据。把它设为 ROCKSDB（Flink 的默认值）；只有 Timer 很少的作业，放在堆上才能提高性能。',
    'long-sync-phase-rocksdb':
      '使用 RocksDB 状态后端时，{vertex} 的同步阶段耗时 {syncMs}（中位数，端到端 {endToEndMs}）。如果 Timer 存储在堆上（state.backend.rocksdb.timer-service.factory: HEAP，checkpoint 统计中看不到这一项），每次 checkpoint 都会在这个阶段复制它们：请把它设为 ROCKSDB。',
    'failures-near-tolerable-limit':
      '连续 {consecutive} 个 checkpoint 失败，而可容忍的失败次数（execution.checkpointing.tolerable-failed-checkpoints）为 {tolerable}：再多失败一次作业就会失败。最近一次失败：{reason}。如果是超时，请调大 execution.checkpointing.timeout（当前为 {timeoutMs}；最慢的已完成 checkpoint 耗时 {slowestCompletedMs}）或让 checkpoint 变快，并容忍少量失败，避免偶发的失败导致作业重启。',
    'slow-remote-restore':
      '恢复最长耗时 {slowestMs}（子任务 {vertex}#{subtask}，从远程 checkpoint 存储读取 {sizeBytes}；共 {restores} 次恢复）。开启任务本地恢复（execution.checkpointing.local-backup.enabled 和 execution.state-recovery.from-local）：在原 Slot 上重启的 Task 会优先加载本地的 checkpoint 数据。',
    'at-least-once-duplicates':
      'checkpoint 模式是 AT_LEAST_ONCE，且有 {plainSinks} 个 sink 收到数据就立即写出：恢复后重放的数据会被再写一次（本次运行中有 {duplicates} 条重复）。改用 EXACTLY_ONCE 并配合事务性（两阶段提交）sink，或让 sink 具有幂等性。',
    'at-least-once-sink-unknown':
      'checkpoint 模式是 AT_LEAST_ONCE：恢复后会重放 checkpoint 之后的数据，既不幂等也不支持事务的 sink 会把它们写两次。统计数据中看不到 sink 的类型；如果不能接受重复，请使用 EXACTLY_ONCE 并配合事务性 sink。',
    'subtask-skew':
      '在 checkpoint #{checkpointId} 中，{vertex} 的子任务 #{subtask} 耗时 {slowMs}，其余子任务为 {othersMs}（中位数）：它的 key group 中有热点 key（数据倾斜），而增加并行度无法拆分同一个 key。用 `ckpt-lab key-group KEY... --parallelism {parallelism}` 查看每个 key 落在哪个子任务上，找出热点 key。',
  },
};

const WORDS: { readonly [L in DoctorLocale]: Readonly<Record<'on' | 'off' | 'unknown' | 'none', string>> } = {
  en: { on: 'on', off: 'off', unknown: 'unknown', none: 'none' },
  'zh-CN': { on: '开启', off: '关闭', unknown: '未知', none: '无' },
};

/** A lone saved subtasks response: its vertex id was only in the request's URL. */
const UNNAMED_VERTEX: { readonly [L in DoctorLocale]: string } = { en: 'the vertex', 'zh-CN': '该顶点' };

/** The finding's message, its figures formatted: `…Ms` as a duration, `…Bytes` as a size. */
export function doctorMessage(finding: Finding, locale: DoctorLocale): string {
  return TEMPLATES[locale][finding.code].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in finding.params ? formatParam(name, finding.params, locale) : whole,
  );
}

function formatParam(name: string, params: FindingParams, locale: DoctorLocale): string {
  const value = params[name]!;
  const words = WORDS[locale];
  if (name === 'vertex' && value === UNKNOWN_VERTEX) return UNNAMED_VERTEX[locale];
  if (typeof value === 'string') return value === '' ? words.none : (words[value as keyof typeof words] ?? value);
  // Unknown figures (a saved response without the config) are -1.
  if (value < 0) return words.unknown;
  if (name.endsWith('Ms')) return duration(value);
  if (name.endsWith('Bytes')) return bytes(value);
  return String(value);
}

const duration = reportDuration;
const bytes = reportBytes;

const LESSON_LABEL: { readonly [L in DoctorLocale]: string } = { en: 'lesson: ', 'zh-CN': '课程：' };
const HEAD: { readonly [L in DoctorLocale]: { none: string; some: string } } = {
  en: { none: 'findings: none', some: 'findings:' },
  'zh-CN': { none: '诊断结果：无', some: '诊断结果：' },
};

/** The findings as the CLI prints them: a head line, then each message and its lesson. */
export function doctorReportLines(findings: readonly Finding[], locale: DoctorLocale): string[] {
  if (findings.length === 0) return [HEAD[locale].none];
  return [HEAD[locale].some, ...findings.flatMap((f) => [`  - ${doctorMessage(f, locale)}`, `    ${LESSON_LABEL[locale]}${f.lesson} (?lesson=${f.lesson})`])];
}
