/**
 * Where the main thread's long tasks go, from a Chromium trace (CDP Tracing): for every renderer
 * main-thread task over 50 ms, the time of its style recalcs, layouts, paints, script and GC.
 * Opt-in for `npm run bench -- --only long-tasks` with LONG_TASKS_TRACE=1, because tracing
 * slows the run down; it explains the long-task figures, it is not one of them.
 */
import type { CDPSession, Page } from 'playwright-core';
import { readTrace, type TraceEvent } from './chromium-trace.ts';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'fonts'].join(',');
const LONG_TASK_MS = 50;
/** Trace event names that say what the main thread was doing (the rest are wrappers). */
const KINDS: Record<string, string> = {
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'pre-paint',
  Paint: 'paint',
  Layerize: 'layerize',
  UpdateLayer: 'layerize',
  Commit: 'commit',
  FunctionCall: 'script',
  EvaluateScript: 'script',
  // a module's top-level code, and what runs after its top-level await (the app's mount) in the
  // microtask checkpoint that follows: script outside any FunctionCall or EvaluateScript
  'v8.evaluateModule': 'script',
  RunMicrotasks: 'script',
  EventDispatch: 'script',
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  ParseAuthorStyleSheet: 'parse-css',
  // a font's first use: a synchronous lookup in the browser process (fontconfig), inside a style
  // recalc or a layout, mostly waiting
  'FontCache::GetFontPlatformData': 'font',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  'v8.callFunction': 'script',
  MajorGC: 'gc',
  MinorGC: 'gc',
  'BlinkGC.AtomicPhase': 'gc',
  HitTest: 'hit-test',
  ParseHTML: 'parse',
};

export interface LongTaskBreakdown {
  long_tasks: number;
  long_task_ms: number;
  /**
   * ms inside long tasks by kind; script includes the style/layout it forced, style and layout
   * the font lookups they waited on (font); `other` is the time
   * no event of a known kind covers (the trace's categories record nothing finer there)
   */
  by_kind_ms: Record<string, number>;
  /** the events that make up `other`, by their own ms (not inside a child event) */
  other_top: Array<[string, number]>;
  /** layouts forced from script (layout thrash) inside long tasks */
  forced_layouts: number;
  /** the biggest style recalc's element count inside long tasks */
  max_style_elements: number;
  /** the top script entry points by ms inside long tasks */
  top_script: Array<[string, number]>;
  /** ms by kind over every main-thread task of the run, long or not: the page's whole load */
  all_by_kind_ms: Record<string, number>;
  /**
   * the five longest tasks: ms, the main thread's CPU ms in them (far below ms: it waited, on a
   * synchronous call to the browser process such as a font lookup, or for a core on a loaded
   * machine), and their ms by kind
   */
  longest: Array<{ ms: number; cpu_ms?: number; by_kind_ms: Record<string, number> }>;
  /**
   * The main thread's synchronous font calls to the browser process over the whole trace, long
   * tasks or not (Chromium on Linux): counts that a loaded machine does not change, where each
   * call's wait grows with the load. `families`: each family a font stack tried, in order of
   * first lookup (one lookup per family and style); `strikes`: a font's first use at a size and
   * style; `fallbacks`: a character no family of its stack has.
   */
  font_lookups: { family_lookups: number; families: string[]; strikes: number; fallbacks: number };
}

/** Trace events of the font calls `font_lookups` counts (the renderer's side of each IPC). */
const FONT_FAMILY_LOOKUP = 'FontDataManager::onMatchFamilyStyle';
const FONT_STRIKE_LOOKUP = 'WebSandboxSupportLinux::GetWebFontRenderStyleForStrike';
const FONT_FALLBACK_LOOKUP = 'WebSandboxSupportLinux::GetFallbackFontForCharacter';

export async function startTrace(page: Page): Promise<CDPSession> {
  const session = await page.context().newCDPSession(page);
  await session.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReturnAsStream' });
  return session;
}

export async function stopTrace(session: CDPSession): Promise<LongTaskBreakdown> {
  return longTaskBreakdown(await readTrace(session));
}

