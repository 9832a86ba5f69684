import type { StreamRecord } from '../protocol.ts';
import { eventTimeOf, type SourceSplit } from './source-split.ts';

/** The given lines, cycled; record i is line (i mod n) as its key, value 1. */
export class LinesSplit implements SourceSplit {
  constructor(
    private readonly lines: readonly string[],
    readonly ratePerSecond: number,
    readonly count: number,
  ) {}

  recordAt(offset: number): StreamRecord {
    return { key: this.lines[offset % this.lines.length]!, value: 1, timestamp: eventTimeOf(this.ratePerSecond, offset) };
  }
}
