/**
 * The HTML of the docs page's demos, written once: the page shows each snippet as its code
 * sample and renders the very same text as the demo, so the code an author copies is the code
 * that ran. Addresses are absolute, built from where this page is served.
 */

/**
 * The scenario inline in the element demo: clicks counted per user, exactly once, a checkpoint
 * every 500 ms. Its name and description in both languages, so the demo reads in the page's.
 */
export const INLINE_SCENARIO_YAML = `version: 1
name:
  en: Clicks counted exactly once
  zh-CN: 按用户统计点击，精确一次
description:
  en: Clicks counted per user under EXACTLY_ONCE, with a checkpoint every 500 ms, into a two-phase-commit sink.
  zh-CN: 在 EXACTLY_ONCE 模式下按用户统计点击次数，每 500 ms 做一次 checkpoint，结果写入两阶段提交的 Sink。
seed: 7
job:
  vertices:
    - { id: clicks, name: Clicks, type: source, source: { kind: random, keys: 50, rate_per_s: 2000 } }
    - { id: counts, name: Count per user, type: keyed-aggregate, aggregate: count }
    - { id: sink, name: Sink, type: sink, sink: two-phase-commit }
  edges:
    - { from: clicks, to: counts, partitioning: hash }
    - { from: counts, to: sink, partitioning: forward }
config:
  parallelism.default: 2
  execution.checkpointing.interval: 500 ms
  execution.checkpointing.mode: EXACTLY_ONCE
cluster: { hosts: 1, task_managers_per_host: 2, slots_per_task_manager: 2 }
run: { until: 30 s }`;

/** The lesson each iframe demo shows, by id (its scenario lives in public/lessons/). */
export const IFRAME_LESSON = 'interval-and-min-pause';
export const DRIVEN_LESSON = 'task-local-recovery';

/** `&` as HTML wants it inside an attribute. */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

function embedAddress(page: URL, params: Record<string, string>): string {
  const url = new URL('../embed.html', page);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  // The scenario path reads better unescaped; URLSearchParams writes `/` as %2F.
  return url.href.replaceAll('%2F', '/');
}

export interface DemoSnippets {
  /** the addresses the iframes of the first and third demo load (the page builds them from these, not from the HTML text) */
  iframeSrc: string;
  drivenSrc: string;
  lang: string;
  iframe: string;
  /** the element's script tag, shown in the code only: the page loads the element itself */
  elementScript: string;
  element: string;
  drivenFrame: string;
  /** the main playground with the lesson open */
  lessonLink: string;
}

/**
 * `lang`: the language the demos show (the page's); `elementScriptPath`: where the element's
 * module is, relative to this page (the dev server serves its source, a build its bundle under a
 * stable name); `title`: the iframes' accessible name, in the page's language.
 */
export function demoSnippets(page: URL, lang: string, elementScriptPath: string, title: string): DemoSnippets {
  const iframeSrc = embedAddress(page, { view: 'dashboard', scenario: `/lessons/${IFRAME_LESSON}.yaml`, autostart: '0', lang });
  const drivenSrc = embedAddress(page, { view: 'graph', scenario: `/lessons/${DRIVEN_LESSON}.yaml`, autostart: '0', lang });
  const indented = INLINE_SCENARIO_YAML.split('\n').map((line) => `    ${line}`).join('\n');
  const lessonLink = new URL('../', page);
  lessonLink.searchParams.set('lesson', IFRAME_LESSON);
  return {
    iframeSrc,
    drivenSrc,
    lang,
    iframe: `<iframe src="${attribute(iframeSrc)}"
        title="${attribute(title)}" style="width:100%;height:760px;border:0"></iframe>`,
    elementScript: `<script type="module" src="${attribute(new URL(elementScriptPath, page).href)}"></script>`,
    element: `<checkpoint-playground view="graph" autostart="false" lang="${lang}" height="560px">
  <script type="text/yaml">
${indented}
  </script>
</checkpoint-playground>`,
    drivenFrame: `<iframe id="driven" src="${attribute(drivenSrc)}"
        title="${attribute(title)}" style="width:100%;height:560px;border:0"></iframe>`,
    lessonLink: lessonLink.href,
  };
}

/**
 * The second demo as elements, built from the same values as its snippet: the page never parses
 * HTML text (the scenario goes in as the script's text, never as markup).
 */
export function demoElement(lang: string): HTMLElement {
  const element = document.createElement('checkpoint-playground');
  for (const [name, value] of [['view', 'graph'], ['autostart', 'false'], ['lang', lang], ['height', '560px']] as const) element.setAttribute(name, value);
  const script = document.createElement('script');
  script.type = 'text/yaml';
  script.textContent = `\n${INLINE_SCENARIO_YAML}\n`;
  element.append(script);
  return element;
}

/** What the buttons of the third demo run, as the page shows it beside drive-by-postmessage.ts. */
export const DRIVING_SCRIPT = `const playground = connectPlayground(document.getElementById('driven'));

// "Run to 5 s"
await playground.call('runUntil', '5 s');
const stats = await playground.call('stats');   // the CLI's --json document

// "Kill tm-0, then run 3 s more"
await playground.call('killTaskManager', 'tm-0');
const { time } = await playground.call('status');
await playground.call('runUntil', time + 3000);
const { restores } = await playground.call('stats');  // per subtask: local or remote

// This page's language switch: the playground follows, and its run goes on
await playground.call('setLanguage', 'zh-CN');`;
