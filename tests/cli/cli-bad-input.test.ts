import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { internalError, usage } from '../../engine/cli/main.ts';
import { decodeUtf8, firstInvalidUtf8Offset } from '../../engine/cli/utf8-file-text.ts';

describe('reading a file as UTF-8', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);

  it('reads well-formed UTF-8, Chinese and astral characters included', () => {
    expect(decodeUtf8(new TextEncoder().encode('name: 单词计数 𝄞'))).toEqual({ ok: true, text: 'name: 单词计数 𝄞' });
  });

  it.each([
    ['a Latin-1 é', bytes(0x6e, 0x61, 0x6d, 0xe9, 0x0a), 3],
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['an overlong slash', bytes(0x61, 0x62, 0xc0, 0xaf), 2],
    ['a UTF-16 surrogate', bytes(0xed, 0xa0, 0x80), 0],
    ['a sequence cut off at the end', bytes(0x61, 0xe4, 0xb8), 1],
    ['a code point above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
  ])('refuses %s, naming the offset of the first bad byte', (_what, input, offset) => {
    expect(decodeUtf8(input)).toEqual({ ok: false, offset });
  });

  it('agrees with the platform’s strict decoder on every two-byte input', () => {
    // Two bytes cannot spell U+FFFD itself, so a replacement character means the decoder found a bad byte.
    const decoder = new TextDecoder('utf-8');
    const disagreements: string[] = [];
    for (let a = 0; a < 256; a++) {
      for (let b = 0; b < 256; b++) {
        const input = bytes(a, b);
        const valid = !decoder.decode(input).includes('\uFFFD');
        if ((firstInvalidUtf8Offset(input) === 2) !== valid) disagreements.push(`${a} ${b}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe('ckpt-lab exit codes', () => {
  it('gives an internal error exit code 3, apart from invalid input’s 2, and documents it', () => {
    const result = internalError(new TypeError('x is undefined'));
    expect(result).toEqual({ stdout: '', stderr: 'ckpt-lab: internal error: x is undefined\n(set CKPT_LAB_DEBUG=1 for the stack trace)\n', exitCode: 3 });
    expect(usage).toContain('3 internal error');
  });

  const bin = JSON.parse(readFileSync('package.json', 'utf8')).bin['ckpt-lab'];
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-lab-bad-input-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a scenario file that is not UTF-8 with the byte offset, exit 2', () => {
    const file = join(dir, 'latin1.yaml');
    writeFileSync(file, Buffer.from('version: 1\nname: caf\xe9\n', 'latin1'));
    const r = spawnSync(process.execPath, [bin, 'run', file], { encoding: 'utf8' });
    expect(r.stderr).toBe(`ckpt-lab run: cannot read scenario file "${file}": byte 20 (counted from 0) is not valid UTF-8; save the file as UTF-8\n`);
    expect(r.status).toBe(2);
  });
});
