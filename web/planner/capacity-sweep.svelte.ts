/**
 * The capacity planner page's state: the form as typed, and the sweep its worker streams back.
 * Each sweep gets a fresh worker; starting another terminates the one still running, which is the
 * whole of cancellation (the worker's loop never yields to read a cancel message).
 */
import type { CapacityPoint } from '../../engine/scale/capacity-plan.ts';
import { EXAMPLE_CAPACITY_FORM, type CapacityFieldError, type CapacityForm } from '../../engine/scale/capacity-question.ts';
import type { PlannerReply, PlannerRequest } from '../../workers/capacity-planner-protocol.ts';

export type SweepStatus = 'idle' | 'invalid' | 'running' | 'done' | 'failed';

export class CapacitySweep {
  form = $state<CapacityForm>({ ...EXAMPLE_CAPACITY_FORM });
  status = $state<SweepStatus>('idle');
  errors = $state.raw<CapacityFieldError[]>([]);
  /** the sweep's parallelisms, smallest first, once the worker has read the form */
  parallelisms = $state.raw<number[]>([]);
  points = $state.raw<CapacityPoint[]>([]);
  recoveryObjectiveMs = $state(0);
  checkpointIntervalMs = $state(0);
  smallestParallelism = $state<number | null>(null);
  failure = $state('');
  #worker: Worker | null = null;

  readonly smallest: CapacityPoint | undefined = $derived(this.points.find((p) => p.parallelism === this.smallestParallelism));

  start(): void {
    this.stop();
    this.points = [];
    this.errors = [];
    this.smallestParallelism = null;
    this.status = 'running';
    const worker = new Worker(new URL('../../workers/capacity-planner.worker.ts', import.meta.url), { type: 'module', name: 'capacity planner' });
    worker.onmessage = (event: MessageEvent<PlannerReply>) => this.#receive(event.data);
    worker.onerror = (event) => this.#fail(event.message);
    worker.postMessage({ type: 'plan', form: $state.snapshot(this.form) } satisfies PlannerRequest);
    this.#worker = worker;
  }

  stop(): void {
    this.#worker?.terminate();
    this.#worker = null;
    if (this.status === 'running') this.status = 'idle';
  }

  errorFor(field: keyof CapacityForm): CapacityFieldError | undefined {
    return this.errors.find((e) => e.field === field);
  }

  #receive(reply: PlannerReply): void {
    switch (reply.type) {
      case 'invalid':
        this.errors = reply.errors;
        this.status = 'invalid';
        this.stop();
        return;
      case 'started':
        this.parallelisms = reply.parallelisms;
        this.recoveryObjectiveMs = reply.recoveryObjectiveMs;
        this.checkpointIntervalMs = reply.checkpointIntervalMs;
        return;
      case 'point':
        this.points = [...this.points, reply.point];
        return;
      case 'done':
        this.smallestParallelism = reply.smallestParallelism;
        this.status = 'done';
        this.stop();
        return;
      case 'failed':
        this.#fail(reply.message);
    }
  }

  #fail(message: string): void {
    this.failure = message;
    this.status = 'failed';
    this.stop();
  }
}
