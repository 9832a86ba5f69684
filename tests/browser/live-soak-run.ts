/**
 * `npm run soak:live [-- --faults N]`: the full live soak (tests/browser/live-soak.ts), 100 random
 * faults by default, in headless Chromium. The seed comes from CHAOS_SEED, or from the clock; it
 * is printed with the command that replays it. Prints the figures the README shows and every
 * problem found; the exit code is 1 if there was one, 2 on bad usage.
 */
import { openLiveTestPage, closeLiveTestPage } from './live-test-page.ts';
import { liveSoakProblems, runLiveSoak, type LiveSoakFigures } from './live-soak.ts';

function parseFaults(argv: string[]): number {
  if (argv.length === 0) return 100;
  const faults = Number(argv[1]);
  if (argv[0] !== '--faults' || argv.length !== 2 || !Number.isSafeInteger(faults) || faults < 1) {
    console.error(`usage: npm run soak:live [-- --faults N]   (N a whole number of at least 1; got "${argv.join(' ')}")`);
    process.exit(2);
  }
  return faults;
}

function describeFigures(f: LiveSoakFigures): string {
  const kinds = (counts: Record<string, number>) => Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
  return [
    `faults by kind: ${kinds(f.injected)}; refused: ${kinds(f.refused)}; recoveries: ${kinds(f.recoveries)}`,
    `${f.restarts} restarts, ${f.completedCheckpoints} checkpoints completed, ${f.failedCheckpoints} failed; ${f.output.liveRecords} sink records (failure-free run ${f.output.simRecords}), ${f.output.duplicates} duplicates, ${f.output.missing} missing`,
    `violations: ${f.violations.length === 0 ? 'none' : f.violations.map((v) => v.invariant).join(', ')}`,
    `main-thread tasks over 50 ms: ${f.longTasks.count}, longest ${f.longTasks.longestMs} ms`,
    `JS heap after warm-up ${mb(f.heap.afterWarmUpBytes)}, at the end ${mb(f.heap.atEndBytes)} (${f.heap.growth >= 0 ? '+' : ''}${(100 * f.heap.growth).toFixed(1)}%)`,
    `left after the run: ${f.leftAfterDispose.databases.length} IndexedDB databases, ${f.leftAfterDispose.opfsFiles.length} OPFS files, ${f.workersLeft} workers; problems letting go of its storage: ${f.leftAfterDispose.problems.length}`,
    `wall time ${(f.wallMs / 1000).toFixed(0)} s`,
  ].join('\n');
}

const faults = parseFaults(process.argv.slice(2));
const seed = Number(process.env['CHAOS_SEED'] ?? Date.now() % 1_000_000);
console.log(`live soak: CHAOS_SEED=${seed}, ${faults} faults (replay: CHAOS_SEED=${seed} npm run soak:live -- --faults ${faults})`);
const session = await openLiveTestPage();
let problems: string[];
try {
  const figures = await runLiveSoak(session, { seed, faults, log: (line) => console.error(line) });
  console.log(describeFigures(figures));
  problems = liveSoakProblems(figures);
} catch (error) {
  problems = [error instanceof Error ? error.message : String(error)];
} finally {
  await closeLiveTestPage(session);
}
for (const problem of problems) console.log(`PROBLEM (CHAOS_SEED=${seed}): ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
