/**
 * What the embed page reads from its address: `view` (graph, dashboard or all), `scenario`
 * (a URL, or a bundled scenario's file name), `#scenario=<base64 yaml>` (a share link),
 * `allowed-origins` (comma-separated origins that may call the API, `*` for any), `autostart`
 * (0 to load paused) and `lang` (en, zh-CN).
 */
import type { EmbedView } from './embed-protocol.ts';
import { scenarioFromHash } from './share-link.ts';

export interface EmbedOptions {
  view: EmbedView;
  scenario: { kind: 'url'; url: string } | { kind: 'text'; text: string } | { kind: 'none' } | { kind: 'bad-link'; reason: string; cause: unknown };
  allowedOrigins: string[];
  autostart: boolean;
  lang: string | null;
}

const VIEWS: readonly EmbedView[] = ['graph', 'dashboard', 'all'];

export function readEmbedOptions(location: { search: string; hash: string }): EmbedOptions {
  const params = new URLSearchParams(location.search);
  const view = params.get('view');
  return {
    view: VIEWS.includes(view as EmbedView) ? (view as EmbedView) : 'all',
    scenario: scenarioOption(params.get('scenario'), location.hash),
    allowedOrigins: (params.get('allowed-origins') ?? '')
      .split(/[\s,]+/)
      .map((o) => o.trim())
      .filter(Boolean),
    autostart: params.get('autostart') !== '0' && params.get('autostart') !== 'false',
    lang: params.get('lang'),
  };
}

function scenarioOption(url: string | null, hash: string): EmbedOptions['scenario'] {
  try {
    const text = scenarioFromHash(hash);
    if (text !== null) return { kind: 'text', text };
  } catch (error) {
    return { kind: 'bad-link', reason: error instanceof Error ? error.message : String(error), cause: error };
  }
  return url ? { kind: 'url', url } : { kind: 'none' };
}
