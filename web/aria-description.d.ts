/**
 * ARIA 1.3's aria-description (a description given as text, where aria-describedby needs an
 * element), which Chromium and Firefox expose and Svelte's compiler knows, but svelte/elements
 * does not type yet. FlinkName.svelte describes Flink's names with it.
 */
declare module 'svelte/elements' {
  export interface AriaAttributes {
    /** Defines a string value that describes or annotates the current element. */
    'aria-description'?: string | undefined | null;
  }
}

export {};
