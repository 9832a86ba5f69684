/**
 * The page's first chunk holds English only: the Chinese UI text is a chunk of its own that the
 * i18n layer imports when the page is in Chinese (web/i18n/locale.ts). Checked on the module graph
 * the bundler starts from: every module web/main.ts reaches through static imports (dynamic
 * `import()` starts another chunk; type-only imports are erased).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../browser/browser-session.ts';
import { en, zhCN, type MessageKey } from '../../web/i18n/messages.ts';
import { zhCNBundle } from '../../web/i18n/zh-CN/locale-zh-cn.ts';
import { staticGraph } from '../support/static-module-graph.ts';

const firstPage = staticGraph(join(REPO_ROOT, 'web/main.ts'));

describe('the page’s locale chunks', () => {
  it('reaches the i18n layer and the English text statically, so the first page renders at once', () => {
    const files = [...firstPage].map((file) => relative(REPO_ROOT, file));
    expect(files).toContain('web/i18n/i18n.svelte.ts');
    expect(files).toContain('web/i18n/messages-en.ts');
  });

  it('keeps the Chinese UI text out of the first page’s static module graph', () => {
    const chinese = [...firstPage].map((file) => relative(REPO_ROOT, file)).filter((file) => file.startsWith('web/i18n/zh-CN/') || file === 'web/i18n/messages.ts' || file === 'web/i18n/option-descriptions.ts');
    expect(chinese).toEqual([]);
    // and no module of it carries a copy of the header's Chinese
    const copies = [...firstPage].filter((file) => readFileSync(file, 'utf8').includes(zhCN['app.tagline'])).map((file) => relative(REPO_ROOT, file));
    expect(copies).toEqual([]);
  });

  it('loads the zh-CN chunk with every message of the English one translated', () => {
    const keys = Object.keys(en) as MessageKey[];
    const untranslated = keys.filter((key) => typeof zhCNBundle.messages[key] !== 'string' || zhCNBundle.messages[key] === '');
    expect(untranslated).toEqual([]);
    expect(zhCNBundle.messages['app.title']).toBe(zhCN['app.title']);
  });
});
