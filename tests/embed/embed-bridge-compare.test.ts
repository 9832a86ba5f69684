/**
 * Compare mode over the embed bridge: an embedding page's postMessage calls `compare`,
 * `comparison` and `closeCompare` reach the Playground API of the embedded playground, as
 * `window.playground` calls do, and come back as `result` messages: the comparison of two real
 * sim runs, a refusal's message, null once closed. A window other than the embedding parent is
 * refused and opens nothing.
 */
import { describe, expect, it } from 'vitest';
import { CompareState } from '../../web/compare/compare-state.svelte.ts';
import { EmbedBridge, OriginPolicy } from '../../web/embed/embed-bridge.ts';
import { EMBED_PROTOCOL, type EmbedResponse } from '../../web/embed/embed-protocol.ts';
import { createPlaygroundApi } from '../../web/playground/api/playground-api.ts';
import type { Comparison } from '../../web/playground/api/playground-api-types.ts';
import { PlaygroundState } from '../../web/playground-state.svelte.ts';
import { tiny } from '../cli/tiny-scenario.ts';
import { FakeWindow } from './fake-window.ts';

const DOCS = 'https://docs.example.org';

async function embedded() {
  const playground = new PlaygroundState();
  const compare = new CompareState(playground);
  const api = createPlaygroundApi(playground, undefined, compare);
  // the state's own load: the API's also fetches the browser's wa-sqlite, which this job (heap state) does not use
  await playground.load(tiny('  - { type: job-status, status: FINISHED }\n'));
  const frame = new FakeWindow();
  const parent = new FakeWindow();
  new EmbedBridge(api, new OriginPolicy([DOCS], 'https://playground.example.org')).listen(frame as unknown as Window, parent as unknown as Window);
  let id = 0;
  /** The parent calls `method`; resolves with the frame's `result`. */
  const call = async (method: string, args: unknown[], from = parent): Promise<EmbedResponse> => {
    const callId = ++id;
    frame.deliver({ protocol: EMBED_PROTOCOL, type: 'call', id: callId, method, args }, from, DOCS);
    await expect.poll(() => from.received.find((m) => m.type === 'result' && m.id === callId), { timeout: 60_000 }).toBeDefined();
    return from.received.find((m) => m.type === 'result' && m.id === callId)!;
  };
  return { playground, compare, call };
}

describe('compare mode through the embed bridge', () => {
  it('answers compare(variation, { until }) with the comparison of both sim runs, and comparison() with the same', async () => {
    const { call, compare } = await embedded();
    const result = await call('compare', ['local-recovery', { until: '2 s' }]);
    expect(result).toMatchObject({ type: 'result', ok: true });
    const comparison = (result as { value: Comparison }).value;
    expect([comparison.variation, comparison.runtime, comparison.noise]).toEqual(['local-recovery', 'sim', { relative: 0.1, absoluteMs: 0 }]);
    // the job finishes before 2 s (its restart waits out Flink's 1 s restart delay), both sides at the same time
    expect(comparison.time).toBeGreaterThan(1000);
    expect([comparison.a.time, comparison.b.time]).toEqual([comparison.time, comparison.time]);
    expect(comparison.b.options).toEqual({ 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true });
    expect(comparison.differences.find((d) => d.code === 'restored-from-local')).toMatchObject({ a: 0, b: 2 });
    expect(compare.open).toBe(true);
    const again = await call('comparison', []);
    expect((again as { value: Comparison }).value).toEqual(comparison);
    compare.close();
  }, 120_000);

  it('sends back the refusal of an unknown variation as an error naming the allowed ones', async () => {
    const { call } = await embedded();
    const result = await call('compare', ['fast-vs-slow']);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^variation: "fast-vs-slow" is not a compare variation; allowed: full-vs-incremental, /) });
  });

  it('closes compare mode on closeCompare(), after which comparison() is null', async () => {
    const { call, compare } = await embedded();
    await call('compare', ['min-pause']);
    expect(await call('closeCompare', [])).toMatchObject({ ok: true });
    expect(compare.open).toBe(false);
    expect(await call('comparison', [])).toMatchObject({ ok: true, value: null });
  }, 60_000);

  it('refuses compare() from a window that is not the embedding parent, and opens nothing', async () => {
    const { call, compare } = await embedded();
    const result = await call('compare', ['min-pause'], new FakeWindow());
    expect(result).toMatchObject({ ok: false, refused: true });
    expect(compare.open).toBe(false);
  });
});
