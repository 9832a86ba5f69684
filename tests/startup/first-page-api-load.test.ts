/**
 * The first page and a scenario the Playground API loads as the page starts (PlaygroundState.init):
 * a load under way when the scenario list arrives keeps the page (the list's first scenario does
 * not replace it), and a load the API refused (invalid input, nothing loaded) does not keep the
 * page from loading its own scenario.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlaygroundState } from '../../web/playground-state.svelte.ts';
import { tiny } from '../cli/tiny-scenario.ts';

const PAGE = 'https://playground.example.org/';
const BUNDLED = tiny('  - { type: job-status, status: FINISHED }\n').replace('name: Tiny', 'name: Bundled');
const FROM_API = tiny('  - { type: job-status, status: FINISHED }\n').replace('name: Tiny', 'name: From the API');

/** The files the page fetches: the scenario list and its one bundled scenario. */
function serveBundledScenario(): string[] {
  const fetched: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url);
    if (url.endsWith('index.json')) return new Response(JSON.stringify([{ file: 'bundled.yaml', name: { en: 'Bundled' } }]), { headers: { 'content-type': 'application/json' } });
    if (url.endsWith('bundled.yaml')) return new Response(BUNDLED, { headers: { 'content-type': 'text/yaml' } });
    return new Response('not found', { status: 404 });
  });
  return fetched;
}

beforeEach(() => {
  vi.stubGlobal('location', new URL(PAGE));
  // The page's own scenario starts running: its frames are never drawn here.
  vi.stubGlobal('requestAnimationFrame', () => 1);
  vi.stubGlobal('cancelAnimationFrame', () => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the first page and an API load', () => {
  it('keeps a scenario the API is still loading when the scenario list arrives', async () => {
    const fetched = serveBundledScenario();
    const playground = new PlaygroundState();
    const loading = playground.load(FROM_API);
    await playground.init();
    await loading;
    expect(playground.scenario?.name).toBe('From the API');
    expect(fetched.filter((url) => url.endsWith('bundled.yaml'))).toEqual([]);
    playground.destroy();
  });

  it('loads its own scenario when the API load before the list was refused', async () => {
    serveBundledScenario();
    const playground = new PlaygroundState();
    await expect(playground.load({ version: 1, name: 'no job' })).rejects.toThrow(/not valid/);
    await playground.init();
    expect(playground.source).toEqual({ kind: 'file', file: 'bundled.yaml' });
    expect(playground.scenario?.name).toBe('Bundled');
    playground.destroy();
  });
});
