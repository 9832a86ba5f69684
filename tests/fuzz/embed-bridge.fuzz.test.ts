/**
 * The embed page's postMessage handler (EmbedBridge): any message from any window and origin is
 * ignored (not the protocol), refused (not the embedding parent, or an origin not allowed), or
 * answered once with the API's result or its error — never an exception or an unhandled
 * rejection, and the API runs only for the parent on an allowed origin.
 */
import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { EmbedBridge, OriginPolicy } from '../../web/embed/embed-bridge.ts';
import { EMBED_PROTOCOL } from '../../web/embed/embed-protocol.ts';
import { hostileKey, hostileScalar, hostileTree, HOSTILE_STRINGS, InputCounter, PROTOTYPE_KEYS, runs, treeValue, expectNoPollution } from './fuzz-support.ts';

const counter = new InputCounter('embed postMessage handler');

const OWN = 'https://playground.example.org';
const DOCS = 'https://docs.example.org';
const METHOD_NAMES = ['load', 'start', 'pause', 'status', 'stats', 'rescale', 'killTaskManager', 'seek', 'openLesson', 'on', 'version'];

type Outcome = 'resolve' | 'throw' | 'reject-non-error' | 'return-undefined';

/** A window as the bridge sees one: something it can post to, recording what it got. */
class FakeWindow {
  readonly received: unknown[] = [];
  postMessage(message: unknown): void {
    this.received.push(structuredClone(message));
  }
}

function harness(allowed: string[], outcome: Outcome) {
  const calls: string[] = [];
  const api = new Proxy({} as Record<string, unknown>, {
    get: (_target, name) => {
      if (name === 'on') return () => () => undefined;
      return (...args: unknown[]) => {
        calls.push(String(name));
        if (outcome === 'throw') throw new Error(`${String(name)} refused ${args.length} arguments`);
        if (outcome === 'reject-non-error') return Promise.reject(42);
        return outcome === 'resolve' ? Promise.resolve({ name: String(name) }) : undefined;
      };
    },
  }) as unknown as PlaygroundApi;
  let handler: ((event: MessageEvent) => void) | undefined;
  const target = { addEventListener: (_type: string, h: (event: MessageEvent) => void) => (handler = h), removeEventListener: () => undefined } as unknown as Window;
  const parent = new FakeWindow();
  const other = new FakeWindow();
  new EmbedBridge(api, new OriginPolicy(allowed, OWN)).listen(target, parent as unknown as Window);
  return { calls, parent, other, deliver: (event: Partial<MessageEvent>) => handler!(event as MessageEvent) };
}

/** Lets the bridge's async handler finish (it awaits the API's promise before replying). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const request = fc.record(
  {
    protocol: fc.oneof(fc.constant(EMBED_PROTOCOL), fc.constant(EMBED_PROTOCOL), hostileScalar),
    type: fc.oneof(fc.constantFrom('call', 'subscribe', 'unsubscribe'), hostileKey),
    id: hostileScalar,
    method: fc.oneof(fc.constantFrom(...METHOD_NAMES), fc.constantFrom(...PROTOTYPE_KEYS), hostileKey),
    args: fc.oneof(fc.array(hostileTree.map(treeValue), { maxLength: 3 }), hostileTree.map(treeValue)),
    event: fc.oneof(fc.constantFrom('*', 'checkpoint-completed'), hostileKey),
    subscription: hostileScalar,
  },
  { requiredKeys: ['protocol', 'type'] },
);

const message = fc.record({
  data: fc.oneof(request, hostileTree.map(treeValue), fc.constantFrom(...HOSTILE_STRINGS)),
  origin: fc.constantFrom(OWN, DOCS, 'https://evil.example.org', 'null', 'https://docs.example.org.evil.com', ...HOSTILE_STRINGS),
  from: fc.constantFrom('parent' as const, 'other' as const, 'none' as const, 'not-a-window' as const),
  allowed: fc.constantFrom<string[]>([DOCS], ['*'], [], ['not a url', DOCS]),
  outcome: fc.constantFrom<Outcome>('resolve', 'throw', 'reject-non-error', 'return-undefined'),
});

describe('fuzzing the embed postMessage handler', () => {
  // every refusal is also a console warning: hundreds of them would bury the test output
  beforeAll(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
  afterAll(() => vi.restoreAllMocks());

  it('ignores, refuses or answers once every message, and runs the API only for the parent on an allowed origin', async () => {
    await fc.assert(
      fc.asyncProperty(message, async ({ data, origin, from, allowed, outcome }) => {
        counter.count(data);
        const h = harness(allowed, outcome);
        const source = from === 'parent' ? h.parent : from === 'other' ? h.other : from === 'none' ? null : {};
        h.deliver({ data, origin, source: source as MessageEventSource | null });
        await settle();
        expectNoPollution();
        const isProtocol = typeof data === 'object' && data !== null && (data as { protocol?: unknown }).protocol === EMBED_PROTOCOL && ['call', 'subscribe', 'unsubscribe'].includes((data as { type?: unknown }).type as string);
        const replies = [...h.parent.received, ...h.other.received];
        expect(replies).toHaveLength(isProtocol && (from === 'parent' || from === 'other') ? 1 : 0);
        const mayRun = from === 'parent' && origin !== 'null' && (allowed.includes('*') || origin === OWN || origin === DOCS);
        if (!mayRun) expect(h.calls).toEqual([]);
        for (const reply of replies as Array<{ ok: boolean; error?: unknown; refused?: boolean }>) {
          if (!reply.ok) expect(typeof reply.error === 'string' && reply.error.trim() !== '').toBe(true);
          if (!mayRun) expect(reply).toMatchObject({ ok: false, refused: true });
        }
      }),
      runs(500),
    );
  });

  it('renders no string as HTML anywhere in the page, so a message or a scenario cannot inject markup', () => {
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    const rendering = files('web').filter((f) => /\.(svelte|ts)$/.test(f)).filter((f) => /\{@html|\.innerHTML\s*=|insertAdjacentHTML|document\.write/.test(readFileSync(f, 'utf8')));
    expect(rendering).toEqual([]);
  });
});
