/**
 * Which shipped scenarios the scale runtime is held to the record-level sim on, over which job
 * time, and which figures of them are left out, each with its modelling reason. A scenario is left
 * out only for what one of the runtimes cannot run or the scale model does not model, never for
 * its error.
 */
import { readConfig } from '../../engine/config/flink-options.ts';
import { stateDerivation, type UnderivedState } from '../../engine/scale/key-space-state.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';

/**
 * The record-level sim moves every record (wa-sqlite for the rocksdb backend): a run of this many
 * source records takes about 10 s on a loaded 2-core machine, which bounds what a test may ask of it.
 */
export const MAX_RECORDS = 500_000;

/** The figures compared, as the test output names them. */
export const FIGURES = ['checkpoint duration', 'checkpointed size (median)', 'checkpointed size (largest)', 'restore time', 'catch-up time'] as const;
export type Figure = (typeof FIGURES)[number];

export type AgreementScope =
  | { runs: false; reason: string }
  | { runs: true; untilMs: number; window: string | null; excluded: Partial<Record<Figure, string>> };

const UNDERIVED: Record<UnderivedState, string> = {
  'keys-from-data': "the keys come from the data (a map other than split-words, a filter, or a keyed operator upstream); the scale model knows a source's keys and the words of lines, not what an operator makes of them",
};

export function agreementScope(scenario: Scenario): AgreementScope {
  if (scenario.runtime === 'scale') return { runs: false, reason: 'a runtime: scale scenario (production sizes); the record-level sim cannot move its records' };
  const underived = stateDerivation(scenario).find((d) => !d.derived);
  if (underived && !underived.derived) return { runs: false, reason: `${underived.vertex}: ${UNDERIVED[underived.reason]}` };
  const { untilMs, window } = comparisonWindow(scenario);
  const records = sourceRecords(scenario, untilMs);
  if (records > MAX_RECORDS) return { runs: false, reason: `${records} source records, over the ${MAX_RECORDS} the record-level sim may move in a test` };
  return { runs: true, untilMs, window, excluded: excludedFigures(scenario) };
}

/**
 * The scale runtime's sources never end: a bounded job's end of input, its final checkpoint
 * (FLIP-147) and FINISHED are not modelled. Both runs stop when the failure-free run's input
 * would end (a run with failures rewinds, so its input ends later still).
 */
function comparisonWindow(scenario: Scenario): { untilMs: number; window: string | null } {
  const ends = scenario.job.vertices.flatMap((v) => (v.operator.type === 'source' && v.operator.source.count !== undefined ? [(v.operator.source.count / v.operator.source.rate_per_s) * 1000] : []));
  const inputEnds = Math.min(Infinity, ...ends);
  if (inputEnds >= scenario.run.until_ms) return { untilMs: scenario.run.until_ms, window: null };
  return { untilMs: inputEnds, window: `compared until ${inputEnds} ms, when the bounded sources' input ends: the final checkpoint and the end of the job are not modelled (the scale model's sources are unbounded)` };
}

function sourceRecords(scenario: Scenario, untilMs: number): number {
  return scenario.job.vertices.reduce((n, v) => (v.operator.type === 'source' ? n + Math.min(v.operator.source.count ?? Infinity, (v.operator.source.rate_per_s * untilMs) / 1000) * v.parallelism : n), 0);
}

function excludedFigures(scenario: Scenario): Partial<Record<Figure, string>> {
  const config = readConfig(scenario.config);
  const excluded: Partial<Record<Figure, string>> = {};
  const window = scenario.job.vertices.find((v) => v.operator.type === 'window' || v.operator.type === 'window-join');
  if (config.snapshotCompression && window) {
    const reason = `${window.id}: a window's snapshot is left uncompressed by the scale model (it compresses a count's key groups only)`;
    excluded['checkpointed size (median)'] = reason;
    excluded['checkpointed size (largest)'] = reason;
    excluded['checkpoint duration'] = `the upload follows the compressed size: ${reason}`;
  }
  if (config.stateBackend === 'rocksdb' && config.incremental) {
    excluded['checkpointed size (largest)'] = 'the largest incremental checkpoint uploads the files a level compaction rewrote; compactions are not modelled (the scale model uploads the memtable flushes since the last checkpoint)';
  }
  return excluded;
}
