import type { SlotInfo } from '../job/cluster-topology.ts';

/**
 * One request for a slot: a subtask, or with slot sharing one slot-sharing group (all subtasks
 * that share a slot ask once, with the slot they shared).
 */
export interface SlotRequest {
  id: string;
  /** the slot it ran in before the failure (undefined: it never ran) */
  previousSlotId?: string;
}

export interface SlotAssignment {
  requestId: string;
  slotId: string;
  /** it got its exact previous slot back (so its local state is reachable) */
  previousSlot: boolean;
}

export interface SlotSelection {
  /** in request order */
  assignments: SlotAssignment[];
  /** requests left without a slot (fewer free slots than requests), in request order */
  unplaced: string[];
}

/**
 * Flink's PreviousAllocationSlotSelectionStrategy, applied to a whole restart at once: every
 * request whose previous slot is still free gets it back; the others take fresh slots in the
 * order `freeSlotIds` lists them. Because every previous slot is handed back before any fresh
 * one is handed out, no request ever takes another's previous slot (Flink reaches the same end
 * by blocking those allocations while it serves requests one by one). A killed TaskManager's
 * slots are gone (its replacement brings slots with new ids), so its subtasks land on fresh slots
 * while every other subtask keeps its own. Request ids must be unique. Deterministic: the result
 * depends only on the two orders.
 */
export function selectSlots(requests: readonly SlotRequest[], freeSlotIds: readonly string[]): SlotSelection {
  const free = new Set(freeSlotIds);
  const chosen = new Map<string, SlotAssignment>();
  for (const r of requests) {
    if (r.previousSlotId !== undefined && free.delete(r.previousSlotId)) {
      chosen.set(r.id, { requestId: r.id, slotId: r.previousSlotId, previousSlot: true });
    }
  }
  const fresh = [...free];
  const unplaced: string[] = [];
  for (const r of requests) {
    if (chosen.has(r.id)) continue;
    const slotId = fresh.shift();
    if (slotId === undefined) unplaced.push(r.id);
    else chosen.set(r.id, { requestId: r.id, slotId, previousSlot: false });
  }
  return { assignments: requests.flatMap((r) => chosen.get(r.id) ?? []), unplaced };
}

/** What a placement needs of the execution graph: its subtasks and the cluster's slots. */
interface PlaceableGraph {
  readonly subtasks: ReadonlyArray<{ id: { vertexId: string; subtaskIndex: number }; slot: SlotInfo }>;
  readonly cluster: { readonly slots: readonly SlotInfo[] };
  refreshPlacement(): void;
}

/**
 * Places a restarting job's subtasks with `selectSlots`: one request per slot-sharing group
 * (subtask index i of every vertex shares one slot), asking for the slot the group ran in before
 * (`previous`, by `vertex#index`). Groups whose slot is gone take fresh slots, in the cluster's
 * order. Changes the graph's subtasks in place and returns the selection.
 */
export function placeOnPreviousSlots(graph: PlaceableGraph, previous: ReadonlyMap<string, { slotId: string }>): SlotSelection {
  const groups = new Map<number, string | undefined>();
  for (const s of graph.subtasks) {
    const before = previous.get(`${s.id.vertexId}#${s.id.subtaskIndex}`)?.slotId;
    if (!groups.has(s.id.subtaskIndex) || (groups.get(s.id.subtaskIndex) === undefined && before !== undefined)) groups.set(s.id.subtaskIndex, before);
  }
  const requests: SlotRequest[] = [...groups.keys()].sort((a, b) => a - b).map((i) => ({ id: String(i), ...(groups.get(i) === undefined ? {} : { previousSlotId: groups.get(i)! }) }));
  const selection = selectSlots(requests, graph.cluster.slots.map((s) => s.id));
  const slotById = new Map(graph.cluster.slots.map((s) => [s.id, s]));
  const slotOfGroup = new Map(selection.assignments.map((a) => [Number(a.requestId), slotById.get(a.slotId)!]));
  for (const s of graph.subtasks) {
    const slot = slotOfGroup.get(s.id.subtaskIndex);
    if (slot) s.slot = slot;
  }
  graph.refreshPlacement();
  return selection;
}
