import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * English text a user reads says "1 sink" and "2 sinks", never "sink(s)": a count goes through a
 * plural branch (Intl.PluralRules) or the sentence is written so that it needs none. The files
 * scanned are where English for users is written: the page's catalogues, the engine's message
 * codes, the doctor's findings and the CLI's reports.
 */
const ROOT = join(import.meta.dirname, '../..');
const SOURCES = [
  ...listed('web/i18n', (f) => /^messages.*\.ts$/.test(f)),
  'engine/messages/english-messages.ts',
  'engine/doctor/doctor-messages.ts',
  ...listed('engine/cli', (f) => f.endsWith('.ts')),
];

function listed(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir)).filter(keep).map((f) => `${dir}/${f}`);
}

/** Each string literal's text in a source file (quotes, apostrophes and template literals). */
function literals(source: string): string[] {
  return [...source.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);
}

describe('English plurals', () => {
  it.each(SOURCES)('%s has no "word(s)" in a string a user reads', (file) => {
    const offending = literals(readFileSync(join(ROOT, file), 'utf8')).filter((text) => /[A-Za-z]\(s\)/.test(text));
    expect(offending).toEqual([]);
  });

  it('scans the catalogues it names', () => {
    expect(SOURCES.length).toBeGreaterThan(20);
  });
});
