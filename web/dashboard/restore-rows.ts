/**
 * One restore (a RestoreRecord) as the rows the Overview's "Latest Restore" table and the subtask
 * inspector show: one row per subtask, grouped by vertex, each saying where its state came from,
 * what it read and, for a remote read, why the local copy was not used. Pure: the components
 * translate `reason` through the `restore.reason.<reason>` messages (web/i18n/restore-text.ts).
 *
 * The UI's rules, beyond what the record says:
 *  - A subtask that read 0 bytes had no state to restore (a map, a filter, a plain sink):
 *    its reason is `stateless` ("nothing to restore"), whatever source and fallback reason the
 *    record gives; the engine still calls such a read "remote, missing", because no local copy
 *    is ever written for it, but nothing was read from anywhere.
 *  - A subtask of a vertex that keeps no keyed state (a source's offsets, a two-phase-commit
 *    sink's transactions) but did read state, remote with the reason `missing`, gets the reason
 *    `not-keyed`: Flink's task-local recovery covers keyed state only, so there never is a
 *    local copy to miss. Only for a vertex the caller says is not keyed; other reasons
 *    (different-slot…) are checked before the disk and stay as they are.
 *  - A reason this version does not know (a trace from another version) stays as it is, shown
 *    verbatim (`unknown`, with `rawReason`).
 */
import type { HandleRestore, LocalRecoveryFallbackReason } from '../../engine/recovery/local-recovery.ts';
import type { Topology } from '../../engine/job/topology.ts';
import type { RestoreRecord, SubtaskRestore } from '../../engine/run/job-events.ts';
import { KEYED_VERTEX_TYPES } from '../../engine/scenario/scenario-vocabulary.ts';

/**
 * Why a remote restore did not use a local copy, in the order local-recovery.ts checks them (a
 * Record, so a new reason without a place here, and so without a message, is a type error).
 */
const FALLBACK_ORDER: Record<LocalRecoveryFallbackReason, number> = {
  'local-recovery-disabled': 0,
  rescaled: 1,
  'no-previous-slot': 2,
  'different-slot': 3,
  'different-host': 4,
  missing: 5,
  partial: 6,
  corrupt: 7,
};

export const FALLBACK_REASONS = Object.keys(FALLBACK_ORDER) as LocalRecoveryFallbackReason[];

/** What a row says instead of, or as, a fallback reason; `null`: a local restore, nothing to explain. */
export type RestoreReason = LocalRecoveryFallbackReason | 'stateless' | 'not-keyed' | 'unknown';

export interface RestoreRow {
  vertexId: string;
  subtaskIndex: number;
  /** `count#1`, as the rest of the page names a subtask */
  label: string;
  source: 'local' | 'remote';
  reason: RestoreReason | null;
  /** the record's reason text when `reason` is `unknown` */
  rawReason?: string;
  bytes: number;
  remoteBytes: number;
  /**
   * Whether the row names its remote bytes apart: only when some, but not all, of the bytes came
   * from remote storage (a local restore that fetched shared runs it lacked). A local row's 0 is
   * what "local" means, and a remote row's remote bytes are its bytes.
   */
  showRemoteBytes: boolean;
  durationMs: number;
  /** per state handle, where it came from and why (absent when the record does not say: older traces, live) */
  handles?: HandleRow[];
}

/** One state handle of a subtask's restore (HandleRestore), for the inspector's list and the Latest Restore's handle rows. */
export interface HandleRow {
  kind: HandleRestore['kind'];
  /** `0–15`, for keyed handles */
  keyGroups?: string;
  source: HandleRestore['source'];
  /** why not local; null for a local handle */
  reason: LocalRecoveryFallbackReason | null;
  bytes: number;
  /** how long reading it took (absent when the record does not say: a failed handle, older traces) */
  durationMs?: number;
}

export interface RestoreGroup {
  vertexId: string;
  rows: RestoreRow[];
}

export interface RestoreRowOptions {
  /** The job's vertices in graph order (the topology's); vertices not in it follow in record order. */
  vertexOrder?: readonly string[];
  /** Whether each vertex keeps keyed state; a vertex not in it (or without it) never says `not-keyed`. */
  keyed?: ReadonlyMap<string, boolean>;
}

