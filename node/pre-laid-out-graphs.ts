/**
 * The job graphs of the bundled scenarios laid out by ELK when the site is built, so the page
 * draws them without ELK's worker (web/job-graph/elk-layout.ts): every scenario of public/scenarios/
 * and every lesson at each of its steps, in both directions the page lays out (left to right, and
 * top-down on a narrow screen), with and without channel lanes. Each layout is kept under the key
 * of ELK's input (web/job-graph/pre-laid-out-graphs.ts), built by the page's own functions
 * (elk-graph.ts), so a key the page computes is one the build computed only if the input is the
 * same. Generated, never kept as a copy: the build emits /job-graph-layouts.json, the dev server
 * answers it from the YAML (once per change of the files).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { Plugin } from 'vite';
import { LESSONS } from '../engine/lessons/lesson-catalog.ts';
import { lessonScenarioInput } from '../engine/lessons/lesson-scenario.ts';
import { ExecutionGraph } from '../engine/job/execution-graph.ts';
import { parseScenarioText } from '../engine/scenario/scenario-text.ts';
import { validateScenario } from '../engine/scenario/scenario-document-validator.ts';
import { formatScenarioErrors } from '../engine/scenario/scenario-error.ts';
import { elkGraphOf, jobGraphLayoutOf, jobGraphShapeOf, type JobGraphShape, type LayoutDirection } from '../web/job-graph/elk-graph.ts';
import { PRE_LAID_OUT_URL, preLaidOutKey, type PreLaidOutGraphs } from '../web/job-graph/pre-laid-out-graphs.ts';

const DIRECTIONS: readonly LayoutDirection[] = ['RIGHT', 'DOWN'];

/** Every bundled scenario's input as the page loads it: a file as written, a lesson's as each step leaves it. */
export function bundledScenarioInputs(publicDir: string): Array<{ name: string; input: unknown }> {
  const read = (path: string) => {
    const parsed = parseScenarioText(readFileSync(join(publicDir, path), 'utf8'), 'yaml');
    if (!parsed.ok) throw new Error(`${path} cannot be read: ${formatScenarioErrors(parsed.errors)}`);
    return parsed.value as Record<string, unknown>;
  };
  const files = readdirSync(join(publicDir, 'scenarios')).filter((file) => /\.ya?ml$/.test(file));
  return [
    ...files.map((file) => ({ name: `scenarios/${file}`, input: read(`scenarios/${file}`) as unknown })),
    ...LESSONS.flatMap((lesson) => {
      const written = read(lesson.scenario);
      return lesson.steps.map((_, upTo) => ({ name: `${lesson.scenario} before step ${upTo + 1}`, input: lessonScenarioInput(lesson, written, upTo) as unknown }));
    }),
  ];
}

/** The job graph's shape of a scenario, as the page's JobGraph takes it from the topology; null for a scale run (drawn without ELK) or an invalid scenario. */
export function jobGraphShape(input: unknown): JobGraphShape | null {
  const validated = validateScenario(input);
  if (!validated.ok || validated.scenario.runtime === 'scale') return null;
  return jobGraphShapeOf(new ExecutionGraph(validated.scenario, 0));
}

/** ELK's layouts of every distinct graph of the bundled scenarios, as the page fetches them. */
export async function preLaidOutGraphs(publicDir: string): Promise<PreLaidOutGraphs> {
  const elk = new ELK();
  const layouts = new Map<string, PreLaidOutGraphs[number][1]>();
  for (const { input } of bundledScenarioInputs(publicDir)) {
    const shape = jobGraphShape(input);
    if (!shape) continue;
    for (const direction of DIRECTIONS) {
      for (const channelsShown of [false, true]) {
        const graph = elkGraphOf(shape, direction, channelsShown);
        const key = preLaidOutKey(graph);
        if (!layouts.has(key)) layouts.set(key, jobGraphLayoutOf(await elk.layout(graph), shape));
      }
    }
  }
  return [...layouts];
}

export function preLaidOutGraphsPlugin(publicDir: string): Plugin {
  // the dev server's answer, kept while the bundled scenarios' files stay as they were
  let cached: { files: string; json: Promise<string> } | undefined;
  const answer = () => {
    const files = bundledFilesText(publicDir);
    if (cached?.files !== files) cached = { files, json: preLaidOutGraphs(publicDir).then((pairs) => JSON.stringify(pairs)) };
    return cached.json;
  };
  return {
    name: 'pre-laid-out-graphs',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (new URL(request.url ?? '/', 'http://localhost').pathname !== PRE_LAID_OUT_URL) return next();
        answer().then(
          (json) => {
            response.setHeader('Content-Type', 'application/json');
            response.end(json);
          },
          (error: unknown) => next(error),
        );
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: PRE_LAID_OUT_URL.slice(1), source: JSON.stringify(await preLaidOutGraphs(publicDir)) });
    },
  };
}

/** The bundled scenarios' files, whole: what the layouts are made of (apart from the code). */
function bundledFilesText(publicDir: string): string {
  return ['scenarios', 'lessons']
    .flatMap((dir) => readdirSync(join(publicDir, dir)).filter((file) => /\.ya?ml$/.test(file)).map((file) => readFileSync(join(publicDir, dir, file), 'utf8')))
    .join('\0');
}
