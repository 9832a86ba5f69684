/**
 * Lays out the job graph with ELK's layered algorithm (the Sugiyama-style layout that Flink's own
 * dashboard approximates with dagre): sources on the left and data flowing right (or top-down on
 * a narrow screen), orthogonal edges that avoid the boxes, and the partitioner label (HASH,
 * FORWARD, …) placed on each edge (elk-graph.ts).
 *
 * The bundled scenarios' graphs were laid out by ELK when the site was built
 * (pre-laid-out-graphs.ts); any other graph (a rescale, a scenario of the learner's) is laid out
 * by ELK in its own Web Worker (elk-worker.min.js, 1.6 MB), started on the first such graph: it is
 * not part of the page's own bundle, the main thread never parses it, and a layout never blocks
 * the main thread. On a first visit, that worker's download, compile and first layout took a
 * core for half a second while the run's first frames drew; the first page now needs none of it.
 */
import ELK from 'elkjs/lib/elk-api.js';
import type { ELK as ElkApi } from 'elkjs/lib/elk-api';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';
import { elkGraphOf, jobGraphLayoutOf, type JobGraphLayout, type JobGraphShape, type LayoutDirection } from './elk-graph.ts';
import { preLaidOut } from './pre-laid-out-graphs.ts';

let elk: ElkApi | undefined;

export async function layoutJobGraph(shape: JobGraphShape, direction: LayoutDirection, channelsShown: boolean): Promise<JobGraphLayout> {
  const graph = elkGraphOf(shape, direction, channelsShown);
  const known = await preLaidOut(graph);
  if (known) return known;
  elk ??= new ELK({ workerUrl: elkWorkerUrl });
  return jobGraphLayoutOf(await elk.layout(graph), shape);
}
