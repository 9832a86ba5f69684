/**
 * A checksum of a local snapshot copy, so a restore can tell a damaged copy from a good one
 * before reading state out of it. Flink has no such checksum: a broken local file throws while
 * restoring and BackendRestorerProcedure falls back to the remote copy. The playground makes the
 * same check explicit: FNV-1a (32 bit) over the UTF-8 bytes of a stable JSON serialization.
 */

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bit, over the UTF-8 bytes of `text`, as 8 lower-case hex digits. */
export function fnv1a32(text: string): string {
  return fnv1a32Bytes(new TextEncoder().encode(text));
}

/**
 * FNV-1a, 32 bit, over `bytes`: the checksum of a copy that is written as the bytes it arrived in
 * (a live TaskManager's encoded snapshot), cheap enough for 100 MB where serializing the decoded
 * snapshot is not.
 */
export function fnv1a32Bytes(bytes: Uint8Array): string {
  let hash = FNV_OFFSET_BASIS;
  // an indexed loop: the iterator protocol made this a large part of a 20k-key snapshot's cost
  for (let i = 0; i < bytes.length; i++) {
    hash ^= bytes[i]!;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The checksum of a value: FNV-1a over its stable JSON serialization. */
export function checksum(value: unknown): string {
  return fnv1a32(stableJson(value));
}

/**
 * JSON with object keys sorted, so equal values serialize equally whatever order their keys were
 * written in. Values plain JSON cannot hold (Map, Set, typed arrays, bigint, NaN, ±Infinity) are
 * written as tagged objects instead of being dropped, so damage to them still changes the text.
 * `undefined`, functions and symbols are skipped in objects and written as null in arrays, as
 * JSON.stringify does.
 */
export function stableJson(value: unknown): string {
  return serialize(value, new Set()) ?? 'null';
}

function serialize(value: unknown, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : tagged('number', String(value));
    case 'bigint':
      return tagged('bigint', value.toString());
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.has(object)) throw new TypeError('stableJson: the value contains a cycle');
  ancestors.add(object);
  try {
    return serializeObject(object, ancestors);
  } finally {
    ancestors.delete(object);
  }
}

function serializeObject(object: object, ancestors: Set<object>): string {
  if (Array.isArray(object)) return `[${object.map((item) => serialize(item, ancestors) ?? 'null').join(',')}]`;
  if (ArrayBuffer.isView(object)) return tagged('bytes', bytesOf(new Uint8Array(object.buffer, object.byteOffset, object.byteLength)));
  if (object instanceof ArrayBuffer) return tagged('bytes', bytesOf(new Uint8Array(object)));
  if (object instanceof Map) {
    const entries = [...object].map(([k, v]) => `[${serialize(k, ancestors) ?? 'null'},${serialize(v, ancestors) ?? 'null'}]`);
    return `{"$map":[${entries.sort().join(',')}]}`;
  }
  if (object instanceof Set) {
    const items = [...object].map((item) => serialize(item, ancestors) ?? 'null');
    return `{"$set":[${items.sort().join(',')}]}`;
  }
  const fields: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const text = serialize((object as Record<string, unknown>)[key], ancestors);
    if (text !== undefined) fields.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}

function tagged(tag: string, text: string): string {
  return `{${JSON.stringify(`$${tag}`)}:${JSON.stringify(text)}}`;
}

/** Two hex digits per byte value, so writing bytes looks digits up instead of formatting each byte. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function bytesOf(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += HEX[bytes[i]!];
  return text;
}
