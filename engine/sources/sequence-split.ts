import type { StreamRecord } from '../protocol.ts';
import { eventTimeOf, type SourceSplit } from './source-split.ts';

/** Record i has key `key-(i mod keys)`, value 1 and an event time derived from i and the rate. */
export class SequenceSplit implements SourceSplit {
  /** Each key's name, made the first time a record has it: a job of many keys starts at once. */
  readonly #keyNames: Array<string | undefined>;

  constructor(
    keys: number,
    readonly ratePerSecond: number,
    readonly count: number,
  ) {
    this.#keyNames = new Array<string | undefined>(keys);
  }

  recordAt(offset: number): StreamRecord {
    const index = offset % this.#keyNames.length;
    const key = (this.#keyNames[index] ??= `key-${index}`);
    return { key, value: 1, timestamp: eventTimeOf(this.ratePerSecond, offset) };
  }
}
