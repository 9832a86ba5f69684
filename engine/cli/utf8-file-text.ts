/**
 * A file's bytes as text, refusing what is not UTF-8: Node's `readFileSync(path, 'utf8')` turns
 * each bad byte into U+FFFD, so a scenario saved as Latin-1 would run with `�` in its names
 * and nobody would know why. The refusal names the byte offset, where a hex editor finds it.
 */

export type Utf8Text = { ok: true; text: string } | { ok: false; offset: number };

export function decodeUtf8(bytes: Uint8Array): Utf8Text {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, offset: firstInvalidUtf8Offset(bytes) };
  }
}

/**
 * The offset of the first byte that does not begin or continue a well-formed UTF-8 sequence
 * (the Unicode standard's table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return bytes.length;
}

/** The length of the well-formed sequence at `i`, or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  const [length, low, high] = lead >= 0xc2 && lead <= 0xdf ? [2, 0x80, 0xbf]
    : lead === 0xe0 ? [3, 0xa0, 0xbf]
    : lead === 0xed ? [3, 0x80, 0x9f]
    : lead >= 0xe1 && lead <= 0xef ? [3, 0x80, 0xbf]
    : lead === 0xf0 ? [4, 0x90, 0xbf]
    : lead === 0xf4 ? [4, 0x80, 0x8f]
    : lead >= 0xf1 && lead <= 0xf3 ? [4, 0x80, 0xbf]
    : [0, 0, 0];
  if (length === 0) return 0;
  const second = bytes[i + 1];
  if (second === undefined || second < low || second > high) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}
