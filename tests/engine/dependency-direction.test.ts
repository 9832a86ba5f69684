import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { sourceFiles, withoutComments } from '../support/source-files.ts';

/**
 * Dependencies point inward: web/ (the page) → workers/ (the live runtime's Web Workers) →
 * engine/ (the platform-free core), never back. What both sides need lives in the inner one:
 * a workers/ file that wants something of web/ means that piece belongs in workers/ or engine/.
 * engine/cli is part of the engine here: the Node shell runs the engine, not the page.
 */
const MAY_NOT_IMPORT: Record<string, readonly string[]> = {
  engine: ['workers', 'web'],
  workers: ['web'],
};

const SOURCE = /\.(ts|mts|js|mjs)$/;

/**
 * node/ is Node-only (it launches Chromium for `ckpt-lab check --live`): the page and the workers
 * never reach it, or the browser bundle would pull in playwright; engine/ reaches it only from the
 * `ckpt-lab` entry point, which plugs it into engine/cli as an injected runner.
 */
const NODE_ONLY = 'node';
const NODE_ENTRY_POINTS = [join('engine', 'cli', 'ckpt-lab.mjs')];

/** The specifiers a module imports: `import … from`, `export … from`, `import '…'` and `import('…')`. */
function importSpecifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s*(['"])([^'"]+)\1/g, /\bimport\s*(['"])([^'"]+)\1/g, /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g];
  for (const pattern of patterns) for (const match of withoutComments(code).matchAll(pattern)) found.push(match[2]!);
  return found;
}

/** The top-level folder a relative specifier of `file` lands in; undefined for a package import. */
function topFolderOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return normalize(join(dirname(file), specifier)).split(sep)[0];
}

function offences(layer: string, forbidden: readonly string[] = MAY_NOT_IMPORT[layer]!, allowed: (file: string) => boolean = () => false): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(layer, [], SOURCE)) {
    if (allowed(file)) continue;
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      const folder = topFolderOf(file, specifier);
      if (folder !== undefined && forbidden.includes(folder)) found.push(`${file} imports '${specifier}' (${folder}/)`);
    }
  }
  return found;
}

describe('the dependency direction web → workers → engine', () => {
  it('reads static, re-exported, side-effect and dynamic imports, and not those in comments', () => {
    const code = [
      "import type { A } from '../web/a.ts';",
      "export { B } from './b.ts';",
      "import '../c.css';",
      "const d = await import('./d.ts');",
      "// import { E } from '../web/e.ts';",
      "/** see import('../web/f.ts') */",
    ].join('\n');
    expect(importSpecifiers(code).sort()).toEqual(['../c.css', '../web/a.ts', './b.ts', './d.ts']);
  });

  it('finds the imports of the real sources (the check is not vacuous)', () => {
    const imports = sourceFiles('workers', [], SOURCE).flatMap((file) =>
      importSpecifiers(readFileSync(file, 'utf8')).map((specifier) => topFolderOf(file, specifier)),
    );
    expect(imports).toContain('engine');
  });

  it('keeps workers/ from importing web/', () => {
    expect(offences('workers')).toEqual([]);
  });

  it('keeps engine/ (engine/cli included) from importing workers/ or web/', () => {
    expect(offences('engine')).toEqual([]);
  });

  it('keeps the Node-only node/ out of web/ and workers/, and out of engine/ but for the ckpt-lab entry point', () => {
    expect(offences('web', [NODE_ONLY])).toEqual([]);
    expect(offences('workers', [NODE_ONLY])).toEqual([]);
    expect(offences('engine', [NODE_ONLY], (file) => NODE_ENTRY_POINTS.includes(file))).toEqual([]);
  });

  it('sees the entry point plug node/ in (the node/ check is not vacuous)', () => {
    expect(offences('engine', [NODE_ONLY])).toEqual([`${NODE_ENTRY_POINTS[0]} imports '../../node/live-check.ts' (node/)`]);
  });
});
