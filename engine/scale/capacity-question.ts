/**
 * The capacity planner's form, read into a `CapacityQuestion`: sizes and durations in Flink's
 * syntax (`100 gb`, `1 min`, `250 us`) through the scenario's own parsers, rates and bandwidths as
 * plain numbers, the parallelisms to sweep as a list. Every problem names its field and is a value
 * from a closed list, so the page can word it in the learner's language; a parser's own message
 * (Flink's syntax) is kept as it is, for the page's validation-message translations.
 */
import { formatDuration, parseDuration } from '../config/duration.ts';
import { parseMemorySize } from '../config/memory-size.ts';
import type { EngineMessage } from '../messages/message-codes.ts';
import type { CapacityQuestion } from './capacity-plan.ts';

/** What the page's form holds: each field as the user typed it. */
export interface CapacityForm {
  ratePerS: string;
  recordCost: string;
  stateSize: string;
  stateGrowthPerS: string;
  stateChurnPerS: string;
  checkpointInterval: string;
  remoteBandwidthMbPerS: string;
  remoteStoreBandwidthMbPerS: string;
  recoveryObjective: string;
  parallelisms: string;
}

export type CapacityField = keyof CapacityForm;

export type CapacityProblem =
  | 'empty'
  | 'not-a-number'
  | 'not-above-zero'
  /** a parser rejected the text; `parserMessage` says why, in Flink's terms */
  | 'unreadable'
  | 'below-minimum'
  | 'above-maximum'
  | 'not-a-parallelism'
  | 'too-many-parallelisms';

export interface CapacityFieldError {
  field: CapacityField;
  problem: CapacityProblem;
  /** the parser's message (English, Flink's syntax), for `unreadable` */
  parserMessage?: string;
  /** the same as a message code, for the page to render in the learner's language */
  parserProblem?: EngineMessage;
  /** the bound crossed (`below-minimum`, `above-maximum`, `too-many-parallelisms`) or the bad item (`not-a-parallelism`), as written */
  detail?: string;
}

export type CapacityQuestionResult = { ok: true; question: CapacityQuestion } | { ok: false; errors: CapacityFieldError[] };

/** Flink refuses checkpoint intervals under 10 ms (`CheckpointConfig.MINIMUM_CHECKPOINT_INTERVAL`). */
export const MIN_CHECKPOINT_INTERVAL_MS = 10;
/** Each point simulates the failure plus four objectives of job time: an hour's objective is already a long run. */
export const MAX_RECOVERY_OBJECTIVE_MS = 60 * 60_000;
export const MAX_RECORD_COST_MS = 1000;
export const MAX_PARALLELISM = 10_000;
export const MAX_SWEEP_POINTS = 24;

/** The form as it first appears: the sweep of the planner's own test, a job the articles would call medium-sized. */
export const EXAMPLE_CAPACITY_FORM: CapacityForm = {
  ratePerS: '200000',
  recordCost: '250 us',
  stateSize: '100 gb',
  stateGrowthPerS: '1 mb',
  stateChurnPerS: '20 mb',
  checkpointInterval: '1 min',
  remoteBandwidthMbPerS: '100',
  remoteStoreBandwidthMbPerS: '5000',
  recoveryObjective: '2 min',
  parallelisms: '50, 60, 80, 100, 150, 200',
};

type Read<T> = { value: T } | { error: CapacityFieldError };

