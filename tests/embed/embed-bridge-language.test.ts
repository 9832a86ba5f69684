/**
 * The playground's language over the embed bridge: an embedding page whose reader switches its
 * language calls setLanguage, and the embedded playground switches in place — its text and the
 * scenario's own name, with the loaded run kept — or refuses a language it has no text in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EmbedBridge, OriginPolicy } from '../../web/embed/embed-bridge.ts';
import { EMBED_PROTOCOL, type EmbedResponse } from '../../web/embed/embed-protocol.ts';
import { i18n, t } from '../../web/i18n/i18n.svelte.ts';
import { zhCN } from '../../web/i18n/messages.ts';
import { createPlaygroundApi } from '../../web/playground/api/playground-api.ts';
import { PlaygroundState } from '../../web/playground-state.svelte.ts';
import { tiny } from '../cli/tiny-scenario.ts';
import { FakeWindow } from './fake-window.ts';

const DOCS = 'https://docs.example.org';

/** A playground with a scenario named in both languages, embedded by a page on DOCS. */
async function embedded() {
  const playground = new PlaygroundState();
  const api = createPlaygroundApi(playground);
  const named = tiny('  - { type: job-status, status: FINISHED }\n').replace('name: Tiny', 'name: { en: Clicks counted exactly once, zh-CN: 按用户统计点击，精确一次 }');
  await playground.load(named);
  const frame = new FakeWindow();
  const parent = new FakeWindow();
  new EmbedBridge(api, new OriginPolicy([DOCS], 'https://playground.example.org')).listen(frame as unknown as Window, parent as unknown as Window);
  let id = 0;
  const call = async (method: string, args: unknown[]): Promise<EmbedResponse> => {
    const callId = ++id;
    frame.deliver({ protocol: EMBED_PROTOCOL, type: 'call', id: callId, method, args }, parent, DOCS);
    await expect.poll(() => parent.received.find((m) => m.type === 'result' && m.id === callId), { timeout: 30_000 }).toBeDefined();
    return parent.received.find((m) => m.type === 'result' && m.id === callId)!;
  };
  return { playground, call };
}

afterEach(async () => {
  await i18n.setLocale('en', false);
});

describe('setLanguage through the embed bridge', () => {
  it('switches the embedded playground to Chinese in place: its text and the scenario’s name, the loaded run kept', async () => {
    const { playground, call } = await embedded();
    const scenario = playground.scenario;
    expect(i18n.scenarioText(scenario!, 'name')).toBe('Clicks counted exactly once');
    expect(await call('setLanguage', ['zh-CN'])).toMatchObject({ type: 'result', ok: true });
    expect(i18n.locale).toBe('zh-CN');
    expect(t('app.title')).toBe(zhCN['app.title']);
    expect(i18n.scenarioText(playground.scenario!, 'name')).toBe('按用户统计点击，精确一次');
    expect(playground.scenario).toBe(scenario);
    expect(await call('setLanguage', ['en'])).toMatchObject({ ok: true });
    expect(i18n.locale).toBe('en');
  });

  it('takes another tag of a language it has (zh-Hans is zh-CN) and does not remember a script’s choice', async () => {
    const { call } = await embedded();
    expect(await call('setLanguage', ['zh-Hans'])).toMatchObject({ ok: true });
    expect(i18n.locale).toBe('zh-CN');
    expect(globalThis.localStorage?.getItem('checkpoint-playground.locale') ?? null).toBeNull();
  });

  it('refuses a language it has no text in, naming the ones it has, and stays in its language', async () => {
    const { call } = await embedded();
    const refused = await call('setLanguage', ['fr']);
    expect(refused).toMatchObject({ ok: false, error: 'setLanguage(lang): lang must be one of en, zh-CN, got "fr".' });
    expect(await call('setLanguage', [42])).toMatchObject({ ok: false });
    expect(i18n.locale).toBe('en');
  });
});
