/**
 * Whether this machine can hold two live runs of a scenario at once (compare mode in the live
 * runtime): each run has its own TaskManager Web Workers, so both runs need twice the scenario's
 * TaskManagers, and every worker wants a share of a core and of memory. A machine that cannot
 * hold them runs both sides late by different amounts, and the comparison would measure the
 * machine instead of the configuration; compare mode then says so and offers the sim.
 *
 * The rules, and why:
 * - at most TASK_MANAGERS_PER_CORE TaskManager workers per logical core
 *   (`navigator.hardwareConcurrency`): on a 2-core machine, two live runs of lesson 5 (2
 *   TaskManagers each, 4 workers) took checkpoints of p50 1403 and 1526 ms against 1451 ms for
 *   one run alone, so 2 workers per core keep each run near its own speed. Beyond that the runs
 *   queue for the cores and drift apart.
 * - at most one worker per MEMORY_PER_TASK_MANAGER_GB of the device memory the browser reports
 *   (`navigator.deviceMemory`, a rounded-down figure, not reported by every browser: where it is
 *   absent, the cores decide alone). A TaskManager worker holds its wasm SQLite (RocksDB stand-in)
 *   with its page cache, its channels and its record buffers; a quarter of a GB each leaves the
 *   rest of the device to the page and the browser.
 */

export const TASK_MANAGERS_PER_CORE = 2;
export const MEMORY_PER_TASK_MANAGER_GB = 0.25;

/** What the browser tells about the machine (navigator.hardwareConcurrency, navigator.deviceMemory). */
export interface MachineCapacity {
  cores: number;
  /** GB, rounded down by the browser; undefined where it does not say */
  memoryGb: number | undefined;
}

export type LiveCompareCapacity =
  | { ok: true; taskManagers: number }
  /** `limit`: the most TaskManager workers this machine holds; `by`: what limits it */
  | { ok: false; taskManagers: number; limit: number; by: 'cores' | 'memory'; machine: MachineCapacity };

/** Two runs of a scenario with `taskManagersPerRun` TaskManagers each, on `machine`. */
export function liveCompareCapacity(taskManagersPerRun: number, machine: MachineCapacity): LiveCompareCapacity {
  const taskManagers = 2 * taskManagersPerRun;
  const byCores = Math.max(1, Math.floor(machine.cores)) * TASK_MANAGERS_PER_CORE;
  const byMemory = machine.memoryGb === undefined ? Infinity : Math.floor(machine.memoryGb / MEMORY_PER_TASK_MANAGER_GB);
  if (taskManagers <= byCores && taskManagers <= byMemory) return { ok: true, taskManagers };
  const by = byMemory < byCores ? 'memory' : 'cores';
  return { ok: false, taskManagers, limit: Math.min(byCores, byMemory), by, machine };
}

/** This browser's answer; a browser that does not say its cores counts as one. */
export function browserMachineCapacity(): MachineCapacity {
  const nav = navigator as Navigator & { deviceMemory?: number };
  const cores = typeof nav.hardwareConcurrency === 'number' && nav.hardwareConcurrency > 0 ? nav.hardwareConcurrency : 1;
  return { cores, memoryGb: typeof nav.deviceMemory === 'number' && nav.deviceMemory > 0 ? nav.deviceMemory : undefined };
}

/** The refusal in English, for the Playground API's rejection (the page says it translated). */
export function liveCompareRefusalMessage(refusal: Extract<LiveCompareCapacity, { ok: false }>): string {
  const reason =
    refusal.by === 'cores'
      ? `${refusal.machine.cores} logical cores hold at most ${refusal.limit} TaskManager workers (${TASK_MANAGERS_PER_CORE} per core)`
      : `${refusal.machine.memoryGb} GB of device memory hold at most ${refusal.limit} TaskManager workers (${MEMORY_PER_TASK_MANAGER_GB} GB each)`;
  return `This machine cannot hold two live runs of this scenario: they need ${refusal.taskManagers} TaskManager workers, and ${reason}. Compare them in the sim instead: compare(variation, { runtime: 'sim' }).`;
}
