/**
 * Bytes for checkpoint storage: task snapshots, completed checkpoints and their `_metadata`.
 *
 * The format is JSON with tags for what JSON cannot say, followed by the raw bytes of every
 * Uint8Array (no base64, so large state files cost one copy):
 *
 *   "CPG1" | JSON length (u32, little-endian) | JSON (UTF-8) | blob bytes…
 *
 * A full keyed snapshot (KeyedStateSnapshot: a million [key, value] pairs at 25 MB) is written as
 * key-group columns instead of a tree (keyed-state-columns.ts): the same value comes back, several
 * times faster, wherever it sits (a task snapshot, a restore sent to a TaskManager, a checkpoint).
 *
 * Round trips are exact for: null, booleans, strings, every number (NaN, ±Infinity, -0 too),
 * bigint, undefined (as a property, an array element or a Map entry), arrays, plain objects
 * (a key "#" included), Map (any keys, insertion order kept), Set and Uint8Array (a view onto a
 * larger buffer decodes to a copy of just its bytes; with DecodeOptions.views, to a view onto the
 * decoded bytes). Anything else (class instances, functions,
 * symbols, other typed arrays, cycles) throws a SnapshotCodecError instead of being mangled.
 * Array holes decode as undefined; an object reached twice decodes as two equal copies.
 */
import type { TaskStateSnapshot } from '../protocol.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint.ts';
import { isPackedKeyedState, packKeyedState, unpackKeyedState } from '../state/keyed-state-columns.ts';

export class SnapshotCodecError extends Error {
  override readonly name = 'SnapshotCodecError';
}

const MAGIC = [0x43, 0x50, 0x47, 0x31]; // "CPG1"
const HEADER_BYTES = 8;
const TAG = '#';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Encoder {
  blobs: Uint8Array[];
  blobBytes: number;
  ancestors: Set<object>;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return typeof value;
  const ctor = (value as { constructor?: { name?: string } }).constructor;
  return ctor?.name ? `a ${ctor.name}` : 'an object';
}

function encodeTree(value: unknown, enc: Encoder, at: string): Json {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return { [TAG]: 'n', v: Object.is(value, -0) ? '-0' : String(value) };
    case 'undefined':
      return { [TAG]: 'u' };
    case 'bigint':
      return { [TAG]: 'b', v: value.toString() };
    case 'object':
      break;
    default:
      throw new SnapshotCodecError(`cannot encode ${typeof value} at ${at}`);
  }
  if (value === null) return null;
  if (enc.ancestors.has(value)) throw new SnapshotCodecError(`cannot encode a cycle at ${at}`);
  if (value instanceof Uint8Array) {
    const ref = { [TAG]: 'u8', o: enc.blobBytes, l: value.byteLength };
    enc.blobs.push(value);
    enc.blobBytes += value.byteLength;
    return ref;
  }
  enc.ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out: Json[] = new Array<Json>(value.length);
      for (let i = 0; i < value.length; i++) out[i] = encodeTree(value[i], enc, `${at}[${i}]`);
      return out;
    }
    if (value instanceof Map) {
      const entries: Json[] = [];
      let i = 0;
      for (const [k, v] of value) {
        entries.push([encodeTree(k, enc, `${at}<key ${i}>`), encodeTree(v, enc, `${at}<value ${i}>`)]);
        i++;
      }
      return { [TAG]: 'm', e: entries };
    }
    if (value instanceof Set) {
      const entries: Json[] = [];
      let i = 0;
      for (const v of value) entries.push(encodeTree(v, enc, `${at}<element ${i++}>`));
      return { [TAG]: 's', e: entries };
    }
    if (!isPlainObject(value)) throw new SnapshotCodecError(`cannot encode ${describe(value)} at ${at}`);
    const columns = Object.prototype.hasOwnProperty.call(value, 'keyGroups') ? packKeyedState(value) : undefined;
    if (columns) return { [TAG]: 'kc', v: encodeTree(columns, enc, at) };
    const out: { [k: string]: Json } = {};
    for (const key of Object.keys(value)) {
      const encoded = encodeTree(value[key], enc, `${at}.${key}`);
      if (key === '__proto__') Object.defineProperty(out, key, { value: encoded, enumerable: true, writable: true, configurable: true });
      else out[key] = encoded;
    }
    return Object.prototype.hasOwnProperty.call(out, TAG) ? { [TAG]: 'o', v: out } : out;
  } finally {
    enc.ancestors.delete(value);
  }
}

