/**
 * The layouts the build made of the bundled scenarios' job graphs (node/pre-laid-out-graphs.ts),
 * each under ELK's input as JSON: the same input the page would give ELK, so a hit is the layout
 * ELK would return. Fetched once, on the page's first layout; where the fetch fails (a page served
 * without them), every graph is laid out by ELK.
 */
import type { ElkNode } from 'elkjs/lib/elk-api';
import type { JobGraphLayout } from './elk-graph.ts';

/** Site-absolute, like the lessons' pre-parsed scenarios. */
export const PRE_LAID_OUT_URL = '/job-graph-layouts.json';

/** The file: [key, layout] pairs (a list, so no key can be an object's own property name). */
export type PreLaidOutGraphs = Array<[key: string, layout: JobGraphLayout]>;

let table: Promise<ReadonlyMap<string, JobGraphLayout>> | undefined;

/** The key of ELK's input `graph`. */
export function preLaidOutKey(graph: ElkNode): string {
  return JSON.stringify(graph);
}

/** The build's layout of `graph`, if it made one. */
export async function preLaidOut(graph: ElkNode): Promise<JobGraphLayout | undefined> {
  table ??= fetchTable();
  return (await table).get(preLaidOutKey(graph));
}

async function fetchTable(): Promise<ReadonlyMap<string, JobGraphLayout>> {
  try {
    const response = await fetch(PRE_LAID_OUT_URL);
    if (!response.ok) return new Map();
    const pairs: unknown = await response.json();
    return Array.isArray(pairs) ? new Map(pairs as PreLaidOutGraphs) : new Map();
  } catch {
    return new Map();
  }
}
