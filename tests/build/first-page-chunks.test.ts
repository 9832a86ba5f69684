/**
 * What the playground's first page loads before it runs, read from a real build's manifest: the
 * entry chunk of index.html and every chunk it imports statically (what the browser fetches at
 * start; `dynamicImports` are fetched later). The first page is English (or the reader's language)
 * and lesson 1: the engine's Chinese messages and the lessons' Chinese (titles, lesson 1's text)
 * come with the page's Chinese, and lessons 2–12 each with a chunk of its own, so none of them
 * may be among those chunks.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { LESSON_LANGUAGES, type Lesson, type LessonLanguage, type LocalizedText } from '../../engine/lessons/lesson.ts';
import { REPO_ROOT } from '../browser/browser-session.ts';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

let outDir: string;
let manifest: Manifest;

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'first-page-chunks-'));
  // A build as `npm run build` makes it, in a process of its own: this one runs with NODE_ENV=test.
  const { NODE_ENV: _, ...env } = process.env;
  execFileSync(join(REPO_ROOT, 'node_modules/.bin/vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}, 600_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The chunks a page's entry loads before it runs: the entry and its static imports, transitively. */
function initialChunks(entry: string): string[] {
  const files = new Set<string>();
  const pending = [entry];
  for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) continue;
    files.add(chunk.file);
    pending.push(...(chunk.imports ?? []));
  }
  return [...files];
}

function codeOf(files: readonly string[]): string {
  return files.map((file) => readFileSync(join(outDir, file), 'utf8')).join('\n');
}

/** Every chunk of the build that is not in `files`. */
function otherChunks(files: readonly string[]): string[] {
  const all = new Set(Object.values(manifest).map((chunk) => chunk.file).filter((file) => file.endsWith('.js')));
  return [...all].filter((file) => !files.includes(file));
}

/** The runs of six or more Chinese characters in a source file: words the file alone holds. */
function chineseRuns(file: string): string[] {
  return [...new Set(readFileSync(join(REPO_ROOT, file), 'utf8').match(/[\u4e00-\u9fff，。：；、（）]{6,}/g) ?? [])];
}

/** Of a text, the longest stretch without a quote or backslash (which the minifier may escape), 60 characters at most. */
function probe(text: string): string {
  return text.split(/["'`\\]/).reduce((a, b) => (b.length > a.length ? b : a), '').slice(0, 60);
}

/** A lesson's running text: its paragraphs and its steps' bodies. */
function lessonTextsOf(lesson: Lesson): LocalizedText[] {
  return [...lesson.paragraphs, ...lesson.steps.map((step) => step.body)];
}

/**
 * A lesson's running text (paragraphs and step bodies) in `language`, as probes long enough that no
 * option key or other text of the page holds them.
 */
function lessonProbes(lesson: Lesson, language: LessonLanguage): string[] {
  return lessonTextsOf(lesson).map((text) => probe(text[language])).filter((p) => p.length >= 20);
}

describe('the first page’s chunks', () => {
  it('hold none of the engine’s Chinese messages, which come with the zh-CN chunk', () => {
    const initial = initialChunks('index.html');
    const runs = chineseRuns('engine/messages/zh-cn-messages.ts');
    expect(runs.length).toBeGreaterThan(50);
    const firstPage = codeOf(initial);
    expect(runs.filter((run) => firstPage.includes(run))).toEqual([]);
    // and the probes do find them where they are: in a chunk loaded later
    const later = codeOf(otherChunks(initial));
    expect(runs.filter((run) => later.includes(run)).length).toBe(runs.length);
  }, 600_000);

  it('hold lesson 1 whole in English and no paragraph or step of lessons 2 to 12, each a chunk of its own', () => {
    const firstPage = codeOf(initialChunks('index.html'));
    const [first, ...others] = LESSONS;
    expect(lessonProbes(first!, 'en').filter((p) => !firstPage.includes(p))).toEqual([]);
    expect(others).toHaveLength(11);
    for (const lesson of others) {
      const probes = LESSON_LANGUAGES.flatMap((language) => lessonProbes(lesson, language));
      expect(probes.length, lesson.id).toBeGreaterThan(2);
      expect(probes.filter((p) => firstPage.includes(p)), lesson.id).toEqual([]);
    }
  }, 600_000);

  it('list every lesson by its English title, and hold no Chinese of the lessons, which comes with the page’s Chinese', () => {
    const initial = initialChunks('index.html');
    const firstPage = codeOf(initial);
    const english = LESSONS.map((lesson) => probe(lesson.title.en));
    expect(english.filter((title) => !firstPage.includes(title))).toEqual([]);
    const chinese = [...LESSONS.flatMap((lesson) => [lesson.title, ...lesson.steps.map((step) => step.title)]), ...lessonTextsOf(LESSONS[0]!)].map((text) => probe(text['zh-CN']));
    expect(chinese.length).toBeGreaterThan(40);
    expect(chinese.filter((text) => firstPage.includes(text))).toEqual([]);
    // and the probes do find them where they are: in a chunk loaded later
    const later = codeOf(otherChunks(initial));
    expect(chinese.filter((text) => !later.includes(text))).toEqual([]);
  }, 600_000);
});
