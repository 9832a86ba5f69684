/**
 * The per-checkpoint Gantt view (FLINK-39566, proposed for Flink's web dashboard), as pure data:
 * a strip of the recent checkpoints (width = duration, colour = status) and, for one checkpoint,
 * one row per subtask grouped by operator, its phases stacked from the trigger (start delay,
 * alignment, sync, async). Stragglers come first, outliers are flagged, aborted and unaligned
 * subtasks are told apart. Colours are names; the SVG and the canvas (PNG) renderers draw the
 * same layout, so what is exported is what is seen.
 */
import type {
  CheckpointStatisticsDocument,
  CompletedSubtaskCheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../../engine/checkpoint/stats/rest-document-types.ts';

/** Flink's four per-subtask phases, in the order a subtask goes through them. */
export const GANTT_PHASES = ['start-delay', 'alignment', 'sync', 'async'] as const;
export type GanttPhase = (typeof GANTT_PHASES)[number];

/** The strip's colours, by name: Flink's checkpoint status colours, savepoints apart. */
export type GanttStatusColor = 'completed' | 'savepoint' | 'in-progress' | 'failed';

/** The proposal's straggler rule: slower than both the p95 and one and a half times the median. */
export const OUTLIER_MEDIAN_FACTOR = 1.5;
export const OUTLIER_PERCENTILE = 0.95;
/** The proposal's strip shows the latest 60 checkpoints. */
export const STRIP_MAX_CHECKPOINTS = 60;

export interface StripBar {
  checkpointId: number;
  status: CheckpointStatisticsDocument['status'];
  color: GanttStatusColor;
  durationMs: number;
  /** px from the strip's left edge */
  x: number;
  width: number;
  outlier: boolean;
}

export interface GanttStrip {
  /** oldest on the left, as on a time axis */
  bars: StripBar[];
  /** durations above this are outliers (NaN: too few completed checkpoints to say) */
  outlierAboveMs: number;
}

export interface StripOptions {
  widthPx: number;
  gapPx?: number;
  minBarPx?: number;
  maxCheckpoints?: number;
}

/** Flink's history is newest first; the strip reads left to right, oldest first. */
export function layoutStrip(history: readonly CheckpointStatisticsDocument[], options: StripOptions): GanttStrip {
  const { widthPx, gapPx = 2, minBarPx = 3, maxCheckpoints = STRIP_MAX_CHECKPOINTS } = options;
  const shown = history.slice(0, maxCheckpoints).reverse();
  const durations = shown.map((c) => Math.max(0, c.end_to_end_duration));
  const completed = shown.filter((c) => c.status === 'COMPLETED').map((c) => Math.max(0, c.end_to_end_duration));
  const outlierAboveMs = outlierThreshold(completed);
  const widths = stripWidths(durations, widthPx - gapPx * Math.max(0, shown.length - 1), minBarPx);
  let x = 0;
  const bars = shown.map((checkpoint, i) => {
    const bar: StripBar = {
      checkpointId: checkpoint.id,
      status: checkpoint.status,
      color: stripColor(checkpoint),
      durationMs: durations[i]!,
      x,
      width: widths[i]!,
      outlier: durations[i]! > outlierAboveMs,
    };
    x += widths[i]! + gapPx;
    return bar;
  });
  return { bars, outlierAboveMs };
}

/** Widths proportional to duration, each at least `minPx` so a 0 ms checkpoint can be clicked. */
function stripWidths(durations: readonly number[], availablePx: number, minPx: number): number[] {
  const total = durations.reduce((a, b) => a + b, 0);
  const share = total > 0 ? availablePx / total : 0;
  const raw = durations.map((d) => (total > 0 ? Math.max(minPx, d * share) : availablePx / Math.max(1, durations.length)));
  const sum = raw.reduce((a, b) => a + b, 0);
  const fit = sum > availablePx && sum > 0 ? availablePx / sum : 1;
  return raw.map((w) => w * fit);
}

export function stripColor(checkpoint: Pick<CheckpointStatisticsDocument, 'status' | 'is_savepoint'>): GanttStatusColor {
  if (checkpoint.status === 'FAILED') return 'failed';
  if (checkpoint.status === 'IN_PROGRESS') return 'in-progress';
  return checkpoint.is_savepoint ? 'savepoint' : 'completed';
}

/**
 * max(p95, 1.5 × median); NaN (nothing is an outlier) below two values. The p95 interpolates
 * linearly between order statistics (Hyndman–Fan R7): Flink's own percentile (commons-math
 * LEGACY) is the maximum itself for fewer than 20 values, which would hide every straggler of a
 * job with a parallelism under 20.
 */
export function outlierThreshold(values: readonly number[]): number {
  if (values.length < 2) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.max(linearPercentile(sorted, OUTLIER_PERCENTILE), OUTLIER_MEDIAN_FACTOR * linearPercentile(sorted, 0.5));
}

function linearPercentile(sorted: readonly number[], quantile: number): number {
  const position = quantile * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}

// ---- one checkpoint's subtasks ----

export interface GanttSegment {
  phase: GanttPhase;
  /** ms after the checkpoint was triggered */
  startMs: number;
  durationMs: number;
}

/**
 * `acknowledged`: the subtask reported its snapshot; `aborted`: it reported stats when the
 * checkpoint was aborted (Flink's `aborted` flag); `pending`: nothing reported yet (still running,
 * or never, when the checkpoint failed).
 */
export type GanttRowState = 'acknowledged' | 'aborted' | 'pending';

export interface GanttRow {
  vertexId: string;
  subtask: number;
  state: GanttRowState;
  /** trigger → acknowledgement; for a pending subtask, how long the checkpoint has waited for it */
  endToEndMs: number;
  segments: GanttSegment[];
  unaligned: boolean;
  outlier: boolean;
  /** the figures Flink reports for the subtask; null while pending */
  figures: CompletedSubtaskCheckpointStatisticsDocument | null;
}

export interface GanttGroup {
  vertexId: string;
  name: string;
  rows: GanttRow[];
  outlierAboveMs: number;
}

export interface GanttCheckpoint {
  checkpointId: number;
  groups: GanttGroup[];
  /** the longest row: the time axis runs from the trigger to here */
  spanMs: number;
}

/** One operator's subtasks document for the checkpoint; absent when it was not served. */
export interface GanttVertexInput {
  vertexId: string;
  name: string;
  statistics: TaskCheckpointStatisticsWithSubtaskDetailsDocument | undefined;
}

export function layoutCheckpoint(checkpoint: CheckpointStatisticsDocument, vertices: readonly GanttVertexInput[]): GanttCheckpoint {
  const waitedMs = Math.max(0, checkpoint.end_to_end_duration);
  const groups = vertices
    .filter((v): v is GanttVertexInput & { statistics: TaskCheckpointStatisticsWithSubtaskDetailsDocument } => v.statistics !== undefined)
    .map((v) => layoutGroup(v.vertexId, v.name, v.statistics, waitedMs))
    .sort((a, b) => slowest(b) - slowest(a));
  const spanMs = Math.max(waitedMs, ...groups.flatMap((g) => g.rows.map(rowExtent)));
  return { checkpointId: checkpoint.id, groups, spanMs };
}

function layoutGroup(vertexId: string, name: string, statistics: TaskCheckpointStatisticsWithSubtaskDetailsDocument, waitedMs: number): GanttGroup {
  const reported = statistics.subtasks.filter((s): s is CompletedSubtaskCheckpointStatisticsDocument => s.className === 'completed');
  const outlierAboveMs = outlierThreshold(reported.filter((s) => !s.aborted).map((s) => s.end_to_end_duration));
  const rows = statistics.subtasks.map((s) => (s.className === 'completed' ? reportedRow(vertexId, s, outlierAboveMs) : pendingRow(vertexId, s.index, waitedMs)));
  return { vertexId, name, rows: rows.sort(stragglersFirst), outlierAboveMs };
}

function reportedRow(vertexId: string, s: CompletedSubtaskCheckpointStatisticsDocument, outlierAboveMs: number): GanttRow {
  return {
    vertexId,
    subtask: s.index,
    state: s.aborted ? 'aborted' : 'acknowledged',
    endToEndMs: Math.max(0, s.end_to_end_duration),
    segments: stackedPhases(s),
    unaligned: s.unaligned_checkpoint,
    outlier: !s.aborted && s.end_to_end_duration > outlierAboveMs,
    figures: s,
  };
}

function pendingRow(vertexId: string, subtask: number, waitedMs: number): GanttRow {
  return { vertexId, subtask, state: 'pending', endToEndMs: waitedMs, segments: [], unaligned: false, outlier: false, figures: null };
}

/**
 * The phases one after another from the trigger, as Flink measures them: the start delay until
 * the first barrier, the alignment until the last one, then the synchronous and the asynchronous
 * part of the snapshot. Flink reports -1 for a phase it did not measure: it takes no room.
 */
export function stackedPhases(s: CompletedSubtaskCheckpointStatisticsDocument): GanttSegment[] {
  const durations: Record<GanttPhase, number> = {
    'start-delay': s.start_delay,
    alignment: s.alignment.duration,
    sync: s.checkpoint.sync,
    async: s.checkpoint.async,
  };
  let startMs = 0;
  const segments: GanttSegment[] = [];
  for (const phase of GANTT_PHASES) {
    const durationMs = Math.max(0, durations[phase]);
    if (durationMs > 0) segments.push({ phase, startMs, durationMs });
    startMs += durationMs;
  }
  return segments;
}

/** Not yet acknowledged first (the checkpoint waits on them), then the slowest. */
function stragglersFirst(a: GanttRow, b: GanttRow): number {
  const pending = Number(b.state === 'pending') - Number(a.state === 'pending');
  return pending !== 0 ? pending : b.endToEndMs - a.endToEndMs || a.subtask - b.subtask;
}

function rowExtent(row: GanttRow): number {
  const last = row.segments[row.segments.length - 1];
  return Math.max(row.endToEndMs, last ? last.startMs + last.durationMs : 0);
}

function slowest(group: GanttGroup): number {
  const pending = group.rows.some((r) => r.state === 'pending');
  return pending ? Number.POSITIVE_INFINITY : Math.max(0, ...group.rows.map((r) => r.endToEndMs));
}
