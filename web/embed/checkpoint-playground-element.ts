/**
 * `<checkpoint-playground>`: a playground embedded in any page (DESIGN.md contract 4).
 *
 *   <script type="module" src="https://playground.example.org/embed/checkpoint-playground-element.ts"></script>
 *   <checkpoint-playground scenario="/scenarios/word-count.yaml" view="graph"></checkpoint-playground>
 *
 * Attributes:
 * - `scenario`: a URL (resolved against the page; the playground fetches it, so another origin
 *   must allow CORS), a bundled scenario's file name, or the scenario's YAML or JSON text itself.
 *   Without it, the text of a child `<script type="text/yaml">` (or application/json) is used,
 *   its indentation removed; with `data-escaped` (the share dialog writes it), `&lt;` and `&amp;`
 *   in it stand for `<` and `&` (inline-scenario.ts).
 * - `view`: `graph`, `dashboard` or `all` (default).
 * - `autostart`: `false` to load paused. `lang`: `en` or `zh-CN` (a change switches the running
 *   playground's language in place). `height`: a CSS length.
 * - `allowed-origins`: further origins that may call the playground (this page's is always added).
 *
 * The element shows the embed page in an iframe, and `element.playground` is its Playground API
 * over postMessage: every call returns a Promise, `on(type, callback)` subscribes to events,
 * `ready` resolves once the playground listens.
 */
import { EmbedClient, type RemotePlayground } from './embed-client.ts';
import type { EmbedView } from './embed-protocol.ts';
import { ESCAPED_ATTRIBUTE, inlineScenarioText } from './inline-scenario.ts';
import { encodeScenario } from './share-link.ts';

const DEFAULT_HEIGHT: Record<EmbedView, string> = { graph: '560px', dashboard: '760px', all: '900px' };
const VIEWS: readonly EmbedView[] = ['graph', 'dashboard', 'all'];

/**
 * Where embed.html is: beside this module's directory (`/embed/…` → `/embed.html`; a build's
 * `/checkpoint-playground-element.js` or `/assets/…` → `/embed.html`). The path is a variable on
 * purpose: Vite rewrites `new URL('literal', import.meta.url)` into a hashed copy of the file as
 * an asset, and a copy of embed.html's source is no playground.
 */
const EMBED_PAGE_PATH = '../embed.html';
const EMBED_PAGE = new URL(EMBED_PAGE_PATH, import.meta.url);

function looksInline(value: string): boolean {
  const text = value.trim();
  return text.includes('\n') || text.startsWith('{') || /^version\s*:/.test(text);
}

export class CheckpointPlaygroundElement extends HTMLElement {
  static observedAttributes = ['scenario', 'view', 'autostart', 'lang', 'height', 'allowed-origins'];

  #frame: HTMLIFrameElement | null = null;
  #client: EmbedClient | null = null;

  /** The embedded playground's API (see embed-client.ts). */
  get playground(): RemotePlayground {
    if (!this.#client) this.#render();
    return this.#client!.api;
  }

  connectedCallback(): void {
    if (!this.style.display) this.style.display = 'block';
    if (!this.#frame) this.#render();
  }

  disconnectedCallback(): void {
    this.#client?.dispose();
    this.#client = null;
    this.#frame?.remove();
    this.#frame = null;
  }

  attributeChangedCallback(name: string, previous: string | null, next: string | null): void {
    if (previous === next || !this.#frame) return;
    if (name === 'height') this.#frame.style.height = this.#height();
    else if (name === 'lang' && next) this.#switchLanguage(next);
    else this.#render();
  }

  /**
   * A new `lang` switches the running playground in place (setLanguage over postMessage, once it
   * listens), so its run goes on; a playground too old to know setLanguage is reloaded in it.
   */
  #switchLanguage(lang: string): void {
    const client = this.#client;
    if (!client) return;
    void client.ready
      .then(() => client.call('setLanguage', lang))
      .catch(() => {
        if (this.#client === client && this.getAttribute('lang') === lang) this.#render();
      });
  }

  get view(): EmbedView {
    const view = this.getAttribute('view');
    return VIEWS.includes(view as EmbedView) ? (view as EmbedView) : 'all';
  }

  #height(): string {
    return this.getAttribute('height') ?? DEFAULT_HEIGHT[this.view];
  }

  #src(): string {
    const url = new URL(EMBED_PAGE);
    url.searchParams.set('view', this.view);
    const origins = [location.origin, ...(this.getAttribute('allowed-origins') ?? '').split(/[\s,]+/).filter(Boolean)];
    url.searchParams.set('allowed-origins', origins.join(','));
    const autostart = this.getAttribute('autostart');
    if (autostart === 'false' || autostart === '0') url.searchParams.set('autostart', '0');
    const lang = this.getAttribute('lang');
    if (lang) url.searchParams.set('lang', lang);
    const scenario = this.#scenario();
    if (scenario && looksInline(scenario)) url.hash = `scenario=${encodeScenario(inlineScenarioText(scenario, false))}`;
    else if (scenario) url.searchParams.set('scenario', scenario.includes('/') ? new URL(scenario, document.baseURI).href : scenario);
    return url.href;
  }

  /** The `scenario` attribute, or the text of a child script (unescaped when the share dialog escaped it). */
  #scenario(): string {
    const attribute = this.getAttribute('scenario');
    if (attribute !== null) return attribute;
    const script = this.querySelector('script[type="text/yaml"], script[type="application/yaml"], script[type="application/json"]');
    return script ? inlineScenarioText(script.textContent ?? '', script.hasAttribute(ESCAPED_ATTRIBUTE)) : '';
  }

  #render(): void {
    this.#client?.dispose();
    this.#frame?.remove();
    const frame = document.createElement('iframe');
    frame.src = this.#src();
    frame.title = this.getAttribute('title') ?? 'Checkpoint Playground';
    frame.style.cssText = `display:block;width:100%;height:${this.#height()};border:0;`;
    this.#frame = frame;
    this.#client = new EmbedClient(() => frame.contentWindow, EMBED_PAGE.origin);
    this.append(frame);
  }
}

if (!customElements.get('checkpoint-playground')) customElements.define('checkpoint-playground', CheckpointPlaygroundElement);

declare global {
  interface HTMLElementTagNameMap {
    'checkpoint-playground': CheckpointPlaygroundElement;
  }
}
