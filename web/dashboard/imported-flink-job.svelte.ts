/**
 * A real Flink job's checkpoint statistics, imported into the page one response at a time (a
 * user saves `/checkpoints`, then a checkpoint's details, then its subtasks per operator): each
 * import adds to what is held, so the Gantt tab can show the strip from one response and the
 * subtasks from others. Input the importer cannot read leaves what is held untouched.
 *
 * One per page (PlaygroundState.imported): the Gantt tab's importer and the reproduce panel add to
 * the same job, and every dashboard tab and the timeline can show it. The importer itself is loaded
 * with the first import, so a page that never imports does not carry it.
 */
import type { CheckpointConfigDocument } from '../../engine/checkpoint/stats/rest-document-types.ts';
import type { FlinkImportProblem } from '../../engine/interop/flink-import-problem.ts';
import type { ImportedFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';
import { FLINK_VERSIONS, type FlinkVersion } from '../../engine/interop/flink-versions.ts';
import type { ImportedGanttDocuments } from './gantt-statistics.ts';

export interface ImportedDocuments extends ImportedGanttDocuments {
  checkpointConfig?: CheckpointConfigDocument;
}

export class ImportedFlinkJob {
  documents = $state.raw<ImportedDocuments>({});
  /** the kinds of document imported, in the order they came */
  endpoints = $state.raw<readonly string[]>([]);
  /** the releases every imported document fits */
  versions = $state.raw<readonly FlinkVersion[]>(FLINK_VERSIONS);
  /** why the last import was refused; empty when it was read */
  problems = $state.raw<readonly FlinkImportProblem[]>([]);

  readonly held = $derived(this.endpoints.length > 0);

  /**
   * Reads one response body or archive; returns whether it was imported. `restPath` is the REST
   * path it was fetched from, when known: a subtasks response names its operator only there.
   */
  async addText(text: string, restPath?: string): Promise<boolean> {
    const [{ importFlinkStatisticsText }, { withVertexOfPath }] = await Promise.all([import('../../engine/interop/flink-statistics-import.ts'), import('./flink-url-fetch.ts')]);
    const result = importFlinkStatisticsText(text);
    if (!result.ok) {
      this.problems = result.problems;
      return false;
    }
    this.problems = [];
    this.#merge(withVertexOfPath(result.statistics, restPath));
    return true;
  }

  clear(): void {
    this.documents = {};
    this.endpoints = [];
    this.versions = FLINK_VERSIONS;
    this.problems = [];
  }

  #merge(statistics: ImportedFlinkStatistics): void {
    const held = this.documents;
    // a later subtasks response of the same checkpoint and operator replaces the earlier one
    const same = (a: { checkpointId: number; vertexId: string | null }, b: typeof a) => a.checkpointId === b.checkpointId && a.vertexId === b.vertexId;
    const incoming = statistics.checkpointSubtaskDetails ?? [];
    this.documents = {
      checkpoints: statistics.checkpoints ?? held.checkpoints,
      checkpointConfig: statistics.checkpointConfig ?? held.checkpointConfig,
      checkpointDetails: { ...held.checkpointDetails, ...statistics.checkpointDetails },
      checkpointSubtaskDetails: [...(held.checkpointSubtaskDetails ?? []).filter((h) => !incoming.some((i) => same(h, i))), ...incoming],
    };
    this.endpoints = [...this.endpoints, statistics.endpoint];
    this.versions = this.versions.filter((v) => statistics.flinkVersions.includes(v));
  }
}
