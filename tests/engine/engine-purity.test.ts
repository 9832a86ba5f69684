import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles, withoutComments } from '../support/source-files.ts';

/**
 * engine/ is the platform-free core: time and randomness come from the driver, I/O from adapters.
 * The DOM, Workers and Node's built-ins are kept out by the compiler (engine/tsconfig.json has
 * neither DOM nor Node types); these patterns catch what the ES library itself allows.
 */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\bDate\.now\s*\(/, 'Date.now()'],
  [/\bnew Date\s*\(/, 'new Date()'],
  [/\bperformance\.now\s*\(/, 'performance.now()'],
  [/\bMath\.random\s*\(/, 'Math.random()'],
  [/\bset(Timeout|Interval|Immediate)\s*\(/, 'timers'],
  [/\brequestAnimationFrame\s*\(/, 'requestAnimationFrame'],
  [/from ['"]node:/, 'Node built-ins'],
];

describe('the engine', () => {
  it('uses no clock, random source, timer, DOM, Worker or Node built-in of its own (engine/cli excepted)', () => {
    const offences: string[] = [];
    for (const file of sourceFiles('engine', [join('engine', 'cli')])) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const [pattern, what] of FORBIDDEN) if (pattern.test(code)) offences.push(`${file}: ${what}`);
    }
    expect(offences).toEqual([]);
  });
});
