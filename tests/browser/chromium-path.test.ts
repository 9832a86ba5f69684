import { describe, expect, it } from 'vitest';
import { findChromium } from './chromium-path.ts';

describe('findChromium', () => {
  it('prefers CHROMIUM_PATH over the well-known locations', () => {
    // /bin/sh stands in for a browser: any executable file will do for the lookup.
    expect(findChromium({ CHROMIUM_PATH: '/bin/sh' }, ['/bin/ls'])).toBe('/bin/sh');
  });

  it('falls back to CHROME_PATH, then to the first executable candidate', () => {
    expect(findChromium({ CHROME_PATH: '/bin/sh' }, ['/bin/ls'])).toBe('/bin/sh');
    expect(findChromium({}, ['/nonexistent/chromium', '/bin/ls'])).toBe('/bin/ls');
  });

  it('rejects a CHROMIUM_PATH that is not an executable file', () => {
    expect(() => findChromium({ CHROMIUM_PATH: '/nonexistent/chromium' }, ['/bin/ls'])).toThrow(
      /CHROMIUM_PATH is set to \/nonexistent\/chromium/,
    );
  });

  it('names every path searched and how to install one when nothing is found', () => {
    const candidates = ['/nonexistent/a/chromium', '/nonexistent/b/chrome'];
    let message = '';
    try {
      findChromium({}, candidates);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/No Chromium or Chrome was found/);
    for (const path of candidates) expect(message).toContain(path);
    expect(message).toContain('sudo apt-get install chromium');
    expect(message).toContain('CHROMIUM_PATH');
  });
});
