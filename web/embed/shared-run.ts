/**
 * A link to one run at one moment: the scenario of a share link (`#scenario=<base64>`), the
 * operator requests the run makes at set times (`&operations=<base64 JSON>`: rescales, restarts
 * from a savepoint, a cancel; the scenario format has no type for them), and the job time to open
 * it at, paused (`&at=<ms>`). The sim is deterministic, so the page replays the very run: a
 * failing chaos seed prints such a link to open at its first violation.
 */
import type { ScheduledOperation } from '../../engine/job/scheduled-operation.ts';
import { decodeScenario, encodeScenario, scenarioFromHash, shareLink, ShareLinkError } from './share-link.ts';
import { embedEn } from '../i18n/messages-embed.ts';

export interface SharedRun {
  text: string;
  operations: ScheduledOperation[];
  /** open the run paused at this job time (ms) */
  atMs?: number;
}

/** More than a chaos seed ever asks for; a link is not a place for a long script. */
export const MAX_SHARED_OPERATIONS = 100;

/** The fields an operation in a link may have wrong (each has its own message, web/i18n/share-link-text.ts). */
export type SharedOperationField = 'at_ms' | 'type' | 'vertex' | 'parallelism' | 'savepoint';

/** Why a run link's own parts do not read: `at` is not a job time; `operations` is not a base64 JSON list; one operation's field is wrong. */
export type RunLinkProblem = { code: 'bad-at'; value: string } | { code: 'operations-not-json' } | { code: 'bad-operation'; index: number; field: SharedOperationField };

/** The problem in English (the page's own words, messages-embed.ts): the error's message. */
function runLinkError(problem: RunLinkProblem): ShareLinkError {
  switch (problem.code) {
    case 'bad-at':
      return new ShareLinkError(problem, embedEn['shareLink.badAt'].replace('{value}', JSON.stringify(problem.value)));
    case 'operations-not-json':
      return new ShareLinkError(problem, embedEn['shareLink.operationsNotJson']);
    case 'bad-operation':
      return new ShareLinkError(problem, embedEn['shareLink.badOperation'].replace('{index}', String(problem.index + 1)).replace('{reason}', embedEn[`shareLink.operation.${problem.field}`]));
  }
}

/** The run a URL fragment names, if it names a scenario; throws a ShareLinkError for a part it cannot read. */
export function sharedRunFromHash(hash: string): SharedRun | null {
  const text = scenarioFromHash(hash);
  return text === null ? null : { text, ...runPartsFromHash(hash) };
}

/** A run link's own parts, `operations` and `at` (the page has read its scenario already); throws a ShareLinkError for one it cannot read. */
export function runPartsFromHash(hash: string): Omit<SharedRun, 'text'> {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const encoded = params.get('operations');
  const at = params.get('at');
  return { operations: encoded ? readOperations(encoded) : [], ...(at === null ? {} : { atMs: readAt(at) }) };
}

/** The playground page opening `yaml`'s run with `operations`, paused at `atMs`: a share link with the run's parts after its scenario. */
export function sharedRunLink(base: string, yaml: string, operations: readonly ScheduledOperation[], atMs?: number): string {
  const url = new URL(shareLink(base, yaml));
  if (operations.length > 0) url.hash += `&operations=${encodeScenario(JSON.stringify(operations))}`;
  if (atMs !== undefined) url.hash += `&at=${Number(atMs.toFixed(3))}`;
  return url.href;
}

function readAt(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw runLinkError({ code: 'bad-at', value: text.slice(0, 40) });
  return value;
}

function readOperations(encoded: string): ScheduledOperation[] {
  let value: unknown;
  try {
    value = JSON.parse(decodeScenario(encoded));
  } catch {
    throw runLinkError({ code: 'operations-not-json' });
  }
  if (!Array.isArray(value) || value.length > MAX_SHARED_OPERATIONS) throw runLinkError({ code: 'operations-not-json' });
  return value.map((item, index) => readOperation(item, index));
}

function readOperation(item: unknown, index: number): ScheduledOperation {
  const fail = (field: SharedOperationField): never => {
    throw runLinkError({ code: 'bad-operation', index, field });
  };
  if (!isRecord(item) || !isRecord(item.operation)) return fail('type');
  const at = item.at_ms;
  if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) return fail('at_ms');
  const op = item.operation;
  switch (op.type) {
    case 'cancel':
      return { at_ms: at, operation: { type: 'cancel' } };
    case 'rescale':
      if (typeof op.vertex !== 'string' || op.vertex === '' || op.vertex.length > 200) return fail('vertex');
      if (!isWholeNumber(op.parallelism)) return fail('parallelism');
      return { at_ms: at, operation: { type: 'rescale', vertex: op.vertex, parallelism: op.parallelism } };
    case 'restart-from-savepoint':
      if (op.savepoint !== undefined && !isWholeNumber(op.savepoint)) return fail('savepoint');
      return { at_ms: at, operation: { type: 'restart-from-savepoint', ...(op.savepoint === undefined ? {} : { savepoint: op.savepoint }) } };
    default:
      return fail('type');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole number from 1 to 32768 (Flink's largest max parallelism; the JobMaster checks the rest when the request comes due). */
function isWholeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 32768;
}