/** The options the page passes: the job's vertex order and its keyed vertices, from the topology. */
export function restoreRowOptions(topology: Pick<Topology, 'vertices'> | null | undefined): RestoreRowOptions {
  if (!topology) return {};
  const keyedTypes: readonly string[] = KEYED_VERTEX_TYPES;
  return {
    vertexOrder: topology.vertices.map((v) => v.id),
    keyed: new Map(topology.vertices.map((v) => [v.id, keyedTypes.includes(v.type)])),
  };
}

/** One subtask's restore as a row. */
export function restoreRow(s: SubtaskRestore, options: RestoreRowOptions = {}): RestoreRow {
  const row: RestoreRow = {
    vertexId: s.vertexId,
    subtaskIndex: s.subtaskIndex,
    label: `${s.vertexId}#${s.subtaskIndex}`,
    source: s.source,
    reason: null,
    bytes: s.bytes,
    remoteBytes: s.remoteBytes,
    showRemoteBytes: s.remoteBytes > 0 && s.remoteBytes !== s.bytes,
    durationMs: s.durationMs,
    ...(s.handles ? { handles: s.handles.map(handleRow) } : {}),
  };
  if (s.bytes === 0) return { ...row, reason: 'stateless' };
  if (s.source === 'local') return row;
  if (s.reason === 'missing' && options.keyed?.get(s.vertexId) === false) return { ...row, reason: 'not-keyed' };
  if (s.reason !== undefined && Object.hasOwn(FALLBACK_ORDER, s.reason)) return { ...row, reason: s.reason as LocalRecoveryFallbackReason };
  return { ...row, reason: 'unknown', rawReason: s.reason ?? '' };
}

function handleRow(h: HandleRestore): HandleRow {
  const keyGroups = h.keyGroupRange ? { keyGroups: `${h.keyGroupRange.start}–${h.keyGroupRange.end}` } : {};
  const duration = h.durationMs === undefined ? {} : { durationMs: h.durationMs };
  return { kind: h.kind, ...keyGroups, source: h.source, reason: h.source === 'local' ? null : (h.reason ?? null), bytes: h.bytes, ...duration };
}

/** The record's subtasks as rows, grouped by vertex (graph order), each group by subtask index. */
export function restoreGroups(record: RestoreRecord, options: RestoreRowOptions = {}): RestoreGroup[] {
  const order = new Map((options.vertexOrder ?? []).map((id, i) => [id, i]));
  const groups = new Map<string, RestoreRow[]>();
  for (const s of record.subtasks) {
    const rows = groups.get(s.vertexId) ?? [];
    rows.push(restoreRow(s, options));
    groups.set(s.vertexId, rows);
  }
  const firstSeen = [...groups.keys()];
  const rank = (id: string) => order.get(id) ?? order.size + firstSeen.indexOf(id);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([vertexId, rows]) => ({ vertexId, rows: rows.sort((a, b) => a.subtaskIndex - b.subtaskIndex) }));
}

export interface ShownGroups {
  groups: RestoreGroup[];
  /** rows left out */
  hidden: number;
  total: number;
}

/** The first `limit` rows, in group order (a group cut short keeps its heading); all of them when `limit` is Infinity. */
export function firstRows(groups: readonly RestoreGroup[], limit: number): ShownGroups {
  const total = groups.reduce((n, g) => n + g.rows.length, 0);
  const shown: RestoreGroup[] = [];
  let left = limit;
  for (const group of groups) {
    if (left <= 0) break;
    shown.push({ vertexId: group.vertexId, rows: group.rows.slice(0, left) });
    left -= group.rows.length;
  }
  return { groups: shown, hidden: total - shown.reduce((n, g) => n + g.rows.length, 0), total };
}

/** The latest restore that included this subtask, with its row; undefined when it never restored. */
export function lastSubtaskRestore(
  records: readonly RestoreRecord[],
  vertexId: string,
  subtaskIndex: number,
  options: RestoreRowOptions = {},
): { record: RestoreRecord; row: RestoreRow } | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    const s = record.subtasks.find((x) => x.vertexId === vertexId && x.subtaskIndex === subtaskIndex);
    if (s) return { record, row: restoreRow(s, options) };
  }
  return undefined;
}
