/**
 * The Playground API's corruptLocalCopy and deleteLocalCopy take `{ key_group }` as the scenario
 * faults do, in real Chromium (sim driver): damaging one key-group handle of count#1's local copy
 * before tm-1 is killed makes the restore read that handle remote and the other three locally;
 * a key_group that is not a key group is refused with a message naming it, and nothing is damaged.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inPage } from './playground-in-page.ts';
import { openPlaygroundSession, REPO_ROOT, type BrowserSession } from './browser-session.ts';

/** partial-local-copy.yaml without its faults: the test damages the copy through the API. */
async function scenarioWithoutFaults(): Promise<string> {
  const text = await readFile(join(REPO_ROOT, 'public', 'scenarios', 'partial-local-copy.yaml'), 'utf8');
  return text.replace(/faults:\n(  .*\n)+/, 'faults: []\n');
}

describe('corruptLocalCopy and deleteLocalCopy with { key_group }', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openPlaygroundSession();
  });

  afterAll(async () => {
    await session?.close();
  });

  it.each([
    ['deleteLocalCopy', 'partial'],
    ['corruptLocalCopy', 'corrupt'],
  ] as const)('%s of key group 64 makes count#1 read key groups 64–79 remote (%s) and the rest from its host', async (call, reason) => {
    const text = await scenarioWithoutFaults();
    const count1 = await inPage(
      session,
      async (api, [scenario, method]) => {
        await api.load(scenario);
        await api.runUntil(3500);
        await api[method]('host-1', 'count', 1, { key_group: 64 });
        await api.killTaskManager('tm-1');
        await api.runUntil(6000);
        const restore = (await api.stats()).restores[0]!;
        return restore.subtasks.find((s) => s.vertexId === 'count' && s.subtaskIndex === 1)!;
      },
      [text, call] as const,
    );
    expect([count1.source, count1.reason]).toEqual(['remote', reason]);
    expect(count1.handles!.map((h) => [h.keyGroupRange?.start, h.source])).toEqual([
      [64, 'remote'],
      [80, 'local'],
      [96, 'local'],
      [112, 'local'],
    ]);
  });

  it.each([-1, 1.5, '64'])('refuses key_group %j with a message naming key_group', async (keyGroup) => {
    const message = await inPage(
      session,
      async (api, [scenario, group]) => {
        await api.load(scenario);
        await api.runUntil(3500);
        try {
          await api.deleteLocalCopy('host-1', 'count', 1, { key_group: group as number });
          return 'resolved';
        } catch (error) {
          return (error as Error).message;
        }
      },
      [await scenarioWithoutFaults(), keyGroup] as const,
    );
    expect(message).toBe(`deleteLocalCopy(host, vertexId, subtask, { key_group }): key_group must be a key group (an integer, 0 or more), got ${JSON.stringify(keyGroup)}.`);
  });
});