/** The bytes after the JSON, and whether decoded byte arrays may be views onto them (DecodeOptions.views). */
interface BlobSection {
  bytes: Uint8Array;
  views: boolean;
}

function decodeTree(node: Json, blobs: BlobSection, at: string): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n, i) => decodeTree(n, blobs, `${at}[${i}]`));
  if (!Object.prototype.hasOwnProperty.call(node, TAG)) return decodePlain(node, blobs, at);
  const tag = node[TAG];
  switch (tag) {
    case 'n': {
      const v = node.v;
      if (v === '-0') return -0;
      if (v === 'NaN') return NaN;
      if (v === 'Infinity') return Infinity;
      if (v === '-Infinity') return -Infinity;
      break;
    }
    case 'u':
      return undefined;
    case 'b':
      if (typeof node.v === 'string') return BigInt(node.v);
      break;
    case 'u8': {
      const { o, l } = node;
      const { bytes, views } = blobs;
      if (typeof o === 'number' && typeof l === 'number' && o >= 0 && l >= 0 && o + l <= bytes.byteLength) return views ? bytes.subarray(o, o + l) : bytes.slice(o, o + l);
      throw new SnapshotCodecError(`a byte array at ${at} points outside the data (${String(o)}+${String(l)} > ${bytes.byteLength})`);
    }
    case 'm':
      if (Array.isArray(node.e)) {
        const map = new Map<unknown, unknown>();
        node.e.forEach((entry, i) => {
          if (!Array.isArray(entry) || entry.length !== 2) throw new SnapshotCodecError(`a Map entry at ${at}<${i}> is malformed`);
          map.set(decodeTree(entry[0]!, blobs, `${at}<key ${i}>`), decodeTree(entry[1]!, blobs, `${at}<value ${i}>`));
        });
        return map;
      }
      break;
    case 's':
      if (Array.isArray(node.e)) return new Set(node.e.map((n, i) => decodeTree(n, blobs, `${at}<element ${i}>`)));
      break;
    case 'o':
      if (node.v !== null && typeof node.v === 'object' && !Array.isArray(node.v)) return decodePlain(node.v, blobs, at);
      break;
    case 'kc':
      return decodeKeyGroupColumns(node.v, blobs, at);
  }
  throw new SnapshotCodecError(`unknown or malformed tag ${JSON.stringify(tag)} at ${at}`);
}

function decodeKeyGroupColumns(node: Json | undefined, blobs: BlobSection, at: string): unknown {
  const columns = node !== null && typeof node === 'object' && !Array.isArray(node) ? decodePlain(node, blobs, at) : undefined;
  if (!isPackedKeyedState(columns)) throw new SnapshotCodecError(`malformed keyed state columns at ${at}`);
  try {
    return unpackKeyedState(columns);
  } catch (error) {
    throw new SnapshotCodecError(`corrupt keyed state at ${at}: ${(error as Error).message}`);
  }
}

function decodePlain(node: { [k: string]: Json }, blobs: BlobSection, at: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node)) {
    const value = decodeTree(node[key]!, blobs, `${at}.${key}`);
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

/** Any supported value (see the file comment) to bytes. */
export function encodeValue(value: unknown): Uint8Array {
  const enc: Encoder = { blobs: [], blobBytes: 0, ancestors: new Set() };
  const json = new TextEncoder().encode(JSON.stringify(encodeTree(value, enc, '$')));
  const out = new Uint8Array(HEADER_BYTES + json.byteLength + enc.blobBytes);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, json.byteLength, true);
  out.set(json, HEADER_BYTES);
  let offset = HEADER_BYTES + json.byteLength;
  for (const blob of enc.blobs) {
    out.set(blob, offset);
    offset += blob.byteLength;
  }
  return out;
}

