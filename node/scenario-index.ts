/**
 * The scenario picker's list, /scenarios/index.json: each bundled scenario's file and its name in
 * every language its YAML gives. Generated from the YAML, never kept as a copy: a scenario's name
 * and description live in its own file only (engine/scenario/localized-text.ts), so a translation
 * is added in one place and cannot drift from a second list. The dev server answers the list from
 * the YAML on each request; the build emits it into dist/. The picker's order is curated here.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { parseScenarioText } from '../engine/scenario/scenario-text.ts';
import { formatScenarioErrors, validateScenario } from '../engine/scenario/scenario-validator.ts';
import type { ScenarioTranslations } from '../engine/scenario/localized-text.ts';

/** The picker's order: the first is what a page opened without a lesson or a link runs. */
export const SCENARIO_PICKER_ORDER = [
  'word-count.yaml',
  'click-counts.yaml',
  'two-stream-join.yaml',
  'exactly-once-under-failures.yaml',
  'at-least-once-duplicates.yaml',
  'always-checkpointing.yaml',
  'min-pause.yaml',
  'incremental-checkpoints.yaml',
  'local-recovery.yaml',
  'partial-local-copy.yaml',
  'rocksdb-memory.yaml',
  'heap-timers.yaml',
  'snapshot-compression.yaml',
  'parallelism-and-state.yaml',
  'checkpoints-after-tasks-finish.yaml',
  'production-scale.yaml',
] as const;

/** One entry of the list; the page's ScenarioEntry (web/playground-state.svelte.ts). */
export interface ScenarioIndexEntry {
  file: string;
  /** the English name, or the only one */
  name: string;
  /** the name in the other languages the file gives */
  translations?: ScenarioTranslations;
}

const INDEX_URL = '/scenarios/index.json';

/** The list, read from public/scenarios/; a scenario that does not validate fails the build. */
export function scenarioIndex(publicDir: string): ScenarioIndexEntry[] {
  return SCENARIO_PICKER_ORDER.map((file) => indexEntry(file, readFileSync(join(publicDir, 'scenarios', file), 'utf8')));
}

function indexEntry(file: string, text: string): ScenarioIndexEntry {
  const parsed = parseScenarioText(text);
  const validated = parsed.ok ? validateScenario(parsed.value) : parsed;
  if (!validated.ok) throw new Error(`public/scenarios/${file} cannot be listed: ${formatScenarioErrors(validated.errors)}`);
  const name = validated.scenario.translations?.['zh-CN']?.name;
  return { file, name: validated.scenario.name, ...(name === undefined ? {} : { translations: { 'zh-CN': { name } } }) };
}

/**
 * The list as the dev server answers it: validating every scenario takes a few hundred ms, on
 * every page load, so the list is kept until one of its files changes.
 */
function cachedScenarioIndex(publicDir: string): () => ScenarioIndexEntry[] {
  let cached: { stamp: string; index: ScenarioIndexEntry[] } | undefined;
  return () => {
    const stamp = SCENARIO_PICKER_ORDER.map((file) => statSync(join(publicDir, 'scenarios', file)).mtimeMs).join();
    if (cached?.stamp !== stamp) cached = { stamp, index: scenarioIndex(publicDir) };
    return cached.index;
  };
}

export function scenarioIndexPlugin(publicDir: string): Plugin {
  const current = cachedScenarioIndex(publicDir);
  return {
    name: 'scenario-index',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (new URL(request.url ?? '/', 'http://localhost').pathname !== INDEX_URL) return next();
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify(current()));
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: INDEX_URL.slice(1), source: JSON.stringify(scenarioIndex(publicDir)) });
    },
  };
}
