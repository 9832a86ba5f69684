/**
 * A load problem's parts in the page's language, rendered when shown (so a reader who switches
 * language reads it in the new one): what it calls the scenario (a file name or URL as it is, a
 * share link or the interrupted run translated) and why the load failed.
 */
import type { LoadFailure, ScenarioLabel } from '../playground-state.svelte.ts';
import { t } from './i18n.svelte.ts';
import { shareLinkProblemText } from './share-link-text.ts';

export function scenarioLabelText(label: ScenarioLabel): string {
  if (typeof label === 'string') return label;
  return label.from === 'share-link' ? t('scenario.fromShareLink') : t('scenario.fromInterruptedRun');
}

export function loadFailureText(reason: LoadFailure): string {
  return typeof reason === 'string' ? reason : shareLinkProblemText(reason.shareLink);
}
