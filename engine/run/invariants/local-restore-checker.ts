/**
 * A local restore only where Flink allows it: a subtask reads its task-local copy only when
 * `execution.state-recovery.from-local` is on, the restore is of a checkpoint (a savepoint has no
 * local copy: Flink keeps task-local state for checkpoints only), and its vertex runs with the
 * parallelism the checkpoint was taken with (PrioritizedOperatorSubtaskState offers a local
 * alternative only when the remote state is the single handle the local copy mirrors, which a
 * restore at another parallelism redistributes). Rescaling back to the checkpoint's parallelism
 * makes its handles single again, and a local copy of it may be used.
 */
import type { JobEvent } from '../job-events.ts';
import type { InvariantChecker, InvariantViolation } from './invariant-checker.ts';

export class LocalRestoreChecker implements InvariantChecker {
  readonly invariant = 'local-restore';
  readonly #fromLocal: boolean;
  readonly #checkpointParallelism: (checkpointId: number) => Record<string, number> | undefined;
  readonly #violations: InvariantViolation[] = [];

  /** `checkpointParallelism`: each vertex's parallelism when checkpoint `id` was taken (undefined: not known, not checked) */
  constructor(options: { fromLocal: boolean; checkpointParallelism: (checkpointId: number) => Record<string, number> | undefined }) {
    this.#fromLocal = options.fromLocal;
    this.#checkpointParallelism = options.checkpointParallelism;
  }

  onEvent(event: JobEvent): void {
    if (event.type !== 'restore') return;
    const { restore } = event;
    const taken = this.#checkpointParallelism(restore.checkpointId);
    for (const s of restore.subtasks.filter((s) => s.source === 'local')) {
      const who = `${s.vertexId}#${s.subtaskIndex} restored checkpoint ${restore.checkpointId} from its local copy`;
      const now = restore.subtasks.filter((t) => t.vertexId === s.vertexId).length;
      if (!this.#fromLocal) this.#violate(event.time, `${who}, but execution.state-recovery.from-local is off`);
      else if (restore.isSavepoint) this.#violate(event.time, `${who}, but it is a savepoint (savepoints have no task-local copies)`);
      else if (taken?.[s.vertexId] !== undefined && taken[s.vertexId] !== now) this.#violate(event.time, `${who}, but ${s.vertexId} runs with parallelism ${now} and the checkpoint was taken with ${taken[s.vertexId]}`);
    }
  }

  #violate(time: number, message: string): void {
    this.#violations.push({ invariant: this.invariant, time, message });
  }

  verdict(): InvariantViolation[] {
    return [...this.#violations];
  }
}
