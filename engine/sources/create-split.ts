import type { SourceSpec } from '../scenario/scenario-types.ts';
import { LinesSplit } from './lines-split.ts';
import { RandomSplit } from './random-split.ts';
import { SequenceSplit } from './sequence-split.ts';
import type { SourceSplit } from './source-split.ts';

/** The split a source subtask reads: one per subtask, like one Kafka partition each. */
export function createSplit(spec: SourceSpec, seed: number, subtaskIndex: number): SourceSplit {
  const count = spec.count ?? Infinity;
  switch (spec.kind) {
    case 'sequence':
      return new SequenceSplit(spec.keys, spec.rate_per_s, count);
    case 'random':
      return new RandomSplit(seed, subtaskIndex, spec.keys, spec.skew, spec.value_min, spec.value_max, spec.rate_per_s, count);
    case 'lines':
      return new LinesSplit(spec.lines, spec.rate_per_s, count);
  }
}