export function readCapacityQuestion(form: CapacityForm): CapacityQuestionResult {
  const reads = {
    ratePerS: positiveNumber(form, 'ratePerS'),
    recordCost: duration(form, 'recordCost', 0, MAX_RECORD_COST_MS),
    stateSize: memorySize(form, 'stateSize'),
    stateGrowthPerS: memorySize(form, 'stateGrowthPerS'),
    stateChurnPerS: memorySize(form, 'stateChurnPerS'),
    checkpointInterval: duration(form, 'checkpointInterval', MIN_CHECKPOINT_INTERVAL_MS, Infinity),
    remoteBandwidthMbPerS: positiveNumber(form, 'remoteBandwidthMbPerS'),
    remoteStoreBandwidthMbPerS: positiveNumber(form, 'remoteStoreBandwidthMbPerS'),
    recoveryObjective: duration(form, 'recoveryObjective', 0, MAX_RECOVERY_OBJECTIVE_MS),
    parallelisms: parallelismList(form),
  };
  const errors = Object.values(reads).flatMap((read) => ('error' in read ? [read.error] : []));
  if (errors.length > 0) return { ok: false, errors };
  const v = <T>(read: Read<T>) => (read as { value: T }).value;
  return {
    ok: true,
    question: {
      ratePerS: v(reads.ratePerS),
      recordCostUs: v(reads.recordCost) * 1000,
      stateBytes: v(reads.stateSize),
      stateGrowthBytesPerS: v(reads.stateGrowthPerS),
      stateChurnBytesPerS: v(reads.stateChurnPerS),
      checkpointIntervalMs: v(reads.checkpointInterval),
      remoteBandwidthMbPerS: v(reads.remoteBandwidthMbPerS),
      remoteStoreBandwidthMbPerS: v(reads.remoteStoreBandwidthMbPerS),
      recoveryObjectiveMs: v(reads.recoveryObjective),
      parallelisms: v(reads.parallelisms),
    },
  };
}

function problem(field: CapacityField, kind: CapacityProblem, extra: Omit<CapacityFieldError, 'field' | 'problem'> = {}): { error: CapacityFieldError } {
  return { error: { field, problem: kind, ...extra } };
}

/** A count per second: digits, a decimal point, and the grouping a person types (`2_000_000`, `2,000,000`). */
function positiveNumber(form: CapacityForm, field: CapacityField): Read<number> {
  const text = form[field].trim();
  if (text === '') return problem(field, 'empty');
  if (!/^[0-9][0-9_,]*(\.[0-9]+)?$/.test(text)) return problem(field, 'not-a-number');
  const value = Number(text.replace(/[_,]/g, ''));
  return value > 0 ? { value } : problem(field, 'not-above-zero');
}

function duration(form: CapacityForm, field: CapacityField, minMs: number, maxMs: number): Read<number> {
  const text = form[field].trim();
  if (text === '') return problem(field, 'empty');
  const parsed = parseDuration(text);
  if (!parsed.ok) return problem(field, 'unreadable', { parserMessage: parsed.message, parserProblem: parsed.problem });
  if (parsed.ms <= 0 && minMs === 0) return problem(field, 'not-above-zero');
  if (parsed.ms < minMs) return problem(field, 'below-minimum', { detail: formatDuration(minMs) });
  if (parsed.ms > maxMs) return problem(field, 'above-maximum', { detail: formatDuration(maxMs) });
  return { value: parsed.ms };
}

function memorySize(form: CapacityForm, field: CapacityField): Read<number> {
  const text = form[field].trim();
  if (text === '') return problem(field, 'empty');
  const parsed = parseMemorySize(text);
  return parsed.ok ? { value: parsed.bytes } : problem(field, 'unreadable', { parserMessage: parsed.message, parserProblem: parsed.problem });
}

/** Whole parallelisms separated by commas or spaces, swept smallest first (the smallest meeting the objective is the answer). */
function parallelismList(form: CapacityForm): Read<number[]> {
  const items = form.parallelisms.split(/[\s,]+/).filter((item) => item !== '');
  if (items.length === 0) return problem('parallelisms', 'empty');
  const bad = items.find((item) => !/^[0-9]+$/.test(item) || Number(item) < 1 || Number(item) > MAX_PARALLELISM);
  if (bad !== undefined) return problem('parallelisms', 'not-a-parallelism', { detail: bad });
  const values = [...new Set(items.map(Number))].sort((a, b) => a - b);
  if (values.length > MAX_SWEEP_POINTS) return problem('parallelisms', 'too-many-parallelisms', { detail: String(MAX_SWEEP_POINTS) });
  return { value: values };
}
