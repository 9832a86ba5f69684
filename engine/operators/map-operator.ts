import type { StreamRecord } from '../protocol.ts';
import type { MapFunction } from '../scenario/scenario-types.ts';
import type { Output, StreamOperator } from './stream-operator.ts';

/** map / flatMap with one of the named functions a scenario can choose. */
export class MapOperator implements StreamOperator {
  readonly #apply: (record: StreamRecord, out: Output) => void;

  constructor(fn: MapFunction) {
    this.#apply = MAP_FUNCTIONS[fn];
  }

  processRecord(record: StreamRecord, _input: number, out: Output): void {
    this.#apply(record, out);
  }

  processWatermark(): void {}
}

const WORD = /[\p{L}\p{N}']+/gu;

const MAP_FUNCTIONS: Record<MapFunction, (record: StreamRecord, out: Output) => void> = {
  identity: (r, out) => out.collect(r),
  lowercase: (r, out) => out.collect({ key: r.key.toLowerCase(), value: r.value, timestamp: r.timestamp }),
  uppercase: (r, out) => out.collect({ key: r.key.toUpperCase(), value: r.value, timestamp: r.timestamp }),
  double: (r, out) => out.collect({ key: r.key, value: r.value * 2, timestamp: r.timestamp }),
  // flatMap: one record per word of the key (a line of text), keyed by the lower-cased word
  'split-words': (r, out) => {
    for (const match of r.key.matchAll(WORD)) {
      out.collect({ key: match[0].toLowerCase(), value: 1, timestamp: r.timestamp });
    }
  },
};
