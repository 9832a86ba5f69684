/**
 * The share dialog's "allowed origins" field: the docs sites whose pages may drive an embedded
 * playground over postMessage (the embed page's `allowed-origins` parameter, embed-bridge.ts).
 * An author types them as they read them in the address bar; the iframe snippet carries them.
 */

/** Why an entry of the field is not an origin; the dialog says it in its language. */
export type AllowedOriginProblem =
  | { code: 'not-url'; entry: string }
  | { code: 'not-http'; entry: string }
  | { code: 'has-path'; entry: string; origin: string };

/** The origins read; `problems` names each entry that is not one (the others still count). */
export type AllowedOrigins = { ok: true; origins: string[] } | { ok: false; origins: string[]; problems: AllowedOriginProblem[] };

/**
 * Reads the field: origins separated by commas, spaces or new lines (`https://docs.example.org`,
 * `http://localhost:5173`), or `*` for any. An origin is normalised as the browser reports it
 * (lower case, default port dropped); a trailing `/` is taken, a path is not (an origin has none).
 */
export function parseAllowedOrigins(text: string): AllowedOrigins {
  const origins: string[] = [];
  const problems: AllowedOriginProblem[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const origin = originOf(entry);
    if (typeof origin === 'string') {
      if (!origins.includes(origin)) origins.push(origin);
    } else problems.push(origin);
  }
  return problems.length > 0 ? { ok: false, origins, problems } : { ok: true, origins };
}

function originOf(entry: string): string | AllowedOriginProblem {
  if (entry === '*') return '*';
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return { code: 'not-url', entry };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { code: 'not-http', entry };
  const rest = url.pathname + url.search + url.hash;
  if (rest !== '/' || url.username || url.password) return { code: 'has-path', entry, origin: url.origin };
  return url.origin;
}
