import type { StreamRecord } from '../protocol.ts';
import type { FilterSpec } from '../scenario/scenario-types.ts';
import type { Output, StreamOperator } from './stream-operator.ts';

/** filter with one of the named predicates a scenario can choose. */
export class FilterOperator implements StreamOperator {
  readonly #keep: (record: StreamRecord) => boolean;
  #seen = 0;

  constructor(spec: FilterSpec) {
    this.#keep = this.#predicate(spec);
  }

  processRecord(record: StreamRecord, _input: number, out: Output): void {
    if (this.#keep(record)) out.collect(record);
  }

  processWatermark(): void {}

  #predicate(spec: FilterSpec): (record: StreamRecord) => boolean {
    switch (spec.fn) {
      case 'value-at-least':
        return (r) => r.value >= spec.value;
      case 'key-prefix':
        return (r) => r.key.startsWith(spec.prefix);
      case 'every-nth':
        // Counts records of this subtask; after a restore it starts again (operator state is not kept).
        return () => this.#seen++ % spec.n === 0;
    }
  }
}
