/**
 * The long-task breakdown of a Chromium trace (long-task-trace.ts), on small hand-made traces:
 * every millisecond of a long task is in a kind, the time no known event covers included.
 */
import { describe, expect, it } from 'vitest';
import { longTaskBreakdown } from './long-task-trace.ts';
import type { TraceEvent } from './chromium-trace.ts';

const PID = 1;
const TID = 2;
/** An event on the renderer's main thread: start and duration in ms. */
function at(name: string, startMs: number, durMs: number, data?: NonNullable<TraceEvent['args']>['data']): TraceEvent {
  return { name, ph: 'X', ts: startMs * 1000, dur: durMs * 1000, pid: PID, tid: TID, ...(data ? { args: { data } } : {}) };
}
/** The same, with the thread's CPU ms in it. */
function withCpu(event: TraceEvent, cpuMs: number): TraceEvent {
  return { ...event, tdur: cpuMs * 1000 };
}
const MAIN_THREAD: TraceEvent[] = [
  { name: 'thread_name', ph: 'M', ts: 0, pid: PID, tid: TID, args: { name: 'CrRendererMain' } },
  at('FunctionCall', 0, 1),
];

describe('longTaskBreakdown', () => {
  it("counts the script after a module's top-level await (RunMicrotasks) and its evaluation as script", () => {
    const trace = [...MAIN_THREAD, at('RunTask', 10, 100), at('v8.evaluateModule', 10, 20), at('RunMicrotasks', 30, 70), at('FunctionCall', 40, 10, { functionName: 'mount', url: 'http://x/main.js' })];
    const breakdown = longTaskBreakdown(trace);
    expect(breakdown.long_tasks).toBe(1);
    expect(breakdown.by_kind_ms).toEqual({ script: 90, other: 10 });
  });

  it('names what no known event covers by the innermost event it is in', () => {
    const trace = [...MAIN_THREAD, at('RunTask', 10, 100), at('Document::FinishedParsing', 10, 60), at('Layout', 20, 40), at('ResponseBodyLoader::OnStateChange', 70, 30)];
    const breakdown = longTaskBreakdown(trace);
    expect(breakdown.by_kind_ms).toEqual({ layout: 40, other: 60 });
    expect(breakdown.other_top).toEqual([
      ['ResponseBodyLoader::OnStateChange', 30],
      ['Document::FinishedParsing', 20],
      ['RunTask', 10],
    ]);
    expect(breakdown.longest).toEqual([{ ms: 100, by_kind_ms: { layout: 40, other: 60 } }]);
  });

  it("gives each of the longest tasks the main thread's CPU time in it, apart from its length", () => {
    const trace = [...MAIN_THREAD, withCpu(at('RunTask', 10, 80), 20), withCpu(at('Layout', 10, 80), 20)];
    expect(longTaskBreakdown(trace).longest).toEqual([{ ms: 80, cpu_ms: 20, by_kind_ms: { layout: 80 } }]);
  });

  it("counts a font's first lookup as font time, inside the layout that waited on it", () => {
    const trace = [...MAIN_THREAD, at('RunTask', 10, 80), at('Layout', 10, 80), at('FontCache::GetFontPlatformData', 20, 30)];
    expect(longTaskBreakdown(trace).by_kind_ms).toEqual({ layout: 80, font: 30 });
  });

  it("counts the main thread's font lookups in the browser process, long tasks or not: families tried, strikes, fallbacks", () => {
    const lookup = (family: string, startMs: number): TraceEvent => ({ ...at('FontDataManager::onMatchFamilyStyle', startMs, 1), args: { family_name: family } });
    const trace = [
      ...MAIN_THREAD,
      at('RunTask', 10, 20),
      lookup('DejaVu Sans', 11),
      at('WebSandboxSupportLinux::GetWebFontRenderStyleForStrike', 12, 1),
      lookup('Menlo', 13),
      lookup('DejaVu Sans', 14),
      at('WebSandboxSupportLinux::GetWebFontRenderStyleForStrike', 15, 1),
      at('WebSandboxSupportLinux::GetFallbackFontForCharacter', 16, 1),
      // another process's lookup (the browser's own) is not the page's
      { ...lookup('Arial', 17), pid: PID + 1 },
    ];
    expect(longTaskBreakdown(trace).font_lookups).toEqual({ family_lookups: 3, families: ['DejaVu Sans', 'Menlo'], strikes: 2, fallbacks: 1 });
  });

  it('leaves tasks of 50 ms and less out', () => {
    const trace = [...MAIN_THREAD, at('RunTask', 10, 50), at('RunMicrotasks', 10, 50)];
    expect(longTaskBreakdown(trace)).toMatchObject({ long_tasks: 0, by_kind_ms: {}, other_top: [] });
  });
});
