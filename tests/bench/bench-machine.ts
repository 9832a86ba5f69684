/** The machine a bench ran on, for the report: figures mean little without it. Read as the bench starts. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { findChromium } from '../browser/chromium-path.ts';
import type { BenchMachine } from './bench-report.ts';

export function benchMachine(): BenchMachine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown CPU',
    cores: os.availableParallelism?.() ?? cpus.length,
    memory_gb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.versions.node,
    chromium: chromiumVersion(),
    load_average: Math.round(os.loadavg()[0]! * 10) / 10,
  };
}

/** `chromium --version` prints and exits without opening a browser; the version the browser benches launch. */
function chromiumVersion(): string | null {
  try {
    const out = execFileSync(findChromium(), ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
    return /(\d+\.\d+\.\d+\.\d+)/.exec(out)?.[1] ?? (out.trim() || null);
  } catch {
    return null;
  }
}