export interface DecodeOptions {
  /**
   * The decoded byte arrays are views onto `bytes` instead of copies of their parts: no second
   * copy of a large state file, and less for the collector. Only for bytes the caller owns and
   * never changes afterwards, such as a file just read from storage (a 100 MB restore copied
   * 14 MB per subtask here, a third of its decode).
   */
  views?: boolean;
}

/** Bytes from `encodeValue` back to the value. Throws SnapshotCodecError on anything else. */
export function decodeValue(bytes: Uint8Array, options: DecodeOptions = {}): unknown {
  if (!(bytes instanceof Uint8Array)) throw new SnapshotCodecError('expected a Uint8Array');
  if (bytes.byteLength < HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) throw new SnapshotCodecError('not checkpoint playground data (bad header)');
  const jsonBytes = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (HEADER_BYTES + jsonBytes > bytes.byteLength) throw new SnapshotCodecError(`truncated data: ${bytes.byteLength} bytes, the header announces more`);
  let tree: Json;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + jsonBytes));
    tree = JSON.parse(text) as Json;
  } catch (error) {
    throw new SnapshotCodecError(`corrupt data: ${(error as Error).message}`);
  }
  return decodeTree(tree, { bytes: bytes.subarray(HEADER_BYTES + jsonBytes), views: options.views === true }, '$');
}

// ---------------------------------------------------------------------------------------------
// Typed documents: a format name and version around the value, checked on decode.

function encodeDocument(format: string, body: unknown): Uint8Array {
  return encodeValue({ format, version: 1, body });
}

function decodeDocument(bytes: Uint8Array, format: string, options?: DecodeOptions): unknown {
  const doc = decodeValue(bytes, options) as { format?: unknown; version?: unknown; body?: unknown } | null;
  if (doc === null || typeof doc !== 'object' || doc.format !== format) {
    throw new SnapshotCodecError(`expected a ${format} document, found ${doc !== null && typeof doc === 'object' ? JSON.stringify(doc.format) : typeof doc}`);
  }
  if (doc.version !== 1) throw new SnapshotCodecError(`${format} version ${String(doc.version)} is not supported (only 1)`);
  return doc.body;
}

export function encodeTaskStateSnapshot(snapshot: TaskStateSnapshot): Uint8Array {
  return encodeDocument('task-state-snapshot', snapshot);
}

export function decodeTaskStateSnapshot(bytes: Uint8Array, options?: DecodeOptions): TaskStateSnapshot {
  const body = decodeDocument(bytes, 'task-state-snapshot', options) as TaskStateSnapshot;
  if (body === null || typeof body !== 'object' || typeof body.subtask?.vertexId !== 'string') throw new SnapshotCodecError('a task state snapshot without a subtask');
  return body;
}

/** A whole completed checkpoint, state inline (the JobManager's view, e.g. for a state dump). */
export function encodeCompletedCheckpoint(checkpoint: CompletedCheckpoint): Uint8Array {
  return encodeDocument('completed-checkpoint', checkpoint);
}

export function decodeCompletedCheckpoint(bytes: Uint8Array): CompletedCheckpoint {
  const body = decodeDocument(bytes, 'completed-checkpoint') as CompletedCheckpoint;
  if (body === null || typeof body !== 'object' || !(body.taskStates instanceof Map)) throw new SnapshotCodecError('a completed checkpoint without task states');
  return body;
}

/** A `_metadata` file (checkpoint-files.ts defines its shape). */
export function encodeMetadataDocument(metadata: unknown): Uint8Array {
  return encodeDocument('checkpoint-metadata', metadata);
}

export function decodeMetadataDocument(bytes: Uint8Array): unknown {
  return decodeDocument(bytes, 'checkpoint-metadata');
}

/** A shared file's contents (an SST run of an incremental checkpoint). */
export function encodeSharedFile(name: string, contents: unknown): Uint8Array {
  return encodeDocument('shared-state-file', { name, contents });
}

export function decodeSharedFile(bytes: Uint8Array, options?: DecodeOptions): { name: string; contents: unknown } {
  const body = decodeDocument(bytes, 'shared-state-file', options) as { name?: unknown; contents?: unknown };
  if (typeof body?.name !== 'string') throw new SnapshotCodecError('a shared state file without a name');
  return { name: body.name, contents: body.contents };
}
