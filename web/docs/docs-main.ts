/**
 * The docs page (/docs/): prose around three embedded demos, the model for authors who embed the
 * playground (issue 12). It embeds the playground as any docs page would, through embed.html and
 * the <checkpoint-playground> element, never by importing the playground itself.
 */
import { mount } from 'svelte';
import '../app.css';
import '../embed/checkpoint-playground-element.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { docsEn } from '../i18n/messages-docs.ts';
import DocsApp from './DocsApp.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('docs/index.html has no #app element to mount the page into.');

// This page's own English, which the playground's first chunk does not carry.
i18n.addEnglish(docsEn);
// A Chinese page mounts once its text (a chunk of its own) is in, never in English first.
await i18n.ready();

export default mount(DocsApp, { target });

// The other languages' text, in the background: the language picker then switches at once.
i18n.prefetch();
