/**
 * No checkpoint file leaked or deleted while referenced: the shared files in checkpoint storage
 * (Flink's SharedStateRegistry) are exactly those the retained checkpoints refer to. A file a
 * retained checkpoint refers to must never be gone (checked at every completion and restore);
 * a file no retained checkpoint refers to is a leak once nothing is in flight (no checkpoint
 * pending: a pending one's uploads are registered before it completes). The comparison is the
 * existing leak checker's (shared-state-leak-checker.ts); this adds when to run it.
 */
import type { JobEvent } from '../job-events.ts';
import type { CompletedCheckpoint } from '../../checkpoint/completed-checkpoint.ts';
import type { SharedStateRegistry } from '../../checkpoint/shared-state-registry.ts';
import { checkSharedStateLeaks } from '../../checkpoint/shared-state-leak-checker.ts';
import type { InvariantChecker, InvariantViolation } from './invariant-checker.ts';

/** What storage holds and what is retained, read at the moment of the check (a runtime's coordinator). */
export interface CheckpointFilesView {
  registry: SharedStateRegistry;
  retained: readonly CompletedCheckpoint[];
  pendingCheckpoints: number;
}

export class CheckpointFileChecker implements InvariantChecker {
  readonly invariant = 'checkpoint-files';
  readonly #view: () => CheckpointFilesView;
  readonly #violations: InvariantViolation[] = [];
  readonly #reported = new Set<string>();

  constructor(view: () => CheckpointFilesView) {
    this.#view = view;
  }

  onEvent(event: JobEvent): void {
    if (event.type === 'checkpoint-completed' || event.type === 'restore') this.#check(event.time);
  }

  #check(time: number | null): void {
    const view = this.#view();
    const leaks = checkSharedStateLeaks(view.registry, view.retained);
    for (const file of leaks.missing) this.#violate(time, `${file} is referenced by a retained checkpoint but was deleted`);
    if (view.pendingCheckpoints === 0) for (const file of leaks.orphaned) this.#violate(time, `${file} is in checkpoint storage but no retained checkpoint refers to it (leaked)`);
  }

  /** One violation per file and kind: a leak seen at every later check is still one leak. */
  #violate(time: number | null, message: string): void {
    if (this.#reported.has(message)) return;
    this.#reported.add(message);
    this.#violations.push({ invariant: this.invariant, time, message });
  }

  verdict(): InvariantViolation[] {
    this.#check(null);
    return [...this.#violations];
  }
}
