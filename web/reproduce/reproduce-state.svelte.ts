/**
 * "Reproduce in the playground" on the page: the Flink responses the user pasted or chose, read
 * by the same importer as `ckpt-lab inspect`, and the model built from them (engine/reproduce/),
 * loaded into the playground and started. The comparison itself is derived in the panel from the
 * running model's statistics, so it fills in as the model completes checkpoints.
 */
import { importFlinkStatisticsText, type ImportedFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';
import type { FlinkImportProblem } from '../../engine/interop/flink-import-problem.ts';
import { reproduceAndCompare } from '../../engine/reproduce/calibrated-reproduction.ts';
import { mergeImportedStatistics } from '../../engine/reproduce/imported-statistics-merge.ts';
import { reproduceScenario, type ReproducedScenario, type ReproduceResult } from '../../engine/reproduce/reproduce-scenario.ts';
import type { PlaygroundState } from '../playground-state.svelte.ts';

export type ImportedResponse = { file: string; ok: true; statistics: ImportedFlinkStatistics } | { file: string; ok: false; problems: FlinkImportProblem[] };

export class ReproduceState {
  responses = $state.raw<ImportedResponse[]>([]);
  reproduced = $state.raw<ReproducedScenario | null>(null);
  problem = $state.raw<Extract<ReproduceResult, { ok: false }>['problem'] | null>(null);
  building = $state(false);
  /** why loading the model failed (an engine bug: the model always validates) */
  loadError = $state<string | null>(null);

  readonly statistics = $derived.by((): ImportedFlinkStatistics | null => {
    const read = this.responses.flatMap((r) => (r.ok ? [r.statistics] : []));
    return read.length === 0 ? null : read.reduce(mergeImportedStatistics);
  });

  /** Replaces what was read before: one paste, or one choice of files, is one job. */
  read(texts: readonly { file: string; text: string }[]): void {
    this.responses = texts.map(({ file, text }) => {
      const imported = importFlinkStatisticsText(text);
      return imported.ok ? { file, ok: true, statistics: imported.statistics } : { file, ok: false, problems: imported.problems };
    });
    this.problem = null;
  }

  /**
   * Builds the model and runs it in the playground. A model on the heap backend is calibrated
   * first (a few short sim runs, well under a second); one on RocksDB is loaded as derived, since
   * calibrating it would run wa-sqlite on the page's thread for seconds.
   */
  async reproduce(playground: PlaygroundState): Promise<void> {
    const statistics = this.statistics;
    if (statistics === null || this.building) return;
    this.building = true;
    this.loadError = null;
    try {
      const derived = reproduceScenario(statistics);
      if (!derived.ok) {
        this.problem = derived.problem;
        return;
      }
      const onRocksDb = (derived.reproduced.document['config'] as Record<string, unknown>)['state.backend.type'] === 'rocksdb';
      const calibrated = onRocksDb ? derived : reproduceAndCompare(statistics);
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
