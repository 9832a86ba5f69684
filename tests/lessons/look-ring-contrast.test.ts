/**
 * The ring around a region the open lesson step points at (web/app.css, `--look-ring`) is what
 * tells the learner where to look, so it is a graphical object that must stand out from what it
 * is drawn on: at least 3:1 against the page's background and its panels (WCAG 2.1, 1.4.11
 * non-text contrast), in the light and in the dark colour scheme.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const CSS = readFileSync('web/app.css', 'utf8');
const DARK_AT = CSS.indexOf('@media (prefers-color-scheme: dark)');
const SCHEMES = { light: CSS.slice(0, DARK_AT), dark: CSS.slice(DARK_AT) };

/** A custom property's `#rrggbb` value as the scheme's block sets it. */
function colour(block: string, property: string): string {
  const match = new RegExp(`${property}:\\s*#([0-9a-fA-F]{6})\\s*;`).exec(block);
  if (!match) throw new Error(`${property} is not set as #rrggbb in this block of web/app.css`);
  return match[1]!;
}

/** WCAG 2.1's relative luminance of an sRGB colour. */
function luminance(hex: string): number {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (lighter! + 0.05) / (darker! + 0.05);
}

describe("the lesson's look-at ring", () => {
  it('is told from a colour by its contrast: white on black is 21:1, a colour on itself 1:1', () => {
    expect(contrast('ffffff', '000000')).toBeCloseTo(21, 5);
    expect(contrast('d48806', 'd48806')).toBe(1);
  });

  for (const [scheme, block] of Object.entries(SCHEMES)) {
    it(`stands out at least 3:1 from the page and its panels in the ${scheme} scheme`, () => {
      const ring = colour(block, '--look-ring');
      for (const background of ['--bg', '--surface', '--surface-2']) {
        expect(contrast(ring, colour(block, background)), `--look-ring #${ring} on ${background}`).toBeGreaterThanOrEqual(3);
      }
    });
  }
});
