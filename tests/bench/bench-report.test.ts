import { describe, expect, it } from 'vitest';
import { benchReport, evaluateAims, formatNumber, renderMarkdown, replaceReadmeSection, README_END, README_START, type BenchMachine } from './bench-report.ts';
import { BENCH_AIMS, statedAims, type BenchAim } from './bench-aims.ts';
import type { BenchFigure } from './sim-throughput.ts';

const machine: BenchMachine = { cpu: 'Test CPU @ 2.0GHz', cores: 2, memory_gb: 7.8, os: 'Linux 6.1.0 x64', node: '20.19.5', chromium: '156.0.8078.114' };
const at = new Date('2026-12-02T06:40:12Z');

const atLeast: BenchAim = { what: 'sim ÷ loop', figure: 'sim_vs_bare_loop.ratio', op: '>=', target: 0.6, issue: 16 };
const atMost: BenchAim = { what: 'gzip', figure: 'bundle.initial_kb', field: 'gzip_kb', op: '<=', target: 200, issue: 16 };

describe('aims held against figures', () => {
  it('meets an at-least aim at or above the target and misses it below', () => {
    const met = (value: number) => evaluateAims([{ figure: 'sim_vs_bare_loop.ratio', value, unit: 'ratio' }], [atLeast])[0]!.met;
    expect([met(0.45), met(0.6), met(0.61)]).toEqual([false, true, true]);
  });

  it('reads an aim off the field it names, not the figure\'s value', () => {
    const figure: BenchFigure = { figure: 'bundle.initial_kb', value: 900, unit: 'kB', gzip_kb: 244 };
    expect(evaluateAims([figure], [atMost])[0]).toMatchObject({ value: 244, met: false });
    expect(evaluateAims([{ ...figure, gzip_kb: 199 }], [atMost])[0]).toMatchObject({ value: 199, met: true });
  });

  it('counts an aim whose figure is missing, has no number or failed to measure as not measured, never as met', () => {
    const results = evaluateAims(
      [
        { figure: 'sim_vs_bare_loop.ratio', value: null, unit: 'ratio', error: 'Chromium crashed' },
        { figure: 'bundle.initial_kb', value: 900, unit: 'kB' },
      ],
      [atLeast, atMost, { ...atLeast, figure: 'nowhere' }],
    );
    expect(results.map((r) => [r.value, r.met])).toEqual([[null, null], [null, null], [null, null]]);
  });

  it('holds the aims of the issues', () => {
    const aims = new Map(BENCH_AIMS.map((a) => [a.figure + (a.field ? `:${a.field}` : ''), `${a.op} ${a.target}`]));
    expect(aims.get('sim_vs_bare_loop.ratio')).toBe('>= 0.6');
    expect(aims.get('sim_checkpoints_vs_none.ratio')).toBe('>= 0.9');
    expect(aims.get('live_vs_raw_channel.ratio')).toBe('>= 0.7');
    expect(aims.get('live_checkpoints_vs_none.ratio')).toBe('>= 0.95');
    expect(aims.get('startup.long_tasks')).toBe('<= 0');
    expect(aims.get('bundle.initial_kb:gzip_kb')).toBe('<= 200');
    expect(aims.get('startup.first_checkpoint_ms')).toBe('<= 1000');
    expect(aims.get('live_restore_100mb.local_vs_remote.ratio')).toBe('<= 0.1');
    expect(aims.get('live_restore_10mb.remote_ms:kill_to_running_beyond_restore_ms')).toBe('<= 1000');
    expect(aims.get('restore_half_local_vs_remote.remote_bytes_ratio')).toBe('<= 0.55');
  });

  it('adds the aims benches state on figures no issue aim covers, and skips informational ones', () => {
    const figures: BenchFigure[] = [
      { figure: 'storage_vs_raw_idb.write_ratio', value: 0.8, unit: 'ratio', aim: '>= 0.7' },
      { figure: 'long_tasks.custom', value: 2, unit: 'tasks > 50 ms', aim: 0 },
      { figure: 'lsm_vs_raw.puts', value: 0.3, unit: 'ratio', aim: 'informational' },
      { figure: 'sim_vs_bare_loop.ratio', value: 0.5, unit: 'ratio', aim: '>= 0.1' },
    ];
    expect(statedAims(figures, [atLeast]).map((a) => [a.figure, a.op, a.target])).toEqual([
      ['storage_vs_raw_idb.write_ratio', '>=', 0.7],
      ['long_tasks.custom', '<=', 0],
    ]);
    const report = benchReport(figures, machine, at, 'npm run bench', [atLeast]);
    expect(report.aims.map((a) => [a.figure, a.met])).toEqual([
      ['sim_vs_bare_loop.ratio', false],
      ['storage_vs_raw_idb.write_ratio', true],
      ['long_tasks.custom', false],
    ]);
  });
});

