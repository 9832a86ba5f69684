/**
 * Fetching a Flink REST response from the page. A browser may only read another origin's response
 * when that server allows it (CORS); Flink's REST API sends `Access-Control-Allow-Origin` as
 * `web.access-control-allow-origin` sets it, but a proxy in front of it (YARN, an ingress) or a
 * History Server behind one often does not. The browser does not say which it was (a refused
 * response and an unreachable server look the same to the page), so every failure comes with the
 * `curl` line that fetches the same response from a terminal, to open as a file instead.
 */
import { endpointOfPath } from '../../engine/interop/flink-endpoint.ts';
import type { ImportedFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';

export type FlinkUrlFetch =
  | { ok: true; text: string; restPath: string | undefined }
  | { ok: false; problem: 'not-a-url'; curl: null }
  | { ok: false; problem: 'refused'; curl: string }
  | { ok: false; problem: 'http-status'; status: number; curl: string };

export async function fetchFlinkResponse(input: string): Promise<FlinkUrlFetch> {
  const url = httpUrl(input);
  if (url === undefined) return { ok: false, problem: 'not-a-url', curl: null };
  const curl = curlLine(url.href);
  let response: Response;
  try {
    response = await fetch(url.href, { headers: { Accept: 'application/json' } });
  } catch {
    return { ok: false, problem: 'refused', curl };
  }
  if (!response.ok) return { ok: false, problem: 'http-status', status: response.status, curl };
  return { ok: true, text: await response.text(), restPath: restPathOf(url.pathname) };
}

/** An http(s) URL, or undefined for anything else (a `file:` or `javascript:` URL is not fetched). */
export function httpUrl(input: string): URL | undefined {
  try {
    const url = new URL(input.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The path from `/jobs/` on, so a proxy's prefix (`/proxy/application_1/jobs/…`) does not hide which endpoint it is. */
export function restPathOf(pathname: string): string | undefined {
  const at = pathname.lastIndexOf('/jobs/');
  return at < 0 ? undefined : pathname.slice(at);
}

/** `curl -sS -o flink-response.json 'URL'`, the URL quoted for a POSIX shell. */
export function curlLine(url: string): string {
  return `curl -sS -o flink-response.json '${url.replace(/'/g, `'\\''`)}'`;
}

/** A subtasks response names its operator only in its URL: take the vertex id from there. */
export function withVertexOfPath(statistics: ImportedFlinkStatistics, restPath: string | undefined): ImportedFlinkStatistics {
  const named = restPath === undefined ? undefined : endpointOfPath(restPath);
  if (named?.vertexId === undefined || !statistics.checkpointSubtaskDetails) return statistics;
  const vertexId = named.vertexId;
  return { ...statistics, checkpointSubtaskDetails: statistics.checkpointSubtaskDetails.map((d) => ({ ...d, vertexId: d.vertexId ?? vertexId })) };
}
