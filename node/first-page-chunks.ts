/**
 * How the built site is cut into chunks: every module the playground's page loads at start goes
 * into one chunk per set of the other pages that load it too (`playground` for the modules only the
 * playground and its embed load, `shared-planner-docs` for those the planner and the docs page load
 * as well, …), not into one chunk per exact set of entries as the bundler would cut them. The
 * bundler's cut gave the first page some forty chunks, each minified and compressed apart, hundreds
 * of bytes each; fewer, larger chunks compress better and share their bindings, and no other page
 * loads a module it does not use.
 *
 * Only the playground's start-up modules are grouped; what it loads later (`import()`), and the
 * other pages' own modules, keep the bundler's cut.
 */
import type { Rolldown } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;

/** Every module `roots` reach through static imports (a dynamic import starts a chunk of its own). */
function staticallyReached(roots: readonly string[], context: ChunkingContext): Set<string> {
  const reached = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (reached.has(id)) continue;
    reached.add(id);
    pending.push(...(context.getModuleInfo(id)?.importedIds ?? []));
  }
  return reached;
}

/**
 * The group that cuts the playground page's start-up modules: `playground` is the page's entry
 * (its HTML), `others` the other pages and scripts by name (their HTML or script).
 */
export function firstPageChunks(playground: string, others: Readonly<Record<string, string>>): Rolldown.CodeSplittingGroup {
  let firstPage: Set<string> | undefined;
  let entryChunk: Set<string> | undefined;
  let otherPages: Array<[string, Set<string>]> | undefined;
  return {
    name(id: string, context: ChunkingContext) {
      firstPage ??= staticallyReached([playground], context);
      // The page's entry (its HTML and the script it names) keeps a chunk of its own, which the
      // HTML loads and the manifest names.
      entryChunk ??= new Set([playground, ...(context.getModuleInfo(playground)?.importedIds ?? [])]);
      if (entryChunk.has(id) || !firstPage.has(id)) return null;
      otherPages ??= Object.entries(others).map(([name, entry]) => [name, staticallyReached([entry], context)]);
      const sharers = otherPages.filter(([, reached]) => reached.has(id)).map(([name]) => name);
      return sharers.length === 0 ? 'playground' : `shared-${sharers.join('-')}`;
    },
    // Grouped by who loads them, not pulled along by what imports them: a module the planner loads
    // too stays in the planner's chunk even when a playground-only module imports it.
    includeDependenciesRecursively: false,
  };
}
