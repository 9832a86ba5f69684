import type { ScenarioSource } from '../playground-state.svelte.ts';

/**
 * The run is a lesson's scenario (fetched from public/lessons/, as lesson-state loads it): the
 * scenario picker, which lists only the bundled scenarios, names it apart. A prefix rather than
 * the catalog, so the picker does not pull every lesson's text into the embed's bundle.
 */
export function isLessonSource(source: ScenarioSource | null): boolean {
  return source?.kind === 'url' && source.url.startsWith('/lessons/');
}
