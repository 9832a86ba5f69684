import { describe, expect, it } from 'vitest';
import type { NetworkBuffer } from '../../engine/protocol.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { decodeNetworkSnapshot, type DecodedNetworkSnapshot } from '../../web/job-graph/live-channel-snapshot.ts';
import { recordsIn } from '../../web/job-graph/channel-snapshot.ts';
import { NetworkSnapshotEncoder, networkSnapshotBuffers } from '../../workers/network-snapshot-encoder.ts';
import { twoWideSlow } from '../browser/channel-scenarios.ts';

function simulationOf(options: { unaligned?: boolean }): Simulation {
  const validated = validateScenario(twoWideSlow(options));
  if (!validated.ok) throw new Error('the two-wide scenario is invalid');
  return new Simulation(validated.scenario);
}

/** Steps the sim until `found` holds for its tasks (bounded, so a miss fails instead of hanging). */
function stepUntil(sim: Simulation, found: () => boolean): void {
  for (let n = 0; n < 2_000_000; n++) {
    if (found()) return;
    if (!sim.step()) break;
  }
  throw new Error('the simulation never reached the state the test looks for');
}

/** Encodes the sim's tasks as a TaskManager would, through a structured clone with the buffers transferred (as postMessage does). */
function snapshotOf(sim: Simulation, encoder: NetworkSnapshotEncoder, previous?: DecodedNetworkSnapshot): DecodedNetworkSnapshot {
  const encoded = encoder.encode(sim.attempt, sim.kernel.now, sim.tasks);
  const cloned = structuredClone(encoded, { transfer: networkSnapshotBuffers(encoded) });
  return decodeNetworkSnapshot(cloned, previous);
}

function describeBuffer(b: NetworkBuffer): string {
  if (b.kind === 'data') return `data wm=${b.watermark ?? '-'} bytes=${b.sizeBytes}`;
  if (b.event.kind === 'end-of-partition' || b.event.kind === 'end-of-data') return b.event.kind;
  return `${b.event.kind} ${b.event.checkpointId}${b.priority ? ' priority' : ''}`;
}

function queuesOf(sim: Simulation): Map<string, string[]> {
  const queues = new Map<string, string[]>();
  for (const task of sim.tasks) {
    for (const s of task.router.subpartitions) queues.set(`sender ${s.channelId}`, s.queuedBuffers.map(describeBuffer));
    for (const gate of task.gates) for (const c of gate.channels) queues.set(`receiver ${c.channelId}`, c.queue.map(describeBuffer));
  }
  return queues;
}

function decodedQueues(decoded: DecodedNetworkSnapshot): Map<string, string[]> {
  return new Map(decoded.ends.map((end) => [`${end.end} ${end.channelId}`, end.queue.map(describeBuffer)]));
}

const queuedBarrier = (sim: Simulation, priority: boolean) =>
  sim.tasks.some((t) => t.router.subpartitions.some((s) => s.queuedBuffers.some((b) => b.kind === 'event' && b.event.kind === 'barrier' && b.priority === priority && s.queuedBuffers.length > 2)));

