/**
 * `npm run chaos -- --seeds N [--from S]` and `npm run soak`: seeded chaos in the sim. Each seed
 * draws a whole scenario and fault profile, runs a safety phase with faults and a liveness phase
 * without, and every invariant checker judges it. A failing seed prints its violations, the one
 * command that replays it, the scenario file and trace it wrote, and the link that opens it in the
 * playground at its first violation (chaos-sweep.ts); the exit code is 1 if any seed failed.
 * Progress goes to stderr when it is a terminal.
 */
import { nodeLsmStorage } from '../../engine/cli/wa-sqlite-node.ts';
import { describeFailingSeed, describeTally, sweepChaos } from './chaos-sweep.ts';
import { TerminalProgress } from '../../engine/cli/terminal-progress.ts';
import { chaosProgressLine } from '../../engine/cli/progress-line.ts';

function parseArgs(argv: string[]): { seeds: number; from: number } {
  const out = { seeds: 100, from: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = Number(argv[++i]);
    if ((arg !== '--seeds' && arg !== '--from') || !Number.isSafeInteger(value) || value < 0) {
      console.error(`usage: npm run chaos -- --seeds N [--from S]   (got "${arg} ${argv[i] ?? ''}")`);
      process.exit(2);
    }
    out[arg === '--seeds' ? 'seeds' : 'from'] = value;
  }
  return out;
}

const { seeds, from } = parseArgs(process.argv.slice(2));
const lsmStorage = await nodeLsmStorage();
// the same progress line as `ckpt-lab run` and `check`: on a terminal only, never in a pipe
const progress = new TerminalProgress(process.stderr);
const tally = sweepChaos(from, seeds, {
  lsmStorage,
  onSeed: (seed, t) => {
    const failing = t.failing.at(-1);
    if (failing?.seed === seed) {
      progress.clear();
      console.log(describeFailingSeed(failing));
    }
    progress.show(chaosProgressLine({ seed, done: t.seeds, of: seeds, failing: t.failing.length, checkpoints: t.checkpoints, restarts: t.restarts }));
  },
});
progress.end();
console.log(describeTally(tally));
process.exit(tally.failing.length > 0 ? 1 : 0);
