/**
 * One line per failed expectation, `expected X, got Y`, for `ckpt-lab check` and docs CI logs: a
 * reader sees the bound and the figure side by side without knowing the scenario file by heart.
 */
import type { ExpectationSpec } from '../scenario/scenario-types.ts';
import { readableStatistic, type ExpectationResult } from './expectations.ts';
import { sourceText } from './restore-source-expectation.ts';
import { describeRestoredParallelism } from './retention-and-rescale-expectations.ts';

export function failureLine(result: ExpectationResult): string {
  return `expected ${expectedText(result.expectation)}, got ${result.seen}`;
}

/** What the expectation asks for, worded to be followed by `, got <seen>`. */
export function expectedText(e: ExpectationSpec): string {
  switch (e.type) {
    case 'job-status':
      return `job status ${e.status}`;
    case 'exactly-once':
      return 'exactly-once output (duplicates 0, missing 0)';
    case 'min-sink-records':
      return `sink records ≥ ${e.value}`;
    case 'min-completed-checkpoints':
      return `completed checkpoints ≥ ${e.value}`;
    case 'max-failed-checkpoints':
      return `failed checkpoints ≤ ${e.value}`;
    case 'min-duplicates':
      return `duplicates ≥ ${e.value}`;
    case 'min-restores':
      return `restores ≥ ${e.value}`;
    case 'min-failed-checkpoints':
      return `failed checkpoints${e.reason === undefined ? '' : ` (${e.reason})`} ≥ ${e.value}`;
    case 'min-restored-subtasks':
      return `subtask restores from ${sourceText(e)} ≥ ${e.value}`;
    case 'restore-source':
      return `${e.vertex}#${e.subtask} to restore from ${sourceText(e)}${e.restore === undefined ? '' : ` in restore ${e.restore}`}`;
    case 'mixed-restore':
      return `${e.vertex}#${e.subtask} to mix local and remote handles${e.restore === undefined ? '' : ` in restore ${e.restore}`}`;
    case 'statistic':
      return `${e.aggregate} ${e.statistic} ${rangeText((v) => readableStatistic(e.statistic, v), e.min, e.max)}`;
    case 'catch-up-time':
      return `the slowest catch-up time ${rangeText((v) => readableStatistic('end-to-end-duration', v), e.min, e.max)}`;
    case 'min-retained-checkpoints':
      return `retained checkpoints after the job ended ≥ ${e.value}`;
    case 'max-retained-checkpoints':
      return `retained checkpoints after the job ended ≤ ${e.value}`;
    case 'restored-parallelism':
      return describeRestoredParallelism(e);
    case 'rocksdb-metric':
      return `${e.metric}${e.vertex === undefined ? '' : ` of ${e.vertex}`} ${rangeText(String, e.min, e.max)}`;
  }
}

function rangeText(show: (v: number) => string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${show(min)} and ${show(max)}`;
  return min !== undefined ? `≥ ${show(min)}` : `≤ ${show(max!)}`;
}
