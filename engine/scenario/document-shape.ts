/**
 * How deep and how large a parsed document is, checked before anything reads it: the readers
 * recurse into maps (a nested Flink config, a YAML alias graph, an object handed to the API),
 * and a document 10,000 levels deep — or one that refers to itself — would overflow the stack or
 * never end. The walk is iterative, so the check itself cannot overflow.
 */
import { fieldPath, itemPath, scenarioError, type ScenarioError } from './scenario-error.ts';
import { message } from '../messages/engine-message.ts';

/** Far deeper than any scenario needs (a nested Flink config is about 8 levels), far below the stack's limit. */
export const MAX_NESTING_DEPTH = 64;
/** Maps, lists and scalars in all; a 1 MB scenario text holds far fewer. */
export const MAX_DOCUMENT_VALUES = 1_000_000;

interface Visit {
  value: unknown;
  path: string;
  depth: number;
}

/** The first problem with the document's shape, or undefined when the readers may walk it. */
export function documentShapeError(document: unknown): ScenarioError | undefined {
  const pending: Visit[] = [{ value: document, path: '', depth: 0 }];
  let values = 0;
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (++values > MAX_DOCUMENT_VALUES) {
      return scenarioError('', message('text.too-many-values', { count: MAX_DOCUMENT_VALUES.toLocaleString('en-US') }), {
        allowed: message('phrase', { text: 'a scenario of ordinary size' }),
      });
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_NESTING_DEPTH) {
      return scenarioError(path, message('text.too-deep', { levels: MAX_NESTING_DEPTH }), {
        allowed: message('allowed.at-most-levels', { levels: MAX_NESTING_DEPTH }),
      });
    }
    pending.push(...children(value, path, depth + 1));
  }
  return undefined;
}

function children(value: object, path: string, depth: number): Visit[] {
  if (Array.isArray(value)) return value.map((item: unknown, i) => ({ value: item, path: itemPath(path, i), depth }));
  // own enumerable keys only: what the readers read
  return Object.keys(value).map((key) => ({ value: (value as Record<string, unknown>)[key], path: fieldPath(path, key), depth }));
}