describe('network snapshot of a TaskManager (encode in the worker, decode on the page)', () => {
  it('round-trips every channel end with its queued buffers in order, barriers with their checkpoint id', () => {
    const sim = simulationOf({});
    stepUntil(sim, () => queuedBarrier(sim, false));
    const decoded = snapshotOf(sim, new NetworkSnapshotEncoder());
    expect(decodedQueues(decoded)).toEqual(queuesOf(sim));
    const barrier = decoded.ends.flatMap((e) => e.queue).find((b) => b.kind === 'event' && b.event.kind === 'barrier');
    expect(barrier?.kind === 'event' && barrier.event.kind === 'barrier' ? barrier.event.checkpointId : 0).toBeGreaterThan(0);
  });

  it('carries each data buffer’s record count with its first and last record (the rest stay in the worker)', () => {
    const sim = simulationOf({});
    stepUntil(sim, () => queuedBarrier(sim, false));
    const decoded = snapshotOf(sim, new NetworkSnapshotEncoder());
    const simData = sim.tasks.flatMap((t) => [...t.router.subpartitions.flatMap((s) => s.queuedBuffers), ...t.gates.flatMap((g) => g.channels.flatMap((c) => c.queue))]).filter((b) => b.kind === 'data');
    const decodedData = decoded.ends.flatMap((e) => e.queue).filter((b) => b.kind === 'data');
    expect(simData.some((b) => b.records.length > 1)).toBe(true);
    expect(decodedData.map((b) => decoded.records.get(b))).toEqual(simData.map((b) => recordsIn(b)));
  });

  it('marks exactly the receiving channels that are blocked while aligning', () => {
    const sim = simulationOf({});
    const blocked = () => sim.tasks.flatMap((t) => t.gates.flatMap((g) => g.channels.filter((c) => c.blocked).map((c) => c.channelId)));
    stepUntil(sim, () => blocked().length > 0);
    const decoded = snapshotOf(sim, new NetworkSnapshotEncoder());
    const decodedBlocked = decoded.ends.filter((e) => e.blocked).map((e) => e.channelId);
    expect(decodedBlocked.sort()).toEqual(blocked().sort());
    expect(decoded.ends.filter((e) => e.blocked).every((e) => e.end === 'receiver')).toBe(true);
  });

  it('carries an unaligned barrier as a priority barrier, and the data it overtook as persisted', () => {
    const sim = simulationOf({ unaligned: true });
    const overtaking = () =>
      sim.tasks.some((t) => t.router.subpartitions.some((s) => { const head = s.queuedBuffers[0]; return head?.kind === 'event' && head.priority && s.queuedBuffers.length > 1; }));
    stepUntil(sim, overtaking);
    const decoded = snapshotOf(sim, new NetworkSnapshotEncoder());
    const sender = decoded.ends.find((e) => e.end === 'sender' && e.queue[0]?.kind === 'event' && e.queue[0].priority && e.queue.length > 1)!;
    const head = sender.queue[0]!;
    expect(head.kind === 'event' && head.event.kind === 'barrier' && head.event.alignment).toBe('UNALIGNED');
    const id = head.kind === 'event' && head.event.kind === 'barrier' ? head.event.checkpointId : -1;
    const behind = sender.queue.slice(1).filter((b) => b.kind === 'data');
    expect(behind.length).toBeGreaterThan(0);
    expect(behind.map((b) => decoded.persisted.get(b))).toEqual(behind.map(() => id));
  });

  it('keeps a buffer the same object while it stays queued, and a new one for a new buffer', () => {
    const sim = simulationOf({});
    const encoder = new NetworkSnapshotEncoder();
    const backlogged = () => sim.tasks.some((t) => t.router.subpartitions.some((s) => s.queuedBuffers.length > 3));
    stepUntil(sim, backlogged);
    const first = snapshotOf(sim, encoder);
    const again = snapshotOf(sim, encoder, first);
    const firstItems = first.ends.flatMap((e) => e.queue);
    const againItems = again.ends.flatMap((e) => e.queue);
    expect(againItems.length).toBe(firstItems.length);
    againItems.forEach((item, i) => expect(item).toBe(firstItems[i]));
    for (let n = 0; n < 5000 && sim.step(); n++);
    const later = snapshotOf(sim, encoder, again);
    const kept = later.ends.flatMap((e) => e.queue).filter((b) => againItems.includes(b));
    const fresh = later.ends.flatMap((e) => e.queue).filter((b) => !againItems.includes(b));
    expect(fresh.length).toBeGreaterThan(0);
    expect(kept.length + fresh.length).toBe(later.ends.flatMap((e) => e.queue).length);
    expect(decodedQueues(later)).toEqual(queuesOf(sim));
  });
});
