/**
 * Every piece of text a user reads goes through the i18n layer, in English and Simplified Chinese:
 * no view writes a word a reader sees as a literal. Svelte markup is read with Svelte's own parser
 * (its text, the attributes a reader or a screen reader gets, what its expressions render); the
 * views' TypeScript where a literal goes straight to the screen (a chart's series and axis labels,
 * titles, textContent, a canvas's fillText). The scanner is tests/support/literal-ui-text.ts.
 */
import { describe, expect, it } from 'vitest';
import { literalUiText, naturalLanguage } from '../support/literal-ui-text.ts';
import { sourceFiles } from '../support/source-files.ts';

/** The catalogues are the i18n layer itself. */
const CATALOGUES = 'web/i18n';
/**
 * The live runtime's test page (web/live/live-test.html): a harness the browser tests drive,
 * which reports figures for them and is not a page for users.
 */
const TEST_PAGE = 'web/live/live-test.ts';

/**
 * Literals allowed in one place, each with why. The custom element runs in the embedding page,
 * without the catalogues: its iframe is named after the product unless the author's page gives
 * the element a `title` in its own language.
 */
const ALLOWED: ReadonlyArray<{ file: string; text: string }> = [{ file: 'web/embed/checkpoint-playground-element.ts', text: 'Checkpoint Playground' }];

const VIEWS = [...sourceFiles('web', [CATALOGUES], /\.svelte$/), ...sourceFiles('web', [CATALOGUES], /(?<!\.d)\.ts$/).filter((file) => file !== TEST_PAGE)];

describe('text a user reads comes from the i18n layer', () => {
  it('finds views to read: every Svelte component and the views’ TypeScript', () => {
    expect(VIEWS.filter((file) => file.endsWith('.svelte')).length).toBeGreaterThan(50);
    expect(VIEWS).toContain('web/dashboard/gantt-png.ts');
    expect(VIEWS).toContain('web/charts/TimeChart.svelte');
  });

  it.each(VIEWS)('%s writes no words for a reader as literals', (file) => {
    const literals = literalUiText(file).filter((found) => !ALLOWED.some((allowed) => allowed.file === file && allowed.text === found.text));
    expect(literals.map((found) => `${found.file}:${found.line} ${found.where} ${JSON.stringify(found.text)}`)).toEqual([]);
  });
});

describe('what counts as words for a reader', () => {
  it.each(['Show more', 'slot', '检查点', 'Checkpoint {id}', 'of '])('counts %j', (text) => {
    expect(naturalLanguage(text)).toBe(true);
  });

  it.each(['—', ' · ', '42', '12 ms', '3×', '(', 'execution.checkpointing.interval', 'rocksdb.block.cache.hit · lsm.flush.count', 'chk-', 'shared/', 'https://docs.example.org', 's'])(
    'does not count %j',
    (text) => {
      expect(naturalLanguage(text)).toBe(false);
    },
  );
});
