/**
 * An embedded demo kept in the docs page's language. The demo loads once, in the language the
 * page opened in; when the reader switches the page, the running playground is told to switch
 * (setLanguage over postMessage, or the element's `lang`), so its run goes on instead of
 * starting over in a reloaded frame.
 */
export class DemoLanguage {
  #shown: string;
  readonly #ready: Promise<unknown>;
  readonly #switchTo: (lang: string) => Promise<unknown>;

  /**
   * `shown`: the language the demo was loaded in; `ready`: resolves once the demo listens (a
   * message posted before that is lost); `switchTo`: tells it to show another language.
   */
  constructor(shown: string, ready: Promise<unknown>, switchTo: (lang: string) => Promise<unknown>) {
    this.#shown = shown;
    this.#ready = ready;
    this.#switchTo = switchTo;
  }

  /** Switches the demo to `lang` unless it shows that already; switches asked before it listens go in order once it does. */
  follow(lang: string): void {
    if (lang === this.#shown) return;
    this.#shown = lang;
    void this.#ready
      .then(() => this.#switchTo(lang))
      .catch((error: unknown) => console.warn(`An embedded demo could not switch to ${lang}:`, error));
  }
}
