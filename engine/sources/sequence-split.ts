import type { StreamRecord } from '../protocol.ts';
import { eventTimeOf, type SourceSplit } from './source-split.ts';

/** Record i has key `key-(i mod keys)`, value 1 and an event time derived from i and the rate. */
export class SequenceSplit implements SourceSplit {
  readonly #keyNames: string[];

  constructor(
    keys: number,
    readonly ratePerSecond: number,
    readonly count: number,
  ) {
    this.#keyNames = Array.from({ length: keys }, (_, i) => `key-${i}`);
  }

  recordAt(offset: number): StreamRecord {
    return { key: this.#keyNames[offset % this.#keyNames.length]!, value: 1, timestamp: eventTimeOf(this.ratePerSecond, offset) };
  }
}
