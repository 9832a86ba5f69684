import { mount } from 'svelte';
import App from './App.svelte';
import { ControlsState } from './controls/controls-state.svelte.ts';
import { DashboardState } from './dashboard/dashboard-state.svelte.ts';
import { createPlaygroundApi } from './playground/api/playground-api.ts';
import { liveRunRoot, runStorageLeaseHeld, sweepAbandonedRunStorage } from './playground/storage/run-storage-lease.ts';
import { liveRunInterruptedByReload, pageRecordStorage, pageWasReloaded, resumableRunRoots } from './playground/storage/interrupted-live-run.ts';
import { PlaygroundState } from './playground-state.svelte.ts';
import { LessonState } from './lessons/lesson-state.svelte.ts';
import { CompareState } from './compare/compare-state.svelte.ts';
import { i18n } from './i18n/i18n.svelte.ts';
import { nextTask } from './next-task.ts';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the playground into.');

const playground = new PlaygroundState();
const lessons = new LessonState(playground);
const compare = new CompareState(playground);
const api = createPlaygroundApi(playground, lessons, compare);
// The Playground API (DESIGN.md, contract 3); the page's own controls use the same object.
window.playground = api;

// A Chinese page mounts once its text (a chunk of its own) is in, never in English first.
await i18n.ready();
// The mount in a task of its own: after the module's evaluation and the parser's end of document
// (its own style and layout), not in the same long task; the first style and layout of what the
// mount built then come with the next frame, in a task of their own too.
await nextTask();

export default mount(App, {
  target,
  props: { playground, lessons, controls: new ControlsState(api, playground), dashboard: new DashboardState(), compare },
});

// A live run this page ran until it was reloaded: offered to resume or discard; its storage stays until then.
// The storage of runs whose tab closed without disposing them (run-storage-lease.ts) is swept after.
void liveRunInterruptedByReload(pageRecordStorage(), pageWasReloaded(), (run) => runStorageLeaseHeld(liveRunRoot(run.checkpointDatabase)))
  .then((interrupted) => {
    playground.interruptedRun = interrupted ?? null;
    return sweepAbandonedRunStorage(resumableRunRoots(interrupted, liveRunRoot));
  })
  .catch((error: unknown) => console.warn('Could not sweep the storage of abandoned runs:', error))
  // A mark in the page's performance timeline (DevTools shows it): tests wait on it, not on a sleep.
  .finally(() => performance.mark('run-storage-swept'));
