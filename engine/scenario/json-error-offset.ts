/**
 * Where JSON text first breaks JSON's grammar. V8 names the position of most syntax errors, but
 * not of an unexpected token (`Unexpected token 'x', "{"a": x}" is not valid JSON`); the reader
 * would then point at the end of the file. This scan finds the offset itself. It is iterative, so
 * deep nesting cannot overflow it, and it runs only on text JSON.parse already refused.
 */

type Expecting = 'value' | 'value-or-end' | 'key' | 'key-or-end' | 'colon' | 'comma-or-end';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** The offset of the first character that cannot continue the JSON text (its length when the text ends too soon); -1 when valid. */
export function jsonErrorOffset(text: string): number {
  const open: Array<'}' | ']'> = [];
  let expecting: Expecting = 'value';
  let i = skipWhitespace(text, 0);
  while (i < text.length) {
    const c = text[i]!;
    if (expecting === 'colon') {
      if (c !== ':') return i;
      expecting = 'value';
      i++;
    } else if (expecting === 'comma-or-end') {
      if (c === ',' && open.length > 0) expecting = open[open.length - 1] === '}' ? 'key' : 'value';
      else if (c === open[open.length - 1]) open.pop();
      else return i;
      i++;
    } else if ((expecting === 'key-or-end' && c === '}') || (expecting === 'value-or-end' && c === ']')) {
      open.pop();
      expecting = 'comma-or-end';
      i++;
    } else if (expecting === 'key' || expecting === 'key-or-end') {
      if (c !== '"') return i;
      i = stringEnd(text, i);
      if (i < 0) return -i - 1;
      expecting = 'colon';
    } else if (c === '{' || c === '[') {
      open.push(c === '{' ? '}' : ']');
      expecting = c === '{' ? 'key-or-end' : 'value-or-end';
      i++;
    } else {
      i = scalarEnd(text, i);
      if (i < 0) return -i - 1;
      expecting = 'comma-or-end';
    }
    i = skipWhitespace(text, i);
  }
  return open.length === 0 && expecting === 'comma-or-end' ? -1 : text.length;
}

function skipWhitespace(text: string, from: number): number {
  WHITESPACE.lastIndex = from;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

/** The end of the string, number or literal at `start`, or −(offset of the error) − 1. */
function scalarEnd(text: string, start: number): number {
  if (text[start] === '"') return stringEnd(text, start);
  for (const literal of ['true', 'false', 'null']) if (text.startsWith(literal, start)) return start + literal.length;
  NUMBER.lastIndex = start;
  return NUMBER.test(text) ? NUMBER.lastIndex : -start - 1;
}

/** The end of the string at `start` (past its closing quote), or −(offset of the error) − 1. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return i + 1;
    if (c < ' ') return -i - 1;
    if (c !== '\\') i++;
    else if (/^["\\/bfnrt]$/.test(text[i + 1] ?? '')) i += 2;
    else if (/^u[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 6))) i += 6;
    else return -(i + 1) - 1;
  }
  return -text.length - 1;
}
