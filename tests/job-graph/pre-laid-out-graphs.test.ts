/**
 * The job graphs the build lays out (node/pre-laid-out-graphs.ts) and how the page finds them
 * (web/job-graph/pre-laid-out-graphs.ts): every bundled scenario's graph is there under the key the
 * page computes from its own run's topology, each is what the page's own ELK (the minified worker
 * it loads) gives for the same input, and a page whose fetch fails finds none (ELK lays out all).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ELK from 'elkjs/lib/elk-api.js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Simulation } from '../../engine/sim/simulation.ts';
import { validateScenario } from '../../engine/scenario/scenario-document-validator.ts';
import { bundledScenarioInputs, jobGraphShape, preLaidOutGraphs } from '../../node/pre-laid-out-graphs.ts';
import { elkGraphOf, jobGraphLayoutOf, jobGraphShapeOf, type JobGraphShape } from '../../web/job-graph/elk-graph.ts';
import { preLaidOutKey, type PreLaidOutGraphs } from '../../web/job-graph/pre-laid-out-graphs.ts';
import { REPO_ROOT } from '../browser/browser-session.ts';

const PUBLIC = join(REPO_ROOT, 'public');
const require = createRequire(import.meta.url);

/** The page's ELK: the API and the minified worker the page loads, run in Node. */
function pagesElk() {
  const { Worker } = require('elkjs/lib/elk-worker.min.js') as { Worker: new (url?: string) => Worker };
  return new ELK({ workerFactory: () => new Worker() });
}

/**
 * The shape JobGraph.svelte takes from a run's topology. The run keys its state on the heap: the
 * backend does not change the topology, and rocksdb needs the page's wa-sqlite storage.
 */
function shapeOfRun(input: Record<string, unknown>): JobGraphShape {
  const config = { ...(input['config'] as Record<string, unknown> | undefined), 'state.backend.type': 'hashmap' };
  const validated = validateScenario({ ...input, config });
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  return jobGraphShapeOf(new Simulation(validated.scenario).topology());
}

describe('pre-laid-out job graphs', () => {
  let built: PreLaidOutGraphs;
  beforeAll(async () => {
    built = await preLaidOutGraphs(PUBLIC);
  });

  it('holds every bundled scenario’s graph (each lesson at each step) in both directions, with and without channel lanes, under the key of the page’s own run', () => {
    const keys = new Set(built.map(([key]) => key));
    const inputs = bundledScenarioInputs(PUBLIC);
    let graphs = 0;
    for (const { name, input } of inputs) {
      if (jobGraphShape(input) === null) continue;
      const shape = shapeOfRun(input as Record<string, unknown>);
      for (const direction of ['RIGHT', 'DOWN'] as const) {
        for (const channels of [false, true]) {
          expect(keys.has(preLaidOutKey(elkGraphOf(shape, direction, channels))), `${name}, ${direction}, channels ${channels}`).toBe(true);
          graphs++;
        }
      }
    }
    // every lesson step and example scenario but the scale run(s)
    expect(graphs).toBeGreaterThanOrEqual((inputs.length - 2) * 4);
  });

  it('keeps each layout as the page’s own ELK lays the same input out', async () => {
    const elk = pagesElk();
    for (const [key, layout] of built) {
      const graph = JSON.parse(key) as ReturnType<typeof elkGraphOf>;
      const shape: JobGraphShape = {
        v: (graph.children ?? []).map((c) => [c.id, 0]),
        e: (graph.edges ?? []).map((e) => [e.sources[0]!, e.targets[0]!, e.labels?.[0]?.text ?? '']),
      };
      const fresh = jobGraphLayoutOf(await elk.layout(graph), shape);
      expect(fresh, key).toEqual(layout);
    }
  });
});

describe('the page’s lookup', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  const lookup = async () => (await import('../../web/job-graph/pre-laid-out-graphs.ts')).preLaidOut;

  it('finds a graph the build laid out, fetching the layouts once', async () => {
    const graph = elkGraphOf({ v: [['a', 1], ['b', 2]], e: [['a', 'b', 'hash']] }, 'RIGHT', false);
    const layout = { width: 1, height: 2, vertices: [], edges: [] };
    const fetch = vi.fn(async () => new Response(JSON.stringify([[preLaidOutKey(graph), layout]])));
    vi.stubGlobal('fetch', fetch);
    const preLaidOut = await lookup();
    await expect(preLaidOut(graph)).resolves.toEqual(layout);
    await expect(preLaidOut(elkGraphOf({ v: [['a', 1], ['b', 3]], e: [['a', 'b', 'hash']] }, 'RIGHT', false))).resolves.toBeUndefined();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('finds none where the layouts cannot be fetched or are not a list', async () => {
    const graph = elkGraphOf({ v: [['a', 1]], e: [] }, 'DOWN', true);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('not found', { status: 404 })));
    await expect((await lookup())(graph)).resolves.toBeUndefined();
    vi.resetModules();
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ [preLaidOutKey(graph)]: {} }))));
    await expect((await lookup())(graph)).resolves.toBeUndefined();
    vi.resetModules();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect((await lookup())(graph)).resolves.toBeUndefined();
  });
});
