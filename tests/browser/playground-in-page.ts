/**
 * Calls the page's Playground API from a browser test as a page script would: `body` is sent as
 * source and run in the page with `window.playground`.
 */
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import type { BrowserSession } from './browser-session.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

/** Runs `body` in the page with the API; resolves with its result or rejects with its message. */
export async function inPage<T, A>(session: BrowserSession, body: (api: PlaygroundApi, arg: A) => Promise<T>, arg: A): Promise<T> {
  await session.page.waitForFunction(() => window.playground !== undefined);
  return session.page.evaluate(
    async ([source, argument]) => {
      const fn = new Function(`return (${source})`)() as (api: PlaygroundApi, arg: unknown) => Promise<unknown>;
      return fn(window.playground!, argument);
    },
    [body.toString(), arg] as const,
  ) as Promise<T>;
}
