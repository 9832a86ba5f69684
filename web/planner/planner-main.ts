/**
 * The capacity planner page (/planner/, issue 15): its own page in the build, so the playground
 * does not load it; the sweep itself runs in workers/capacity-planner.worker.ts.
 */
import { mount } from 'svelte';
import '../app.css';
import { i18n } from '../i18n/i18n.svelte.ts';
import { plannerEn } from '../i18n/messages-planner.ts';
import PlannerApp from './PlannerApp.svelte';
import { CapacitySweep } from './capacity-sweep.svelte.ts';

const target = document.getElementById('app');
if (!target) throw new Error('planner/index.html has no #app element to mount the page into.');

// This page's own English, which the playground's first chunk does not carry.
i18n.addEnglish(plannerEn);
// A Chinese page mounts once its text (a chunk of its own) is in, never in English first.
await i18n.ready();

export default mount(PlannerApp, { target, props: { sweep: new CapacitySweep() } });

// The other languages' text, in the background: the language picker then switches at once.
i18n.prefetch();
