/**
 * `npm run readme-media`: the README's pictures, taken from the real page so they stay current.
 * Starts the app's dev server and headless Chromium (the browser tests' flags), and writes
 *
 * - docs/media/playground.png: the first page a newcomer sees (lesson 1, running), paused at 6 s;
 * - docs/media/barrier-alignment.gif: lesson 5 (backpressure) in the sim, one checkpoint from just
 *   before its trigger to just after its last acknowledgement: the checkpoint timeline and the
 *   channel view, barriers queued behind the buffers and the Count's inputs blocked while they align.
 *
 * Not part of `npm test`. On a machine shared with browser tests: `flock /tmp/browser.lock npm run readme-media`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode } from 'fast-png';
import gifenc from 'gifenc';
import { chromium, type Page } from 'playwright-core';
import { createServer } from 'vite';
import type { PlaygroundApi, PlaygroundStats } from '../web/playground/api/playground-api-types.ts';
import { alignmentFrames, surveyTimes, type ChannelSample, type SurveyOptions } from './alignment-frames.ts';
import { CHROMIUM_ARGS, startAppDevServer } from './app-dev-server.ts';
import { findChromium } from './chromium-path.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MEDIA_DIR = join(REPO_ROOT, 'docs', 'media');
const PLAYGROUND_PNG = 'playground.png';
const ALIGNMENT_GIF = 'barrier-alignment.gif';

const ALIGNMENT_LESSON = 'backpressure-and-unaligned';
/** Checkpoints 1 and 2 start before the Sources' backpressure has filled the queues. */
const SURVEY: SurveyOptions = { fromCheckpointId: 3, marginMs: 150, sampleMs: 10 };
const EVEN_FRAMES = 14;
const ALIGNING_FRAMES = 8;
/** How long the run goes before frames are chosen: long enough for checkpoint 3 to complete. */
const SURVEY_UNTIL_MS = 6_000;
/** Tall enough that the first page's lesson, timeline and job graph fit on one screen. */
const VIEWPORT = { width: 1280, height: 1500 };
/** A cold dev server on a busy machine can take a while to serve the page's modules the first time. */
const PAGE_READY_MS = 120_000;
const FRAME_DELAY_MS = 250;
/** The first and last frames stay longer: before the barrier, and aligned and done. */
const HOLD_DELAY_MS = 1_500;

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

/** Resolves once the page has painted twice since the call: what the last state change drew is on screen. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

async function runUntil(page: Page, ms: number): Promise<void> {
  await page.evaluate((until) => window.playground!.runUntil(until).then(() => undefined), ms);
  await painted(page);
}

/** The newcomer's first page: lesson 1 open and running; paused once a few checkpoints completed. */
async function capturePlayground(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByTestId('lesson-title').waitFor({ timeout: PAGE_READY_MS });
  await page.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor({ timeout: PAGE_READY_MS });
  await runUntil(page, 6_000);
  // down to the job graph: the lesson, the run controls, the timeline and the channels
  const graph = await page.locator('.graph-panel').boundingBox();
  if (!graph) throw new Error('The job graph is not on the page.');
  await page.screenshot({ path: join(MEDIA_DIR, PLAYGROUND_PNG), clip: { x: 0, y: 0, width: VIEWPORT.width, height: Math.min(VIEWPORT.height, graph.y + graph.height + 12) } });
}

/** The part of the page the GIF shows: from the checkpoint timeline's top to the channel view's bottom. */
async function alignmentClip(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const timeline = await page.getByTestId('checkpoint-timeline').boundingBox();
  const graph = await page.locator('.graph-panel').boundingBox();
  if (!timeline || !graph) throw new Error('The checkpoint timeline or the job graph is not on the page.');
  const x = Math.min(timeline.x, graph.x);
  const width = Math.max(timeline.x + timeline.width, graph.x + graph.width) - x;
  return { x, y: timeline.y, width, height: graph.y + graph.height - timeline.y };
}

async function openAlignmentLesson(page: Page): Promise<void> {
  await page.evaluate((id) => window.playground!.openLesson(id, 1).then(() => undefined), ALIGNMENT_LESSON);
  await page.locator('[data-testid="job-graph"] [data-vertex-id]').first().waitFor();
}

/** What the channel view shows now: its counts of barriers and of blocked inputs. */
async function channelSample(page: Page, time: number): Promise<ChannelSample> {
  const data = await page.getByTestId('channel-layer').evaluate((layer) => ({ ...(layer as HTMLElement).dataset }));
  return { time, barriers: Number(data['barriers'] ?? 0), blocked: Number(data['blocked'] ?? 0) };
}

