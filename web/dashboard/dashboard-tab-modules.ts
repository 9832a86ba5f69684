/**
 * The checkpoint dashboard's tabs other than the default (Overview), each in its own chunk: the
 * first page shows only the Overview, so the others load when their tab opens, or once the first
 * checkpoint is on screen (`prefetchDashboardTabs`), so that a click shows the tab at once.
 */
import { whenIdle } from '../when-idle.ts';

/** A busy run leaves no idle period: each tab is fetched after this long at the latest. */
const PREFETCH_IDLE_TIMEOUT_MS = 1000;

export const dashboardTabModules = {
  history: () => import('./HistoryTab.svelte'),
  summary: () => import('./SummaryTab.svelte'),
  configuration: () => import('./ConfigurationTab.svelte'),
  gantt: () => import('./GanttTab.svelte'),
  doctor: () => import('./DoctorTab.svelte'),
};

/**
 * Loads every tab's code in the background, one tab per idle period (all five in one task was a
 * long task in the middle of a full-speed run); a failed fetch is retried when the tab opens.
 */
export function prefetchDashboardTabs(): void {
  const loads = Object.values(dashboardTabModules);
  const next = () => {
    const load = loads.shift();
    if (!load) return;
    void load().catch(() => {});
    whenIdle(next, PREFETCH_IDLE_TIMEOUT_MS);
  };
  whenIdle(next, PREFETCH_IDLE_TIMEOUT_MS);
}

