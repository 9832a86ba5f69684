import type { Simulation } from '../../engine/sim/simulation.ts';
import { collectAllGarbage, collectYoungGarbage } from './collect-garbage.ts';

/**
 * Events a side handles before the other takes its turn: about 8 ms of CPU at the bench's pace.
 * Turns this long still meet the same machine; shorter ones would mean more forced scavenges,
 * whose fixed cost both sides pay alike and which would pull the ratio toward 1.
 */
const EVENTS_PER_SLICE = 1024;

/** CPU milliseconds each of two simulations took to run to its end, measured side by side. */
export interface SideBySideTimes {
  readonly aCpuMs: number;
  readonly bCpuMs: number;
}

/**
 * Runs two simulations to their end in turns of EVENTS_PER_SLICE events, the one behind in sink
 * records taking the next turn, and adds up the CPU time of each side's turns.
 *
 * Why slices: whole runs one after the other meet the machine in different moods (another
 * process's burst, a frequency step), which on a shared machine moved one run's figure by 30%;
 * turns of a few milliseconds meet the same moods. Why CPU time and not wall time: a run that
 * waits for a core is not slower, the machine is busier. Why a scavenge at the end of each turn:
 * otherwise a scavenge falls in whichever turn fills the young generation, and a side pays for
 * records the other allocated; this way each turn pays for its own garbage (a young collection
 * costs what survives, and both sides keep what they keep either way).
 */
export function runSideBySide(a: Simulation, b: Simulation): SideBySideTimes {
  collectAllGarbage();
  let aCpuMs = 0;
  let bCpuMs = 0;
  let aTurn = true;
  while (!ended(a) || !ended(b)) {
    const aBehind = a.sinkOutput.totalRecords < b.sinkOutput.totalRecords;
    const bBehind = b.sinkOutput.totalRecords < a.sinkOutput.totalRecords;
    const runA: boolean = ended(b) || (!ended(a) && (aBehind || (!bBehind && aTurn)));
    aTurn = !runA;
    if (runA) aCpuMs += timedSlice(a);
    else bCpuMs += timedSlice(b);
  }
  return { aCpuMs, bCpuMs };
}

/** One turn: up to EVENTS_PER_SLICE events and a scavenge, in CPU milliseconds. */
function timedSlice(sim: Simulation): number {
  const start = process.cpuUsage();
  for (let i = 0; i < EVENTS_PER_SLICE && !ended(sim); i++) sim.step();
  collectYoungGarbage();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The job ended, or nothing is left to happen (runToEnd's stop for a scenario without `run.until`, as the bench's). */
function ended(sim: Simulation): boolean {
  return sim.job.isTerminal || sim.kernel.nextEventTime === Infinity;
}
