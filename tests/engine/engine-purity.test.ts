import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === join('engine', 'cli') ? [] : sourceFiles(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

describe('the engine', () => {
  it('uses no clock, random source, timer, DOM, Worker or Node built-in of its own (engine/cli excepted)', () => {
    const offences: string[] = [];
    for (const file of sourceFiles('engine')) {
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      for (const [pattern, what] of FORBIDDEN) if (pattern.test(code)) offences.push(`${file}: ${what}`);
    }
    expect(offences).toEqual([]);
  });
});
