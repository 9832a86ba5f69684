/**
 * What the checkpoint dashboard shows: whose statistics (the run's or the imported job's), the
 * tab, the history rows opened, and for each opened checkpoint the operator whose subtasks are
 * drilled into. UI state only; the documents come from PlaygroundState and its imported job.
 */
import { GanttState } from './gantt-state.svelte.ts';

export const DASHBOARD_TABS = ['overview', 'history', 'summary', 'configuration', 'doctor', 'gantt'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** How much of the run the timeline shows: all of it, or the last so many ms. */
export const TIMELINE_WINDOWS = ['all', 30_000, 120_000, 600_000] as const;
export type TimelineWindow = (typeof TIMELINE_WINDOWS)[number];

/** Whose statistics every tab and the timeline show. */
export type StatisticsSource = 'run' | 'imported';

export class DashboardState {
  source = $state<StatisticsSource>('run');
  tab = $state<DashboardTab>('overview');
  expanded = $state.raw<ReadonlySet<number>>(new Set());
  /** checkpoint id → the vertex whose subtasks are shown */
  drilled = $state.raw<ReadonlyMap<number, string>>(new Map());
  timelineWindow = $state<TimelineWindow>('all');
  gantt = new GanttState();

  /** The imported job's source, while it holds anything; else the run's. */
  shownSource(importHeld: boolean): StatisticsSource {
    return importHeld ? this.source : 'run';
  }

  /** Another source's checkpoint ids mean other checkpoints: what was opened or picked closes. */
  showSource(source: StatisticsSource): void {
    if (source === this.source) return;
    this.source = source;
    this.reset();
    this.gantt.reset();
  }

  isExpanded(id: number): boolean {
    return this.expanded.has(id);
  }

  toggleCheckpoint(id: number): void {
    const next = new Set(this.expanded);
    if (!next.delete(id)) next.add(id);
    this.expanded = next;
  }

  /** Opens the history with one checkpoint expanded (from the timeline or the overview). */
  showCheckpoint(id: number): void {
    this.tab = 'history';
    if (!this.expanded.has(id)) this.expanded = new Set([...this.expanded, id]);
  }

  drilledVertex(id: number): string | undefined {
    return this.drilled.get(id);
  }

  toggleVertex(id: number, vertexId: string): void {
    const next = new Map(this.drilled);
    if (next.get(id) === vertexId) next.delete(id);
    else next.set(id, vertexId);
    this.drilled = next;
  }

  /** A new run: the ids of the old one mean nothing now. */
  reset(): void {
    this.expanded = new Set();
    this.drilled = new Map();
  }
}
