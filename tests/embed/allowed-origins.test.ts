import { describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../web/embed/allowed-origins.ts';
import { embedLink } from '../../web/embed/share-link.ts';
import { readEmbedOptions } from '../../web/embed/embed-options.ts';

describe('the share dialog’s allowed origins', () => {
  it('takes origins separated by commas, spaces or new lines, as the browser reports them', () => {
    expect(parseAllowedOrigins(' https://Docs.Example.org, http://localhost:5173/\nhttps://a.example:443  ')).toEqual({
      ok: true,
      origins: ['https://docs.example.org', 'http://localhost:5173', 'https://a.example'],
    });
  });

  it('takes an empty field as no origin, and * as any', () => {
    expect(parseAllowedOrigins('   ')).toEqual({ ok: true, origins: [] });
    expect(parseAllowedOrigins('*')).toEqual({ ok: true, origins: ['*'] });
  });

  it('lists each entry once', () => {
    expect(parseAllowedOrigins('https://a.example https://a.example/')).toEqual({ ok: true, origins: ['https://a.example'] });
  });

  it('refuses what is not an http(s) origin, naming each entry and the origin a page address stands for', () => {
    expect(parseAllowedOrigins('docs.example.org ftp://x.example https://docs.example.org/guide/embed.html https://ok.example')).toEqual({
      ok: false,
      origins: ['https://ok.example'],
      problems: [
        { code: 'not-url', entry: 'docs.example.org' },
        { code: 'not-http', entry: 'ftp://x.example' },
        { code: 'has-path', entry: 'https://docs.example.org/guide/embed.html', origin: 'https://docs.example.org' },
      ],
    });
  });

  it('reach the embed page through the iframe snippet’s address', () => {
    const parsed = parseAllowedOrigins('https://docs.example.org http://localhost:5173');
    if (!parsed.ok) throw new Error('expected valid origins');
    const link = new URL(embedLink('https://playground.example.org/', 'version: 1\n', 'graph', parsed.origins));
    expect(readEmbedOptions(link).allowedOrigins).toEqual(['https://docs.example.org', 'http://localhost:5173']);
  });
});