/**
 * The lesson's run three times: to choose the checkpoint, to sample the channel view over it, and
 * to capture the chosen frames (the sim runs the same each time).
 */
async function captureAlignment(page: Page): Promise<{ checkpointId: number; frames: number; aligning: number }> {
  await openAlignmentLesson(page);
  await runUntil(page, SURVEY_UNTIL_MS);
  const stats = (await page.evaluate(() => window.playground!.stats())) as PlaygroundStats;
  const survey = surveyTimes(stats.checkpoints.history, SURVEY);
  await openAlignmentLesson(page);
  const samples: ChannelSample[] = [];
  for (const time of survey.times) {
    await runUntil(page, time);
    samples.push(await channelSample(page, time));
  }
  const times = alignmentFrames(samples, EVEN_FRAMES, ALIGNING_FRAMES);
  await openAlignmentLesson(page);
  await writeFile(join(MEDIA_DIR, ALIGNMENT_GIF), await encodeFrames(page, times));
  return { checkpointId: survey.checkpointId, frames: times.length, aligning: samples.filter((s) => s.blocked > 0).length };
}

/**
 * The GIF of the clip at each run time; the first and last frames held longer. One palette, from
 * the first frame (its legend holds every colour the view draws), and after the first frame only
 * the pixels that changed: the rest is transparent over the frame before, a fifth of the bytes.
 */
async function encodeFrames(page: Page, times: readonly number[]): Promise<Uint8Array> {
  // the runs scrolled the page: the clip is measured where the frames are taken
  await page.getByTestId('checkpoint-timeline').scrollIntoViewIfNeeded();
  const gif = gifenc.GIFEncoder();
  let palette: number[][] | undefined;
  let previous: Uint8Array | undefined;
  for (const [i, time] of times.entries()) {
    await runUntil(page, time);
    const png = decode(await page.screenshot({ clip: await alignmentClip(page) }));
    const rgba = toRgba(png.data, png.channels);
    palette ??= gifenc.quantize(rgba, UNCHANGED);
    const index = gifenc.applyPalette(rgba, palette);
    const delay = i === 0 || i === times.length - 1 ? HOLD_DELAY_MS : FRAME_DELAY_MS;
    if (previous === undefined || previous.length !== index.length) {
      // a full 256-colour table, so that UNCHANGED is an index in it
      const table = Array.from({ length: 256 }, (_, c) => palette![c] ?? [255, 0, 255]);
      gif.writeFrame(index, png.width, png.height, { palette: table, delay, repeat: 0 });
    } else {
      gif.writeFrame(onlyChanged(index, previous), png.width, png.height, { delay, transparent: true, transparentIndex: UNCHANGED, dispose: 1 });
    }
    previous = index;
  }
  gif.finish();
  return gif.bytes();
}

/** The palette index of "as in the frame before" (transparent); the colours take the 255 below it. */
const UNCHANGED = 255;

function onlyChanged(index: Uint8Array, previous: Uint8Array): Uint8Array {
  return index.map((colour, i) => (colour === previous[i] ? UNCHANGED : colour));
}

/** Chromium's screenshots are 8-bit RGB or RGBA; the GIF encoder takes RGBA. */
function toRgba(data: ArrayLike<number>, channels: number): Uint8Array {
  if (channels === 4) return Uint8Array.from(data);
  if (channels !== 3) throw new Error(`Expected an RGB or RGBA screenshot; got ${channels} channels.`);
  const rgba = new Uint8Array((data.length / 3) * 4);
  for (let p = 0, q = 0; p < data.length; p += 3, q += 4) {
    rgba[q] = data[p]!;
    rgba[q + 1] = data[p + 1]!;
    rgba[q + 2] = data[p + 2]!;
    rgba[q + 3] = 255;
  }
  return rgba;
}

async function main(): Promise<void> {
  await mkdir(MEDIA_DIR, { recursive: true });
  const { server, baseUrl } = await startAppDevServer(createServer, 'warn');
  const profileDir = await mkdtemp(join(tmpdir(), 'ckpt-readme-media-'));
  try {
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: findChromium(),
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
      locale: 'en-US',
      colorScheme: 'light',
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await capturePlayground(page, baseUrl);
      const gif = await captureAlignment(page);
      console.log(
        `Wrote docs/media/${PLAYGROUND_PNG} and docs/media/${ALIGNMENT_GIF}: checkpoint ${gif.checkpointId} of lesson 5 in ${gif.frames} frames (inputs blocked in ${gif.aligning} samples).`,
      );
    } finally {
      await context.close();
    }
  } finally {
    await rm(profileDir, { recursive: true, force: true });
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(`readme-media: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
