import type { CompletedCheckpoint } from './completed-checkpoint.ts';
import type { SharedStateRegistry } from './shared-state-registry.ts';

/** What checkpoint storage holds that it should not, and what a retained checkpoint lacks. */
export interface SharedStateLeaks {
  /** files no retained checkpoint refers to (leaked) */
  orphaned: string[];
  /** files a retained checkpoint refers to that are gone (it could not be restored) */
  missing: string[];
}

/**
 * The leak checker (an invariant observer, apart from the code it checks): every shared file in
 * checkpoint storage belongs to a retained checkpoint, and every retained checkpoint's files are
 * there.
 */
export function checkSharedStateLeaks(registry: SharedStateRegistry, retained: readonly CompletedCheckpoint[]): SharedStateLeaks {
  const referenced = new Set<string>();
  for (const checkpoint of retained) {
    for (const snapshot of checkpoint.taskStates.values()) for (const file of snapshot.sharedFiles ?? []) referenced.add(file.name);
  }
  const held = new Set(registry.files().map((f) => f.name));
  return {
    orphaned: [...held].filter((name) => !referenced.has(name)).sort(),
    missing: [...referenced].filter((name) => !held.has(name)).sort(),
  };
}
