/**
 * The embed page (embed.html, DESIGN.md contract 4): a playground that takes its scenario from
 * its address (`?scenario=<url>` or a `#scenario=<base64 yaml>` share link), shows the part named
 * by `?view=`, and answers Playground API calls over postMessage from the origins listed in
 * `?allowed-origins=` (embed-bridge.ts). `window.playground` works inside it as in the app.
 */
import { mount } from 'svelte';
import { CompareState } from '../compare/compare-state.svelte.ts';
import { ControlsState } from '../controls/controls-state.svelte.ts';
import { DashboardState } from '../dashboard/dashboard-state.svelte.ts';
import { i18n, matchLocale, t } from '../i18n/i18n.svelte.ts';
import { createPlaygroundApi } from '../playground/api/playground-api.ts';
import { browserStorageAccess } from '../playground/storage/browser-storage-access.ts';
import { liveRunRoot, sweepAbandonedRunStorage } from '../playground/storage/run-storage-lease.ts';
import { pageRecordStorage, readLiveRunRecord, resumableRunRoots } from '../playground/storage/interrupted-live-run.ts';
import { PlaygroundState } from '../playground-state.svelte.ts';
import '../app.css';
import EmbedApp from './EmbedApp.svelte';
import { EmbedBridge, OriginPolicy } from './embed-bridge.ts';
import { readEmbedOptions } from './embed-options.ts';
import { shareLinkProblemText } from '../i18n/share-link-text.ts';

const target = document.getElementById('app');
if (!target) throw new Error('embed.html has no #app element to mount the playground into.');

const options = readEmbedOptions(location);
const requested = options.lang ? matchLocale(options.lang) : undefined;
// Its text is a chunk of its own: the page mounts in the language asked for, never in English first.
await (requested ? i18n.setLocale(requested, false) : i18n.ready());

const playground = new PlaygroundState();
// compare() over postMessage opens compare mode in the frame, as the button does on the page
const compare = new CompareState(playground);
const api = createPlaygroundApi(playground, undefined, compare);
window.playground = api;

const problem =
  options.scenario.kind === 'bad-link'
    ? t('embed.badLink', { reason: shareLinkProblemText(options.scenario.cause) })
    : options.scenario.kind === 'none'
      ? t('embed.noScenario')
      : null;

mount(EmbedApp, {
  target,
  props: { playground, controls: new ControlsState(api, playground), dashboard: new DashboardState(), view: options.view, problem, compare },
});

// The other languages' text, in the background: the language picker then switches at once.
i18n.prefetch();

const bridge = new EmbedBridge(api, new OriginPolicy(options.allowedOrigins, location.origin));
bridge.listen(window);

async function loadScenario(): Promise<void> {
  await playground.ensureLsmStorage();
  if (options.scenario.kind === 'url') await playground.loadFromUrl(options.scenario.url, options.autostart);
  else if (options.scenario.kind === 'text') await playground.loadShared(options.scenario.text, options.autostart);
}

void loadScenario().finally(() => {
  bridge.announceReady(window.parent, options.view);
  // A mark in the frame's performance timeline (DevTools shows it): a test of a page that must not
  // get `ready` waits on it, not on a sleep.
  performance.mark('playground-ready-announced');
});

// The storage of runs whose tab closed without disposing them (run-storage-lease.ts); none where
// the browser denies this page storage (a third-party iframe), as the controls say.
void browserStorageAccess().then((access) => {
  // A live run the full page can still resume after its reload is not this page's to sweep.
  const keep = resumableRunRoots(readLiveRunRecord(pageRecordStorage()), liveRunRoot);
  if (access.granted) void sweepAbandonedRunStorage(keep).catch((error: unknown) => console.warn('Could not sweep the storage of abandoned runs:', error));
});