describe('the Markdown report', () => {
  const figures: BenchFigure[] = [
    { figure: 'sim.records_per_s', value: 1234567, unit: 'records/s', repetitions: 5, pipeline: 'source→keyBy count→sink, p=4' },
    { figure: 'sim_vs_bare_loop.ratio', value: 0.452, unit: 'ratio', repetitions: 5 },
    { figure: 'restore_100k_keys.local_ms', value: 12.5, unit: 'ms', deterministic: true, note: 'virtual | time' },
    { figure: 'live_restore_100mb', value: null, unit: 'ms', error: 'the job ended FAILED' },
  ];
  const markdown = renderMarkdown(benchReport(figures, machine, at, 'npm run bench -- --only sim', [atLeast, atMost]));

  it('says how loaded the machine was when the bench started, when it knows', () => {
    const loaded = renderMarkdown(benchReport(figures, { ...machine, load_average: 3.2 }, at, 'npm run bench', []));
    expect(loaded).toContain('Chromium 156.0.8078.114; load average 3.2 as it started.');
  });

  it('names the machine, the date and the command it was measured with', () => {
    expect(markdown).toContain('Measured 2026-12-02 06:40 UTC with `npm run bench -- --only sim` on Test CPU @ 2.0GHz (2 cores), 7.8 GB memory, Linux 6.1.0 x64, Node 20.19.5, Chromium 156.0.8078.114.');
  });

  it('has one row per aim, with this run\'s number and whether it was met', () => {
    expect(markdown).toContain('| Aim | Figure | This run | Aim | Met | From |\n|---|---|---|---|---|---|');
    expect(markdown).toContain('| sim ÷ loop | `sim_vs_bare_loop.ratio` | 0.452 | ≥ 0.6 | **no** | #16 |');
    expect(markdown).toContain('| gzip | `bundle.initial_kb` (gzip_kb) | not measured | ≤ 200 | — | #16 |');
  });

  it('has one row per figure with its median, unit, runs and note, a missing one with why', () => {
    expect(markdown).toContain('| `sim.records_per_s` | 1,234,567 | records/s | 5 | source→keyBy count→sink, p=4 |');
    expect(markdown).toContain('| `restore_100k_keys.local_ms` | 12.5 | ms | 1 (deterministic) | virtual \\| time |');
    expect(markdown).toContain('| `live_restore_100mb` | not measured: the job ended FAILED | ms | — |  |');
  });

  it('formats large numbers with thousands separators and small ones as measured', () => {
    expect([formatNumber(9999), formatNumber(10_000), formatNumber(0.083), formatNumber(2_500_000.4)]).toEqual(['9999', '10,000', '0.083', '2,500,000']);
  });
});

describe('the README bench section', () => {
  const readme = `# Title\n\nintro\n\n${README_START}\nold table\n${README_END}\n\n## Next\n`;

  it('replaces what is between the markers and keeps the rest', () => {
    const result = replaceReadmeSection(readme, '| new |\n');
    expect(result).toEqual({ ok: true, text: `# Title\n\nintro\n\n${README_START}\n| new |\n${README_END}\n\n## Next\n` });
  });

  it('gives the same README when replaced twice with the same table', () => {
    const once = replaceReadmeSection(readme, 'table');
    const twice = once.ok ? replaceReadmeSection(once.text, 'table') : once;
    expect(twice).toEqual(once);
  });

  it('says what to add when the markers are missing, misordered or repeated', () => {
    expect(replaceReadmeSection('# no markers\n', 'x')).toEqual({ ok: false, problem: `README.md has no bench section: add the lines ${README_START} and ${README_END} where the table goes` });
    expect(replaceReadmeSection(`${README_END}\n${README_START}\n`, 'x')).toMatchObject({ ok: false, problem: expect.stringContaining('comes before') });
    expect(replaceReadmeSection(`${readme}${README_START}\n${README_END}\n`, 'x')).toMatchObject({ ok: false, problem: expect.stringContaining('more than one') });
  });
});
