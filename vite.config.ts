import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { preParsedScenarios } from './node/pre-parsed-scenarios.ts';
import { scenarioIndexPlugin } from './node/scenario-index.ts';
import { preLaidOutGraphsPlugin } from './node/pre-laid-out-graphs.ts';

/**
 * Test files that launch Chromium: the browser tests, and the ones that run `ckpt-lab check --live`
 * (tests/browser/chromium-path and embed-units are Node-only, but cheap in either project).
 */
const CHROMIUM_TEST_FILES = ['tests/browser/**/*.test.ts', 'tests/cli/check-live.test.ts', 'tests/lessons/*-live.test.ts'];
import { lessonOutline } from './node/lesson-outline.ts';
import { firstPageChunks } from './node/first-page-chunks.ts';

/** An absolute path from the repo root: the build and the dev server's dependency scan agree on it. */
const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The playground is served from web/; public/ holds static files (example scenarios, wasm).
export default defineConfig({
  root: 'web',
  // A checkout may keep a dependency cache of its own (node_modules may be shared); a relative
  // cacheDir would resolve against root (web/), so the default is spelt out from the repo.
  cacheDir: process.env.VITE_CACHE_DIR ?? fromRoot('./node_modules/.vite'),
  publicDir: '../public',
  // Lessons' scenarios pre-parsed as JSON beside their YAML: the first page needs no YAML parser.
  // The picker's list (/scenarios/index.json) read from the scenarios' own YAML, names in every language;
  // the lessons' outline: lesson 1 and the list in the first chunk, every other lesson's text a chunk of its own;
  // the bundled scenarios' job graphs laid out by ELK, so the first page needs no ELK worker.
  plugins: [svelte(), preParsedScenarios(fromRoot('./public')), scenarioIndexPlugin(fromRoot('./public')), lessonOutline(), preLaidOutGraphsPlugin(fromRoot('./public'))],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    // Every browser the playground runs in (its entry awaits at top level) preloads modules itself.
    modulePreload: { polyfill: false },
    // The playground, its embeddable page (DESIGN.md contract 4), the docs page, the capacity planner and the live runtime's test page.
    rollupOptions: {
      // rocksdb.task-manager.worker.ts imports the working database's modules up front on purpose,
      // where task-manager.ts imports them lazily (a hashmap job's TaskManager never loads them):
      // in that worker's bundle the lazy import is of a loaded module, as intended.
      onLog(level, log, handle) {
        if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && log.message.includes('task-manager-lsm-storage')) return;
        handle(level, log);
      },
      input: {
        main: fromRoot('./web/index.html'),
        embed: fromRoot('./web/embed.html'),
        // The docs page for authors (/docs/): prose around three embedded demos.
        docs: fromRoot('./web/docs/index.html'),
        // The capacity planner (/planner/): a sweep over parallelism in a worker, plotted.
        planner: fromRoot('./web/planner/index.html'),
        live: fromRoot('./web/live/live-test.html'),
        element: fromRoot('./web/embed/checkpoint-playground-element.ts'),
      },
      output: {
        // The element script keeps a stable name, so pages can load /checkpoint-playground-element.js.
        entryFileNames: (chunk) => (chunk.name === 'element' ? 'checkpoint-playground-element.js' : 'assets/[name]-[hash].js'),
        // The playground's start-up code in a few chunks, one per set of other pages that load it too (node/first-page-chunks.ts).
        codeSplitting: {
          groups: [
            firstPageChunks(fromRoot('./web/index.html'), {
              planner: fromRoot('./web/planner/index.html'),
              docs: fromRoot('./web/docs/index.html'),
              live: fromRoot('./web/live/live-test.html'),
              element: fromRoot('./web/embed/checkpoint-playground-element.ts'),
            }),
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
  // Imported only inside the TaskManager workers' rocksdb storage, which the dev server's
  // dependency scan does not reach: found late, it would reload the page mid-run.
  optimizeDeps: { include: ['@journeyapps/wa-sqlite/src/examples/AccessHandlePoolVFS.js'] },
  server: { host: '127.0.0.1' },
  test: {
    root: '.',
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits on a condition; its default 1 s is shorter than a lazy chunk's first load
    // on this 2-core machine under the suite's load (a page's shortcut help failed after 1.18 s).
    expect: { poll: { timeout: 15_000 } },
    // Each project lists its own files: an array a project extends is appended to, not replaced.
    // Node-only files two at a time first, then the files that launch Chromium one at a time
    // (a page's Web Worker TaskManagers want the cores), on one app dev server for the run.
    projects: [
      { extends: true, test: { name: 'node', include: ['tests/**/*.test.ts'], exclude: CHROMIUM_TEST_FILES, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: CHROMIUM_TEST_FILES,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          globalSetup: ['tests/support/shared-app-dev-server.ts'],
        },
      },
    ],
  },
});
