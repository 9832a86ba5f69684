/**
 * Which of Flink's checkpoint REST endpoints a document came from, told by its top-level keys
 * (a saved response carries no URL), or by its path inside a History Server archive.
 */
import { isJsonObject } from './json-object-reader.ts';

export type FlinkCheckpointEndpoint =
  | '/jobs/:jobid/checkpoints'
  | '/jobs/:jobid/checkpoints/config'
  | '/jobs/:jobid/checkpoints/details/:checkpointid'
  | '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid';

/** The History Server's archive of a finished job: every REST response as `{path, json}`. */
export const HISTORY_SERVER_ARCHIVE = 'history-server-archive';

export type FlinkDocumentKind = FlinkCheckpointEndpoint | typeof HISTORY_SERVER_ARCHIVE;

/** The endpoint whose response has these top-level keys; undefined for anything else. */
export function detectFlinkDocument(value: unknown): FlinkDocumentKind | undefined {
  if (!isJsonObject(value)) return undefined;
  const has = (key: string) => Object.hasOwn(value, key);
  if (Array.isArray(value['archive'])) return HISTORY_SERVER_ARCHIVE;
  if (has('counts') && (has('history') || has('latest'))) return '/jobs/:jobid/checkpoints';
  if (has('mode') && ['interval', 'timeout', 'min_pause', 'externalization'].some(has)) return '/jobs/:jobid/checkpoints/config';
  if (has('subtasks') && has('summary')) return '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid';
  if ((has('className') || has('@class') || has('trigger_timestamp')) && has('tasks')) return '/jobs/:jobid/checkpoints/details/:checkpointid';
  return undefined;
}

/** An archived REST path, with the checkpoint and vertex it names; undefined for a path that is not a checkpoint endpoint. */
export function endpointOfPath(path: string): { endpoint: FlinkCheckpointEndpoint; checkpointId?: number; vertexId?: string } | undefined {
  const match = /^\/jobs\/[^/]+\/checkpoints(?:\/(config)|\/details\/(\d+)(?:\/subtasks\/([^/]+))?)?\/?$/.exec(path);
  if (match === null) return undefined;
  const [, config, checkpointId, vertexId] = match;
  if (config !== undefined) return { endpoint: '/jobs/:jobid/checkpoints/config' };
  if (checkpointId === undefined) return { endpoint: '/jobs/:jobid/checkpoints' };
  if (vertexId === undefined) return { endpoint: '/jobs/:jobid/checkpoints/details/:checkpointid', checkpointId: Number(checkpointId) };
  return { endpoint: '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid', checkpointId: Number(checkpointId), vertexId };
}
