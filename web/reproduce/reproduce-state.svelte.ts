/**
 * "Reproduce in the playground" on the page: the model built (engine/reproduce/) from the imported
 * job the page holds (PlaygroundState.imported, filled by the shared importer), loaded into the
 * playground and started. The comparison itself is derived in the panel from the running model's
 * statistics, so it fills in as the model completes checkpoints.
 */
import type { DoctorDocuments } from '../../engine/doctor/doctor-documents.ts';
import { reproduceAndCompare } from '../../engine/reproduce/calibrated-reproduction.ts';
import { reproduceScenario, type ReproducedScenario, type ReproduceResult } from '../../engine/reproduce/reproduce-scenario.ts';
import type { PlaygroundState } from '../playground-state.svelte.ts';

export class ReproduceState {
  reproduced = $state.raw<ReproducedScenario | null>(null);
  problem = $state.raw<Extract<ReproduceResult, { ok: false }>['problem'] | null>(null);
  building = $state(false);
  /** why loading the model failed (an engine bug: the model always validates) */
  loadError = $state<string | null>(null);

  /**
   * Builds the model of the imported job and runs it in the playground. A model on the heap
   * backend is calibrated first (a few short sim runs, well under a second); one on RocksDB is
   * loaded as derived, since calibrating it would run wa-sqlite on the page's thread for seconds.
   */
  async reproduce(playground: PlaygroundState): Promise<void> {
    if (!playground.imported.held || this.building) return;
    const documents: DoctorDocuments = playground.imported.documents;
    this.building = true;
    this.loadError = null;
    this.problem = null;
    try {
      const derived = reproduceScenario(documents);
      if (!derived.ok) {
        this.problem = derived.problem;
        return;
      }
      const onRocksDb = (derived.reproduced.document['config'] as Record<string, unknown>)['state.backend.type'] === 'rocksdb';
      const calibrated = onRocksDb ? derived : reproduceAndCompare(documents);
      const reproduced = calibrated.ok ? calibrated.reproduced : derived.reproduced;
      await playground.load(reproduced.document);
      this.reproduced = reproduced;
      playground.start();
    } catch (error) {
      this.loadError = error instanceof Error ? error.message : String(error);
    } finally {
      this.building = false;
    }
  }
}
