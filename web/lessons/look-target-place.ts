/**
 * Where each region a lesson step points at (engine/lessons/look-target.ts) is on the page: its
 * label as the page shows it, and for a region inside the checkpoint dashboard, the tab it is on.
 * The element that renders a region carries `data-look="<target>"`; this table is what the lesson
 * panel needs to find a region that is not on screen (open its tab) and to name it in the step.
 */
import type { LookTarget } from '../../engine/lessons/look-target.ts';
import type { DashboardTab } from '../dashboard/dashboard-state.svelte.ts';
import { t, type MessageKey } from '../i18n/i18n.svelte.ts';

export interface LookTargetPlace {
  /** the region's own label on the page; none for a region that is its whole tab */
  label?: MessageKey;
  /** the dashboard tab the region is on; none for a region always on the page */
  tab?: DashboardTab;
}

export const LOOK_TARGET_PLACES: Readonly<Record<LookTarget, LookTargetPlace>> = {
  timeline: { label: 'timeline.title' },
  'job-status': { label: 'status.job' },
  'job-graph': { label: 'graph.title' },
  'in-progress-count': { label: 'checkpoints.counts.inProgress', tab: 'overview' },
  'start-delay-column': { label: 'checkpoints.field.startDelay', tab: 'overview' },
  'alignment-column': { label: 'checkpoints.field.alignmentDuration', tab: 'overview' },
  'sync-duration-column': { label: 'checkpoints.field.syncDuration', tab: 'overview' },
  'latest-failed': { label: 'checkpoints.latest.failed', tab: 'overview' },
  'latest-restore': { label: 'checkpoints.latest.restore', tab: 'overview' },
  'checkpoint-history': { tab: 'history' },
  'end-to-end-column': { label: 'checkpoints.field.endToEnd', tab: 'history' },
  'checkpointed-size-column': { label: 'checkpoints.field.checkpointedSize', tab: 'history' },
  'full-size-column': { label: 'checkpoints.field.fullSize', tab: 'history' },
  'in-flight-column': { label: 'checkpoints.field.inFlight', tab: 'history' },
  'sink-output': { label: 'output.title' },
  'source-backlog-chart': { label: 'charts.backlog' },
  'rocksdb-chart': { label: 'charts.rocksdb' },
  'block-cache-chart': { label: 'charts.blockCache' },
  'remote-storage': { label: 'storage.remote' },
};

/** The region as the step's "Look at" list names it: its label, and for a dashboard region, where (Checkpoints › History). */
export function lookTargetText(target: LookTarget): string {
  const { label, tab } = LOOK_TARGET_PLACES[target];
  if (!tab) return t(label!);
  const where = t('lessons.lookAt.tab', { panel: t('checkpoints.title'), tab: t(`checkpoints.tab.${tab}`) });
  return label ? t('lessons.lookAt.inTab', { region: t(label), where }) : where;
}

/**
 * The dashboard tab to open so that the regions can be seen: none when one of them is on the tab
 * already showing (or none is on a tab), else the tab of the first that is on one.
 */
export function lookTab(targets: readonly LookTarget[], shown: DashboardTab): DashboardTab | undefined {
  const tabs = targets.flatMap((target) => LOOK_TARGET_PLACES[target].tab ?? []);
  return tabs.includes(shown) ? undefined : tabs[0];
}

/** The first of the regions that can be seen with `shown` open: the one to scroll to. */
export function firstVisibleLookTarget(targets: readonly LookTarget[], shown: DashboardTab): LookTarget | undefined {
  return targets.find((target) => (LOOK_TARGET_PLACES[target].tab ?? shown) === shown);
}
