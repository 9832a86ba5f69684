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
