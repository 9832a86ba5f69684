/**
 * The README's pictures (written by `npm run readme-media`): every image it shows is a file in the
 * repository, and it opens with the playground's screenshot and the barrier-alignment GIF, before
 * the Quick start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

/** Markdown images `![alt](path)` and HTML `<img src="path">`, in the order the README shows them. */
function imagePaths(markdown: string): string[] {
  const pattern = /!\[[^\]]*\]\(([^)\s]+)[^)]*\)|<img\b[^>]*\bsrc="([^"]+)"/g;
  return [...markdown.matchAll(pattern)].map((m) => (m[1] ?? m[2])!);
}

/** The first bytes of each format the README uses. */
const SIGNATURES: Record<string, number[]> = {
  '.png': [0x89, 0x50, 0x4e, 0x47],
  '.gif': [0x47, 0x49, 0x46, 0x38],
};

describe('README pictures', () => {
  const paths = imagePaths(README);
  const local = paths.filter((p) => !/^[a-z]+:/i.test(p));

  it('shows only pictures that exist in the repository, each a PNG or GIF by its bytes', () => {
    expect(local.length).toBeGreaterThan(0);
    for (const path of local) {
      const file = join(REPO_ROOT, path);
      expect(existsSync(file), `${path} is shown by README.md but missing`).toBe(true);
      const signature = SIGNATURES[path.slice(path.lastIndexOf('.'))];
      expect(signature, `${path}: README pictures are .png or .gif`).toBeDefined();
      expect([...readFileSync(file).subarray(0, 4)], path).toEqual(signature);
    }
  });

  it('opens with a screenshot and a GIF, both above the Quick start', () => {
    const beforeQuickStart = imagePaths(README.slice(0, README.indexOf('## Quick start')));
    expect(beforeQuickStart.map((p) => p.slice(p.lastIndexOf('.')))).toEqual(['.png', '.gif']);
  });
});
