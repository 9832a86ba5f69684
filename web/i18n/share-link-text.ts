/**
 * Why a share link holds no readable scenario, in the page's language. The link's reader
 * (web/embed/share-link.ts) throws a ShareLinkError naming the problem; anything else it could
 * throw is shown as its own message.
 */
import { ShareLinkError } from '../embed/share-link.ts';
import { t } from './i18n.svelte.ts';

export function shareLinkProblemText(error: unknown): string {
  if (!(error instanceof ShareLinkError)) return error instanceof Error ? error.message : String(error);
  const problem = error.problem;
  switch (problem.code) {
    case 'too-long':
      return t('shareLink.tooLong', { length: problem.length.toLocaleString('en-US'), max: problem.max.toLocaleString('en-US') });
    case 'not-base64':
      return t('shareLink.notBase64');
    case 'not-utf8':
      return t('shareLink.notUtf8');
    case 'bad-at':
      return t('shareLink.badAt', { value: JSON.stringify(problem.value) });
    case 'operations-not-json':
      return t('shareLink.operationsNotJson');
    case 'bad-operation':
      return t('shareLink.badOperation', { index: problem.index + 1, reason: t(`shareLink.operation.${problem.field}`) });
  }
}