/** Where the renderer main thread's long tasks in `events` (a Chromium trace) went. */
export function longTaskBreakdown(events: TraceEvent[]): LongTaskBreakdown {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((t) => t.pid === e.pid && t.tid === e.tid && t.name === 'FunctionCall'));
  const result: LongTaskBreakdown = { long_tasks: 0, long_task_ms: 0, by_kind_ms: {}, other_top: [], forced_layouts: 0, max_style_elements: 0, top_script: [], longest: [], all_by_kind_ms: {}, font_lookups: { family_lookups: 0, families: [], strikes: 0, fallbacks: 0 } };
  if (!main) return result;
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  result.font_lookups = fontLookups(onMain);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur! > LONG_TASK_MS * 1000);
  const scripts = new Map<string, number>();
  const other = new Map<string, number>();
  for (const task of tasks) {
    result.long_tasks++;
    result.long_task_ms += task.dur! / 1000;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
    const own: Record<string, number> = {};
    result.longest.push({ ms: Math.round(task.dur! / 1000), ...(task.tdur === undefined ? {} : { cpu_ms: Math.round(task.tdur / 1000) }), by_kind_ms: own });
    for (const event of outermostByKind(inside)) {
      const kind = KINDS[event.name]!;
      result.by_kind_ms[kind] = (result.by_kind_ms[kind] ?? 0) + event.dur! / 1000;
      own[kind] = (own[kind] ?? 0) + event.dur! / 1000;
      if (kind === 'script') {
        const data = event.args?.data;
        const where = `${event.name} ${data?.functionName ?? ''} ${(data?.url ?? '').replace(/^.*\//, '')}`.trim();
        scripts.set(where, (scripts.get(where) ?? 0) + event.dur! / 1000);
      }
    }
    for (const [name, us] of unattributed(task, inside)) {
      other.set(name, (other.get(name) ?? 0) + us / 1000);
      result.by_kind_ms.other = (result.by_kind_ms.other ?? 0) + us / 1000;
      own.other = (own.other ?? 0) + us / 1000;
    }
    for (const kind of Object.keys(own)) own[kind] = Math.round(own[kind]!);
    for (const event of inside) {
      if (event.name === 'Layout' && event.args?.beginData?.stackTrace) result.forced_layouts++;
      if (event.name === 'UpdateLayoutTree') result.max_style_elements = Math.max(result.max_style_elements, event.args?.data?.elementCount ?? 0);
    }
  }
  for (const event of outermostByKind(onMain)) {
    const kind = KINDS[event.name]!;
    result.all_by_kind_ms[kind] = (result.all_by_kind_ms[kind] ?? 0) + event.dur! / 1000;
  }
  for (const kind of Object.keys(result.all_by_kind_ms)) result.all_by_kind_ms[kind] = Math.round(result.all_by_kind_ms[kind]!);
  for (const kind of Object.keys(result.by_kind_ms)) result.by_kind_ms[kind] = Math.round(result.by_kind_ms[kind]!);
  result.long_task_ms = Math.round(result.long_task_ms);
  result.longest = result.longest.sort((a, b) => b.ms - a.ms).slice(0, 5);
  result.top_script = topEight(scripts);
  result.other_top = topEight(other);
  return result;
}

/** The synchronous font calls among the main thread's events (sorted by start). */
function fontLookups(onMain: TraceEvent[]): LongTaskBreakdown['font_lookups'] {
  const lookups = onMain.filter((e) => e.name === FONT_FAMILY_LOOKUP);
  return {
    family_lookups: lookups.length,
    families: [...new Set(lookups.map((e) => e.args?.family_name ?? '?'))],
    strikes: onMain.filter((e) => e.name === FONT_STRIKE_LOOKUP).length,
    fallbacks: onMain.filter((e) => e.name === FONT_FALLBACK_LOOKUP).length,
  };
}

/** The eight largest entries, in whole ms. */
function topEight(ms: ReadonlyMap<string, number>): Array<[string, number]> {
  return [...ms].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => [k, Math.round(v)]);
}

/**
 * The task's time that no event of a known kind covers, by the innermost event it is in (its
 * self time there; the task itself where nothing finer was recorded), in µs. `inside` is sorted
 * by start, events of one thread nest.
 */
function unattributed(task: TraceEvent, inside: TraceEvent[]): Map<string, number> {
  const byName = new Map<string, number>();
  const stack: Array<{ event: TraceEvent; known: boolean; childUs: number }> = [{ event: task, known: false, childUs: 0 }];
  const close = (until: number) => {
    while (stack.length > 1 && stack.at(-1)!.event.ts + stack.at(-1)!.event.dur! <= until) settle(stack.pop()!);
  };
  const settle = (frame: { event: TraceEvent; known: boolean; childUs: number }) => {
    if (frame.known) return;
    const self = frame.event.dur! - frame.childUs;
    if (self > 0) byName.set(frame.event.name, (byName.get(frame.event.name) ?? 0) + self);
  };
  for (const event of inside) {
    close(event.ts);
    const parent = stack.at(-1)!;
    parent.childUs += event.dur!;
    stack.push({ event, known: parent.known || KINDS[event.name] !== undefined, childUs: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  settle(stack[0]!);
  return byName;
}

/** Known events not nested in another known event of the same kind (so nothing counts twice within a kind). */
function outermostByKind(sorted: TraceEvent[]): TraceEvent[] {
  const open: Record<string, number> = {};
  const out: TraceEvent[] = [];
  for (const event of sorted) {
    const kind = KINDS[event.name];
    if (!kind) continue;
    if ((open[kind] ?? -1) > event.ts) continue;
    open[kind] = event.ts + event.dur!;
    out.push(event);
  }
  return out;
}
