/**
 * The checkpoint dashboard's tabs other than the default (Overview), each in its own chunk: the
 * first page shows only the Overview, so the others load when their tab opens, or once the first
 * checkpoint is on screen (`prefetchDashboardTabs`), so that a click shows the tab at once.
 */
export const dashboardTabModules = {
  history: () => import('./HistoryTab.svelte'),
  summary: () => import('./SummaryTab.svelte'),
  configuration: () => import('./ConfigurationTab.svelte'),
  gantt: () => import('./GanttTab.svelte'),
  doctor: () => import('./DoctorTab.svelte'),
};

/** Loads every tab's code in the background; a failed fetch is retried when the tab opens. */
export function prefetchDashboardTabs(): void {
  for (const load of Object.values(dashboardTabModules)) void load().catch(() => {});
}
