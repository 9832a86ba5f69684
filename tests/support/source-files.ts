import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The source files under `dir` (a path from the repository root, as the tests run there), walking
 * sub-folders except those in `skip`. `pattern` picks the files by name.
 */
export function sourceFiles(dir: string, skip: readonly string[] = [], pattern = /\.ts$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skip.includes(path) ? [] : sourceFiles(path, skip, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

/** The code of a source file without its comments, so a path named in a comment is not code. */
export function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}
