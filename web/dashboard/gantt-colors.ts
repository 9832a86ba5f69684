/**
 * The Gantt view's colour names as colours, the same on screen and in the exported PNG (a canvas
 * cannot read the page's CSS variables reliably once it is a file): Flink's checkpoint status
 * colours, and the phase colours the dashboard's "where the time went" bars use (app.css).
 */
import { CHECKPOINT_STATUS_COLORS } from '../job-graph/flink-colors.ts';
import type { GanttPhase, GanttStatusColor } from './checkpoint-gantt-layout.ts';

export const STATUS_FILL: Readonly<Record<GanttStatusColor, string>> = {
  completed: CHECKPOINT_STATUS_COLORS['COMPLETED']!,
  savepoint: '#722ed1',
  'in-progress': CHECKPOINT_STATUS_COLORS['IN_PROGRESS']!,
  failed: CHECKPOINT_STATUS_COLORS['FAILED']!,
};

export const PHASE_FILL: Readonly<Record<GanttPhase, string>> = {
  'start-delay': '#fa8c16',
  alignment: '#722ed1',
  sync: '#f5222d',
  async: '#1890ff',
};

/** The outline of an outlier and the mark of an aborted subtask: a colour none of the bars has. */
export const OUTLIER_STROKE = '#eb2f96';
export const PENDING_STROKE = '#8c8c8c';
