/**
 * Lesson 9's write-stall steps on the live runtime: the lesson's scenario as the learner leaves it
 * after "Make writes stall" (and after "Give RocksDB more write buffers") runs in headless Chromium
 * on Web Worker TaskManagers through `ckpt-lab check --live`, and the steps' claims hold there as
 * in the sim: each window subtask's real wa-sqlite LSM tree hands full memtables to its
 * state.backend.rocksdb.thread.num background threads, whose flushes take the slow local disk's
 * time on the worker's job clock, so writes that find the write buffers used up stall (and with
 * four write buffers at most a tenth as many do).
 * Starts a browser: run it under `flock /tmp/chromium.lock`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { lessonScenarioInput } from '../../engine/lessons/lesson-scenario.ts';
import { parseScenarioText } from '../../engine/scenario/scenario-validator.ts';
import { runCkptLab } from '../cli/ckpt-lab-process.ts';

const lesson = LESSONS.find((l) => l.id === 'timers-and-compression')!;

let dir: string;

/** The lesson's scenario with the steps up to `title` done, and that step's "seen" expectations as its own. */
async function scenarioAfter(title: string): Promise<string> {
  // The lesson's own expectations are about its first steps (timers, compression); these steps slow the job on purpose.
  const parsed = parseScenarioText(await readFile(join('public', lesson.scenario), 'utf8'));
  if (!parsed.ok) throw new Error(`${lesson.scenario} does not parse`);
  const index = lesson.steps.findIndex((s) => s.title.en === title);
  const input = lessonScenarioInput(lesson, parsed.value as Record<string, unknown>, index + 1);
  const file = join(dir, `${index}.json`);
  await writeFile(file, JSON.stringify({ ...input, expectations: lesson.steps[index]!.seen }));
  return file;
}

async function checkLive(file: string) {
  const r = await runCkptLab(['check', '--live', file, '--json']);
  const [document] = JSON.parse(r.stdout) as { expectations: { description: string; held: boolean; seen: string }[] }[];
  return { r, expectations: document!.expectations };
}

const stallCount = (expectations: { description: string; seen: string }[]) => Number(expectations.find((e) => e.description.startsWith('lsm.write-stall.count'))!.seen);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lesson-live-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('stalls the window subtasks’ writes on real workers with one thread flushing 32 kb memtables to a slow disk, and nearly never with four write buffers', async () => {
  const stalled = await checkLive(await scenarioAfter('Make writes stall'));
  expect(stalled.expectations.map((e) => e.description)).toEqual(['lsm.write-stall.count of windows is at least 100', 'rocksdb.stall.micros of windows is at least 10000000']);
  expect(stalled.expectations.filter((e) => !e.held), stalled.r.stderr).toEqual([]);
  expect(stalled.r.exitCode).toBe(0);

  const buffered = await checkLive(await scenarioAfter('Give RocksDB more write buffers'));
  // The sim sees none. Live, the few left come right after checkpoints: the window subtask takes
  // its full snapshot on its own thread, and the records that came meanwhile arrive in a burst.
  expect(stallCount(buffered.expectations) * 10, buffered.r.stderr).toBeLessThanOrEqual(stallCount(stalled.expectations));
}, 300_000);
