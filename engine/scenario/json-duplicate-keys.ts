/**
 * JSON.parse keeps the last of two equal keys in an object and says nothing; YAML refuses them
 * (`uniqueKeys`). A scenario written as JSON is held to the same rule, so a key set twice is an
 * error naming the key's path instead of a silently ignored first value. The scan runs only on
 * text JSON.parse accepted, so it only follows the structure: strings, brackets and commas.
 */
import { fieldPath, itemPath } from './scenario-error.ts';

export interface DuplicateJsonKey {
  /** the path of the key set twice, as the validator names fields */
  path: string;
  /** offset of its second occurrence in the text */
  offset: number;
}

type Frame = { kind: 'object'; path: string; keys: Set<string>; key: string | undefined; expectsKey: boolean } | { kind: 'array'; path: string; index: number };

/** The first key an object of the (valid) JSON text holds twice, if any. */
export function findDuplicateJsonKey(text: string): DuplicateJsonKey | undefined {
  const frames: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = frames[frames.length - 1];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectsKey) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (top.keys.has(key)) return { path: fieldPath(top.path, key), offset: i };
        top.keys.add(key);
        top.key = key;
        top.expectsKey = false;
      }
      i = end - 1;
    } else if (c === '{') frames.push({ kind: 'object', path: childPath(top), keys: new Set(), key: undefined, expectsKey: true });
    else if (c === '[') frames.push({ kind: 'array', path: childPath(top), index: 0 });
    else if (c === '}' || c === ']') frames.pop();
    else if (c === ',' && top?.kind === 'object') top.expectsKey = true;
    else if (c === ',' && top?.kind === 'array') top.index++;
  }
  return undefined;
}

/** The offset just past the string that starts at `start` (its closing quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

function childPath(parent: Frame | undefined): string {
  if (parent === undefined) return '';
  return parent.kind === 'array' ? itemPath(parent.path, parent.index) : fieldPath(parent.path, parent.key ?? '');
}
