/**
 * What each Flink release's REST handlers leave out of the current documents, and what the importer
 * should put back — written here from the releases' history (see engine/interop/flink-versions.ts
 * for the pull requests), independently of the importer's readers, as the tests' oracle.
 */
import { FLINK_VERSIONS, type FlinkVersion } from '../../engine/interop/flink-versions.ts';

const before = (version: FlinkVersion, release: FlinkVersion) => FLINK_VERSIONS.indexOf(version) < FLINK_VERSIONS.indexOf(release);
const PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'p999'];
const UNMEASURED = { min: 0, max: 0, avg: 0, p50: 'NaN', p90: 'NaN', p95: 'NaN', p99: 'NaN', p999: 'NaN' };

type Json = unknown;
type JsonObject = Record<string, Json>;
const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Maps every object bottom-up (children first), keeping arrays and key order. */
function mapObjects(value: Json, f: (object: JsonObject) => JsonObject): Json {
  if (Array.isArray(value)) return value.map((item) => mapObjects(item, f));
  if (!isObject(value)) return value;
  return f(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapObjects(v, f)])));
}

const isSummary = (o: JsonObject) => 'min' in o && 'max' in o && 'avg' in o;
const isAlignment = (o: JsonObject) => 'buffered' in o && 'duration' in o;

/** A current checkpoint statistics document as release `version` wrote it. */
export function inVersionShape(document: Json, version: FlinkVersion): Json {
  return mapObjects(document, (o) => {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(o)) {
      if (key === 'className' && before(version, '1.15')) out['@class'] = value;
      else if (!leftOut(o, key, version)) out[key] = value;
    }
    return out;
  });
}

function leftOut(o: JsonObject, key: string, version: FlinkVersion): boolean {
  if (key === 'checkpointed_size') return before(version, '1.15');
  if (key === 'savepointFormat') return before(version, '1.17');
  if (PERCENTILES.includes(key) && isSummary(o)) return before(version, '1.14');
  if (['processed_data', 'persisted_data', 'checkpoint_type', 'unaligned_checkpoint', 'aborted'].includes(key)) return before(version, '1.12');
  if ((key === 'processed' || key === 'persisted') && isAlignment(o)) return before(version, '1.12');
  return false;
}

/** What the importer should make of `inVersionShape(document, version)`: the current shape, filled in. */
export function expectedImport(document: Json, version: FlinkVersion): Json {
  return mapObjects(document, (o) => {
    const out = { ...o };
    if (isSummary(out) && before(version, '1.14')) for (const p of PERCENTILES) out[p] = 'NaN';
    // before 1.15 the one size Flink wrote was the checkpointed size
    if ('checkpointed_size' in out && before(version, '1.15')) out['checkpointed_size'] = out['state_size'];
    if ('savepointFormat' in out && before(version, '1.17')) out['savepointFormat'] = null;
    if (before(version, '1.12')) unmeasuredInFlightData(out);
    return out;
  });
}

function unmeasuredInFlightData(o: JsonObject): void {
  const keys = isAlignment(o) ? ['processed', 'persisted'] : ['processed_data', 'persisted_data'];
  for (const key of keys) if (key in o) o[key] = typeof o[key] === 'number' ? 0 : UNMEASURED;
  if ('checkpoint_type' in o) o['checkpoint_type'] = o['is_savepoint'] ? 'SAVEPOINT' : 'CHECKPOINT';
  if ('unaligned_checkpoint' in o) o['unaligned_checkpoint'] = false;
  if ('aborted' in o) o['aborted'] = false;
}

/** The config fields each release added, with what a release without them did. */
const CONFIG_FIELDS_SINCE: [string, FlinkVersion, Json][] = [
  ['unaligned_checkpoints', '1.11', false],
  ['state_backend', '1.13', 'unknown'],
  ['checkpoint_storage', '1.13', 'unknown'],
  ['tolerable_failed_checkpoints', '1.13', 0],
  ['aligned_checkpoint_timeout', '1.13', 0],
  ['checkpoints_after_tasks_finish', '1.14', false],
  ['state_changelog_enabled', '1.15', false],
  ['changelog_periodic_materialization_interval', '1.15', 600_000],
  ['changelog_storage', '1.15', 'memory'],
];

export function configInVersionShape(config: JsonObject, version: FlinkVersion): JsonObject {
  const dropped = new Set(CONFIG_FIELDS_SINCE.filter(([, since]) => before(version, since)).map(([key]) => key));
  return Object.fromEntries(Object.entries(config).filter(([key]) => !dropped.has(key)));
}

export function expectedConfigImport(config: JsonObject, version: FlinkVersion): JsonObject {
  const out = { ...config };
  for (const [key, since, absent] of CONFIG_FIELDS_SINCE) if (before(version, since)) out[key] = absent;
  return out;
}
