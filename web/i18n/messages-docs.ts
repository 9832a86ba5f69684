/**
 * The docs page (/docs/, web/docs/): prose around three embedded demos, the model for authors
 * who embed the playground (the docs page adds it to the English it renders, docs-main.ts; the Chinese is in zh-CN/, loaded with that locale). Code samples on the page
 * are code, the same in every language; everything a reader reads around them is here.
 */

export const docsEn = {
  'docs.title': 'Embedding the playground in your docs',
  'docs.lead':
    'The playground runs a small Flink-style job in the browser, so a page that explains checkpoints can show them happening. This page embeds it three times, in the three ways it can be embedded: an iframe, the <checkpoint-playground> element, and an iframe that the page’s own script drives over postMessage. Under each demo is the code that runs it; copy it, point the addresses at where the playground is served, and keep the prose around it yours.',
  'docs.openPlayground': 'Open the playground',
  'docs.codeLabel': 'The code of this demo',
  'docs.iframe.title': '1. An iframe: a lesson’s scenario',
  'docs.iframe.p1':
    'The simplest embed is an iframe of embed.html. Its address says what to show: view=dashboard shows the run controls, the timeline and the checkpoint dashboard; scenario= names a scenario file, here the one of lesson 1; autostart=0 waits for the reader to press Run; lang=en or lang=zh-CN picks its language (without it, the browser’s).',
  'docs.iframe.p2':
    'Press Run and watch the timeline: as the state grows, a checkpoint takes longer than the 1 s interval, so each one starts the moment the previous one completes, with no gap between them. The job is always checkpointing. The lesson goes on to set execution.checkpointing.min-pause and shows the gap it leaves.',
  'docs.iframe.openLesson': 'Open this lesson in the playground',
  'docs.element.title': '2. The element, with the scenario inline',
  'docs.element.p1':
    'Load the element’s script once, then write <checkpoint-playground> where the demo goes. The scenario can sit inside it, in a <script type="text/yaml">, so the page carries the whole demo: here clicks counted per user under EXACTLY_ONCE, with a checkpoint every 500 ms into a two-phase-commit sink. The element renders the iframe for you, and element.playground is the Playground API.',
  'docs.element.p2':
    'Its attributes: scenario (a URL, a bundled file name, or the scenario’s text), view (graph, dashboard or all), autostart, lang, height and allowed-origins. Set another lang and the running playground switches to that language in place, its run going on. The page’s own origin may always call it.',
  'docs.drive.title': '3. Driven by the page’s own script, over postMessage',
  'docs.drive.p1':
    'The page can use the playground as a reader would: load a scenario, run it, kill a TaskManager, read the statistics. Each call is a message posted to the iframe’s window and answered with a result. The playground answers only the page that embeds it, and only on an allowed origin.',
  'docs.drive.p2':
    'The buttons run the script below on lesson 8’s scenario, task-local recovery: run to 5 s, then kill TaskManager tm-0. The job restarts, and both Count subtasks return to their slots and restore from the local copies on their hosts instead of from remote checkpoint storage; the Source and Sink keep no keyed state and read their small state from remote.',
  'docs.drive.p3':
    'Switch this page’s language and all three demos follow it without reloading: the page calls setLanguage over postMessage on each iframe and sets the element’s lang. A scenario whose file gives its name and description in both languages, as these do, shows them in the new one.',
  'docs.drive.run': 'Run to 5 s',
  'docs.drive.kill': 'Kill tm-0, then run 3 s more',
  'docs.drive.waiting': 'Waiting for the playground to listen…',
  'docs.drive.ready': 'The playground listens: press a button.',
  'docs.drive.summary':
    'Job time {time} · {completed, plural, one {# checkpoint completed} other {# checkpoints completed}} · {restores, plural, =0 {no restore yet} one {# restore} other {# restores}}',
  'docs.drive.lastRestore':
    'The last restore read {local, plural, one {# subtask} other {# subtasks}} from local copies and {remote, plural, one {# subtask} other {# subtasks}} from remote storage.',
  'docs.drive.failed': 'The playground answered: {message}',
  'docs.sites.title': 'On another site',
  'docs.sites.p1':
    'A docs site on another origin lists that origin in the iframe’s allowed-origins parameter (comma-separated, * for any); the playground’s Share / embed dialog writes it into its iframe snippet. A call from any other page, or from a window that is not the iframe’s parent, is refused and does nothing.',
  'docs.sites.p2':
    'Browsers may deny storage to an iframe of another site, as they block third-party cookies. The embedded playground then says so in one sentence, does not offer live workers, and keeps the simulator’s checkpoints in memory only.',
  'docs.sites.p3':
    'Docs CI can check that a demo still shows its point: give the scenario expectations and run npx ckpt-lab check scenario.yaml, which exits non-zero with a report per failed expectation.',
} as const;
