/**
 * The embedding pieces that need no browser (they run in Node here, beside the browser tests
 * that use them): share links round-trip any scenario text, and the origin policy lets exactly
 * the listed origins call.
 */
import { describe, expect, it } from 'vitest';
import { OriginPolicy } from '../../web/embed/embed-bridge.ts';
import { readEmbedOptions } from '../../web/embed/embed-options.ts';
import { decodeScenario, embedLink, encodeScenario, scenarioFromHash, shareLink } from '../../web/embed/share-link.ts';
import { CHECKPOINTING_SCENARIO_YAML } from './scenarios.ts';

describe('share links', () => {
  it('round-trip scenario text, Chinese included, in URL-safe base64', () => {
    const text = `${CHECKPOINTING_SCENARIO_YAML}\ndescription: 单词计数 — ✓\n`;
    const encoded = encodeScenario(text);
    expect(encoded).toMatch(/^[\w-]+$/);
    expect(decodeScenario(encoded)).toBe(text);
  });

  it('read plain base64 too, and refuse what is not UTF-8', () => {
    expect(decodeScenario(btoa('version: 1'))).toBe('version: 1');
    expect(() => decodeScenario(btoa(String.fromCharCode(0xff, 0xfe, 0xfd)))).toThrow();
  });

  it('put the scenario in the fragment of the app and of the embed page', () => {
    const link = shareLink('https://playground.example.org/?scenario=word-count.yaml', 'name: x');
    expect(scenarioFromHash(new URL(link).hash)).toBe('name: x');
    const embed = new URL(embedLink('https://playground.example.org/', 'name: x', 'dashboard', ['https://docs.example.org']));
    expect(embed.pathname).toBe('/embed.html');
    expect(embed.searchParams.get('view')).toBe('dashboard');
    expect(embed.searchParams.get('allowed-origins')).toBe('https://docs.example.org');
    expect(readEmbedOptions(embed)).toMatchObject({ view: 'dashboard', scenario: { kind: 'text', text: 'name: x' }, allowedOrigins: ['https://docs.example.org'], autostart: true });
  });

  it('reads the embed page’s address', () => {
    expect(readEmbedOptions({ search: '?view=nonsense&scenario=/s.yaml&autostart=0&lang=zh', hash: '' })).toEqual({
      view: 'all',
      scenario: { kind: 'url', url: '/s.yaml' },
      allowedOrigins: [],
      autostart: false,
      lang: 'zh',
    });
    expect(readEmbedOptions({ search: '', hash: '#scenario=%%%' }).scenario.kind).toBe('bad-link');
  });
});

describe('origin policy', () => {
  const own = 'https://playground.example.org';

  it('allows the listed origins and the playground’s own, compared as origins', () => {
    const policy = new OriginPolicy(['https://docs.example.org/some/page', 'http://localhost:5173'], own);
    expect(policy.allows('https://docs.example.org')).toBe(true);
    expect(policy.allows('http://localhost:5173')).toBe(true);
    expect(policy.allows(own)).toBe(true);
  });

  it('refuses every other origin, look-alikes and opaque ones included', () => {
    const policy = new OriginPolicy(['https://docs.example.org'], own);
    for (const origin of ['https://evil.example.org', 'http://docs.example.org', 'https://docs.example.org:8443', 'https://docs.example.org.evil.com', 'null']) {
      expect(policy.allows(origin), origin).toBe(false);
    }
    expect(new OriginPolicy(['not a url'], own).allows('not a url')).toBe(false);
  });

  it('allows any origin only when told so with *', () => {
    expect(new OriginPolicy(['*'], own).allows('https://anywhere.example')).toBe(true);
    expect(new OriginPolicy(['*'], own).allows('null')).toBe(false);
  });
});
