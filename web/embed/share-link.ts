/**
 * Share links and embed addresses: a scenario travels in the URL's fragment as base64 (URL-safe,
 * UTF-8) YAML, `#scenario=<base64>`, so it never reaches a server; or by address, `?scenario=<url>`.
 */
import { MAX_SCENARIO_TEXT_LENGTH } from '../../engine/scenario/scenario-json-text.ts';
import type { EmbedView } from './embed-protocol.ts';
import type { RunLinkProblem } from './shared-run.ts';

export function encodeScenario(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * Longer links are refused before decoding: the longest scenario text the reader takes
 * (MAX_SCENARIO_TEXT_LENGTH characters, each up to 4 bytes of UTF-8) is shorter in base64.
 */
export const MAX_SHARED_SCENARIO_LENGTH = Math.ceil((MAX_SCENARIO_TEXT_LENGTH * 4 * 4) / 3);

/** Why a link holds no readable scenario; the page says it in its language (web/i18n/share-link-text.ts). */
export type ShareLinkProblem = ScenarioLinkProblem | RunLinkProblem;
type ScenarioLinkProblem = { code: 'too-long'; length: number; max: number } | { code: 'not-base64' } | { code: 'not-utf8' };

/**
 * A link that holds no readable scenario (or run: shared-run.ts gives its problems' English, which
 * the embed element, which reads scenarios only, need not carry); its message is the English one.
 */
export class ShareLinkError extends Error {
  constructor(problem: ScenarioLinkProblem);
  constructor(problem: RunLinkProblem, english: string);
  constructor(
    readonly problem: ShareLinkProblem,
    english?: string,
  ) {
    super(english ?? scenarioLinkProblemEnglish(problem as ScenarioLinkProblem));
    this.name = 'ShareLinkError';
  }
}

function scenarioLinkProblemEnglish(problem: ScenarioLinkProblem): string {
  switch (problem.code) {
    case 'too-long':
      return `the link's scenario is ${problem.length.toLocaleString('en-US')} characters long; at most ${problem.max.toLocaleString('en-US')} are read`;
    case 'not-base64':
      return "the link's scenario is not base64url text (letters, digits, - and _), as the Share button writes it";
    case 'not-utf8':
      return "the link's scenario is not UTF-8 text";
  }
}

/** Decodes base64 or base64url; throws a ShareLinkError on anything else. */
export function decodeScenario(encoded: string): string {
  const base64 = encoded.trim().replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  if (base64.length > MAX_SHARED_SCENARIO_LENGTH) throw new ShareLinkError({ code: 'too-long', length: base64.length, max: MAX_SHARED_SCENARIO_LENGTH });
  if (!/^[A-Za-z0-9+/]*$/.test(base64) || base64.length % 4 === 1) throw new ShareLinkError({ code: 'not-base64' });
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ShareLinkError({ code: 'not-utf8' });
  }
}

/** The scenario carried in a URL fragment (`#scenario=…`), if any. */
export function scenarioFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const encoded = params.get('scenario');
  return encoded ? decodeScenario(encoded) : null;
}

/** The playground page with the scenario in its fragment. */
export function shareLink(base: string, yaml: string): string {
  const url = new URL('./', base);
  url.hash = `scenario=${encodeScenario(yaml)}`;
  return url.href;
}

/** The embed page (for an iframe) with the scenario in its fragment. */
export function embedLink(base: string, yaml: string, view: EmbedView, allowedOrigins: readonly string[] = []): string {
  const url = new URL('./embed.html', base);
  url.searchParams.set('view', view);
  if (allowedOrigins.length > 0) url.searchParams.set('allowed-origins', allowedOrigins.join(','));
  url.hash = `scenario=${encodeScenario(yaml)}`;
  return url.href;
}
