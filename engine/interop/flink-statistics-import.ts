/**
 * Reads what a Flink JobManager or History Server serves for a job's checkpoints — one endpoint's
 * response, or a History Server archive holding all of them — from any release from 1.9 on, and
 * writes it in the current Flink shape, as the playground's own documents (`ckpt-lab run --json`'s
 * `checkpoints`, `checkpointConfig`, `checkpointDetails`). Input it cannot read gives problems
 * with their JSON paths, and no statistics at all.
 */
import type {
  CheckpointConfigDocument,
  CheckpointingStatisticsDocument,
  CheckpointStatisticsDocument,
  TaskCheckpointStatisticsWithSubtaskDetailsDocument,
} from '../checkpoint/stats/rest-document-types.ts';
import { readCheckpointConfig } from './checkpoint-config-reader.ts';
import { readCheckpointStatistics } from './checkpoint-statistics-reader.ts';
import { readCheckpointingStatistics } from './checkpointing-statistics-reader.ts';
import { detectFlinkDocument, endpointOfPath, HISTORY_SERVER_ARCHIVE, type FlinkCheckpointEndpoint, type FlinkDocumentKind } from './flink-endpoint.ts';
import { describeJsonValue, indexPath, type FlinkImportProblem } from './flink-import-problem.ts';
import { fittingVersions, type FlinkVersion } from './flink-versions.ts';
import { DocumentReading, isJsonObject, JsonObjectReader } from './json-object-reader.ts';
import { readTaskCheckpointStatisticsWithSubtaskDetails } from './task-checkpoint-statistics-reader.ts';

/** One subtasks response: its vertex id is only in the URL, so it is null for a lone saved response. */
export interface CheckpointSubtaskDetails {
  checkpointId: number;
  vertexId: string | null;
  statistics: TaskCheckpointStatisticsWithSubtaskDetailsDocument;
}

export interface ImportedFlinkStatistics {
  endpoint: FlinkDocumentKind;
  /** the releases whose REST handlers write this shape, oldest first */
  flinkVersions: FlinkVersion[];
  checkpoints?: CheckpointingStatisticsDocument;
  checkpointConfig?: CheckpointConfigDocument;
  /** checkpoint id → details, as `ckpt-lab run --json` keys them */
  checkpointDetails?: Record<string, CheckpointStatisticsDocument>;
  checkpointSubtaskDetails?: CheckpointSubtaskDetails[];
}

export type FlinkStatisticsImport =
  | { ok: true; statistics: ImportedFlinkStatistics }
  | { ok: false; problems: FlinkImportProblem[] };

/** A response body or an archive file, as text. */
export function importFlinkStatisticsText(text: string): FlinkStatisticsImport {
  const parsed = parseJson(text, '$');
  if (!parsed.ok) return { ok: false, problems: [parsed.problem] };
  return importFlinkStatistics(parsed.value);
}

/** A response body or an archive, parsed. */
export function importFlinkStatistics(value: unknown): FlinkStatisticsImport {
  const kind = detectFlinkDocument(value);
  if (kind === undefined) return { ok: false, problems: [unknownDocument(value, '$')] };
  const reading = new DocumentReading();
  const statistics: ImportedFlinkStatistics = { endpoint: kind, flinkVersions: [] };
  if (kind === HISTORY_SERVER_ARCHIVE) readArchive(value as Record<string, unknown>, reading, statistics);
  else readEndpoint(kind, value, '$', reading, statistics, {});
  if (reading.problems.length > 0) return { ok: false, problems: reading.problems };
  return { ok: true, statistics: { ...statistics, flinkVersions: fittingVersions(reading.observations) } };
}

function readEndpoint(
  endpoint: FlinkCheckpointEndpoint,
  value: unknown,
  path: string,
  reading: DocumentReading,
  into: ImportedFlinkStatistics,
  ids: { checkpointId?: number; vertexId?: string },
): void {
  const document = JsonObjectReader.of(value, path, reading);
  if (document === undefined) return;
  switch (endpoint) {
    case '/jobs/:jobid/checkpoints':
      into.checkpoints = readCheckpointingStatistics(document);
      return;
    case '/jobs/:jobid/checkpoints/config':
      into.checkpointConfig = readCheckpointConfig(document);
      return;
    case '/jobs/:jobid/checkpoints/details/:checkpointid': {
      const details = readCheckpointStatistics(document);
      into.checkpointDetails = { ...into.checkpointDetails, [String(details.id)]: details };
      return;
    }
    case '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid': {
      const statistics = readTaskCheckpointStatisticsWithSubtaskDetails(document);
      const entry = { checkpointId: ids.checkpointId ?? statistics.id, vertexId: ids.vertexId ?? null, statistics };
      into.checkpointSubtaskDetails = [...(into.checkpointSubtaskDetails ?? []), entry];
      return;
    }
  }
}

/**
 * FsJobArchivist writes `{"archive": [{"path": "/jobs/<id>/…", "json": "<the response, as a string>"}]}`;
 * the checkpoint endpoints' entries are read, the job's other responses skipped.
 */
function readArchive(archive: Record<string, unknown>, reading: DocumentReading, into: ImportedFlinkStatistics): void {
  const entries = archive['archive'] as unknown[];
  let read = 0;
  entries.forEach((item, index) => {
    if (reading.full) return;
    const entry = JsonObjectReader.of(item, indexPath('$.archive', index), reading);
    if (entry === undefined) return;
    const target = endpointOfPath(entry.string('path'));
    if (target === undefined) return;
    const json = entry.string('json');
    const parsed = parseJson(json, entry.pathOf('json'));
    read++;
    if (!parsed.ok) return reading.report({ ...parsed.problem, code: 'archive-entry-not-json' });
    readEndpoint(target.endpoint, parsed.value, entry.pathOf('json'), reading, into, target);
  });
  if (read === 0 && reading.problems.length === 0) {
    reading.report({ code: 'archive-without-checkpoints', path: '$.archive', params: { paths: entries.length } });
  }
}

function parseJson(text: string, path: string): { ok: true; value: unknown } | { ok: false; problem: FlinkImportProblem & { code: 'syntax-error' } } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: { code: 'syntax-error', path, params: { reason: error instanceof Error ? error.message : String(error) } } };
  }
}

function unknownDocument(value: unknown, path: string): FlinkImportProblem {
  const keys = isJsonObject(value) ? Object.keys(value).slice(0, 8).join(', ') || '{}' : describeJsonValue(value);
  return { code: 'unknown-document', path, params: { keys } };
}
