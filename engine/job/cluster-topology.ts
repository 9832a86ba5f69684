import type { ClusterSpec } from '../scenario/scenario-types.ts';

export interface TaskManagerInfo {
  id: string;
  host: string;
  slots: number;
}

export interface SlotInfo {
  /** `tm-<n>/slot-<k>` */
  id: string;
  taskManager: string;
  host: string;
  readonly index: number;
}

/**
 * The cluster of the scenario: hosts `host-<n>`, TaskManagers `tm-<n>` numbered across hosts
 * (tm-0 … on host-0 first), each with its slots. A host is what shares a local disk.
 */
export class ClusterTopology {
  readonly hosts: string[];
  readonly taskManagers: TaskManagerInfo[];
  readonly slots: SlotInfo[];
  #nextTaskManager = 0;

  constructor(spec: ClusterSpec) {
    this.hosts = Array.from({ length: spec.hosts }, (_, h) => `host-${h}`);
    this.taskManagers = [];
    this.slots = [];
    for (let h = 0; h < spec.hosts; h++) {
      for (let t = 0; t < spec.task_managers_per_host; t++) {
        const id = `tm-${this.#nextTaskManager++}`;
        this.taskManagers.push({ id, host: `host-${h}`, slots: spec.slots_per_task_manager });
        for (let k = 0; k < spec.slots_per_task_manager; k++) {
          this.slots.push({ id: `${id}/slot-${k}`, taskManager: id, host: `host-${h}`, index: k });
        }
      }
    }
  }

  taskManager(id: string): TaskManagerInfo | undefined {
    return this.taskManagers.find((t) => t.id === id);
  }

  /**
   * A TaskManager died: a new one (new id, as a new Flink ResourceID) takes its place on `host`
   * with fresh slots. Slots are updated in place, so subtasks placed in them move with it.
   */
  replaceTaskManager(id: string, host: string): TaskManagerInfo {
    const index = this.taskManagers.findIndex((t) => t.id === id);
    if (index < 0) throw new Error(`unknown TaskManager ${id}`);
    const replacement = { id: `tm-${this.#nextTaskManager++}`, host, slots: this.taskManagers[index]!.slots };
    this.taskManagers[index] = replacement;
    for (const slot of this.slots) {
      if (slot.taskManager !== id) continue;
      slot.taskManager = replacement.id;
      slot.host = host;
      slot.id = `${replacement.id}/slot-${slot.index}`;
    }
    return replacement;
  }
}
