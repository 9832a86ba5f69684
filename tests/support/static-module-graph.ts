/**
 * The module graph a bundler starts a page from: every repo module an entry reaches through
 * static imports (a dynamic `import()` starts another chunk; type-only imports are erased), and
 * the packages those modules import. What a page's first chunk can hold, read from the source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** `import … from '…'`, `export … from '…'` and `import '…'`, but not `import type …` or `export type …`. */
const STATIC_IMPORT = /(?:^|[\n;])\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

/** The specifiers `file` imports statically (of a .svelte file, those of its scripts). */
export function staticSpecifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = file.endsWith('.svelte') ? [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
  return [...source.matchAll(STATIC_IMPORT)].map((m) => m[1]!);
}

function staticImports(file: string): string[] {
  return staticSpecifiers(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec))
    .filter((path) => existsSync(path) && /\.(ts|svelte)$/.test(path));
}

/** Every repo module the entry reaches through static imports (absolute paths). */
export function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

/** The packages (bare specifiers, as written: `yaml`, `svelte/internal`) the modules import statically, each with an importer. */
export function packagesImported(files: Iterable<string>): Map<string, string> {
  const packages = new Map<string, string>();
  for (const file of files) for (const spec of staticSpecifiers(file)) if (!spec.startsWith('.') && !packages.has(spec)) packages.set(spec, file);
  return packages;
}
