/**
 * The model beside the real job: each figure as imported, as the model's run gives it, and the
 * ratio model / imported, so a learner sees how far the model is off before trusting it. Sizes of
 * a scaled-down model are scaled back up by its factor, so both columns are in the real job's units.
 */
import type { DoctorDocuments } from '../doctor/doctor-documents.ts';
import { runDoctorDocuments } from '../doctor/run-doctor-documents.ts';
import { validateScenario } from '../scenario/scenario-validator.ts';
import { Simulation } from '../sim/simulation.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import { checkpointFigures, type CheckpointFigures } from './checkpoint-figures.ts';
import type { ReproducedScenario } from './reproduce-scenario.ts';

export type ComparisonFigure =
  | 'median-duration'
  | 'p90-duration'
  | 'max-duration'
  | 'checkpointed-size'
  | 'full-size'
  | 'async-duration'
  | 'sync-duration'
  | 'alignment-duration'
  | 'start-delay'
  | 'completed'
  | 'failed'
  | 'failed-share';

export type ComparisonUnit = 'ms' | 'bytes' | 'count' | 'fraction';

export interface ComparisonRow {
  figure: ComparisonFigure;
  unit: ComparisonUnit;
  /** null: the imported statistics do not hold this figure */
  imported: number | null;
  model: number | null;
  /** model / imported; null when either is missing, the imported figure is 0, or for counts */
  ratio: number | null;
}

const FIGURES: readonly { figure: ComparisonFigure; unit: ComparisonUnit; read: (f: CheckpointFigures) => number | null }[] = [
  { figure: 'median-duration', unit: 'ms', read: (f) => f.medianDurationMs },
  { figure: 'p90-duration', unit: 'ms', read: (f) => f.p90DurationMs },
  { figure: 'max-duration', unit: 'ms', read: (f) => f.maxDurationMs },
  { figure: 'checkpointed-size', unit: 'bytes', read: (f) => f.medianCheckpointedSizeBytes },
  { figure: 'full-size', unit: 'bytes', read: (f) => f.medianFullSizeBytes },
  { figure: 'async-duration', unit: 'ms', read: (f) => f.medianAsyncMs },
  { figure: 'sync-duration', unit: 'ms', read: (f) => f.medianSyncMs },
  { figure: 'alignment-duration', unit: 'ms', read: (f) => f.medianAlignmentMs },
  { figure: 'start-delay', unit: 'ms', read: (f) => f.medianStartDelayMs },
  { figure: 'completed', unit: 'count', read: (f) => f.completed },
  { figure: 'failed', unit: 'count', read: (f) => f.failed },
  { figure: 'failed-share', unit: 'fraction', read: (f) => f.failedShare },
];

/** Rows for every figure; `stateScale` multiplies the model's sizes back to the real job's. */
export function compareFigures(imported: CheckpointFigures, model: CheckpointFigures, stateScale: number): ComparisonRow[] {
  return FIGURES.map(({ figure, unit, read }) => {
    const raw = read(model);
    const modelValue = raw === null ? null : unit === 'bytes' ? Math.round(raw * stateScale) : raw;
    const importedValue = read(imported);
    // Counts depend on how long each job ran (the model runs a few intervals): their share compares, not their ratio.
    const ratio = unit === 'count' || importedValue === null || modelValue === null || importedValue === 0 ? null : modelValue / importedValue;
    return { figure, unit, imported: importedValue, model: modelValue, ratio };
  });
}

/** The model's statistics after its run: what `compareFigures` reads for the model column. */
export function modelFigures(documents: DoctorDocuments): CheckpointFigures {
  return checkpointFigures(documents);
}

/**
 * Runs the model in sim for its run length (no failure-free reference run: the model has no
 * faults, and only its checkpoints are compared) and returns the comparison.
 */
export function runReproduction(reproduced: ReproducedScenario, lsmStorage?: LsmStorageFactory): ComparisonRow[] {
  const valid = validateScenario(reproduced.document);
  if (!valid.ok) throw new Error(`the reproduced scenario is invalid (a bug): ${valid.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  const simulation = new Simulation(valid.scenario, lsmStorage ? { lsmStorage } : {});
  simulation.runToEnd();
  return compareFigures(reproduced.imported, modelFigures(runDoctorDocuments(simulation, 0)), reproduced.stateScale);
}
