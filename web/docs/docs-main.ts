/**
 * The docs page (/docs/): prose around three embedded demos, the model for authors who embed the
 * playground (issue 12). It embeds the playground as any docs page would, through embed.html and
 * the <checkpoint-playground> element, never by importing the playground itself.
 */
import { mount } from 'svelte';
import '../app.css';
import '../embed/checkpoint-playground-element.ts';
import DocsApp from './DocsApp.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('docs/index.html has no #app element to mount the page into.');

export default mount(DocsApp, { target });
