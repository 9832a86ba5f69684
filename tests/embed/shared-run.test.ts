import { afterEach, describe, expect, it } from 'vitest';
import { encodeScenario, ShareLinkError } from '../../web/embed/share-link.ts';
import { sharedRunFromHash, sharedRunLink } from '../../web/embed/shared-run.ts';
import { shareLinkProblemText } from '../../web/i18n/share-link-text.ts';
import { i18n } from '../../web/i18n/i18n.svelte.ts';
import type { ScheduledOperation } from '../../engine/job/scheduled-operation.ts';

const YAML = 'version: 1\nname: 雪 & "quotes"\n';
const OPERATIONS: ScheduledOperation[] = [
  { at_ms: 111, operation: { type: 'rescale', vertex: 'count', parallelism: 2 } },
  { at_ms: 2137.5, operation: { type: 'restart-from-savepoint' } },
  { at_ms: 3000, operation: { type: 'restart-from-savepoint', savepoint: 4 } },
  { at_ms: 4000, operation: { type: 'cancel' } },
];
const linkWith = (operations: unknown, at?: string) => `#scenario=${encodeScenario(YAML)}&operations=${encodeScenario(JSON.stringify(operations))}${at === undefined ? '' : `&at=${at}`}`;

function problem(hash: string): string {
  try {
    sharedRunFromHash(hash);
  } catch (error) {
    expect(error).toBeInstanceOf(ShareLinkError);
    return shareLinkProblemText(error);
  }
  throw new Error('the link was read');
}

describe('a run link', () => {
  afterEach(() => i18n.setLocale('en', false));

  it('carries the scenario, its operator requests and the time to open it at', () => {
    const link = sharedRunLink('http://127.0.0.1:5173/lessons/x', YAML, OPERATIONS, 966.4567891);
    expect(link.startsWith('http://127.0.0.1:5173/lessons/#scenario=')).toBe(true);
    expect(sharedRunFromHash(new URL(link).hash)).toEqual({ text: YAML, operations: OPERATIONS, atMs: 966.457 });
  });

  it('is a plain share link without them', () => {
    expect(sharedRunFromHash(`#scenario=${encodeScenario(YAML)}`)).toEqual({ text: YAML, operations: [] });
    expect(sharedRunFromHash('#at=5')).toBeNull();
  });

  it.each([
    ['at is not a number', linkWith([], 'soon'), `the link's at is "soon": give a job time in milliseconds, 0 or more`],
    ['at is negative', linkWith([], '-1'), `the link's at is "-1": give a job time in milliseconds, 0 or more`],
    ['operations are not JSON', `#scenario=${encodeScenario(YAML)}&operations=${encodeScenario('[{')}`, "the link's operations are not a base64url JSON list of at most 100 operator requests, as the chaos runner writes it"],
    ['operations are an object', linkWith({ at_ms: 1 }), "the link's operations are not a base64url JSON list of at most 100 operator requests, as the chaos runner writes it"],
    ['an operation has no time', linkWith([{ operation: { type: 'cancel' } }]), 'operation 1 of the link: at_ms must be a job time in milliseconds, 0 or more'],
    ['an operation is unknown', linkWith([OPERATIONS[0], { at_ms: 5, operation: { type: 'stop' } }]), 'operation 2 of the link: operation.type must be rescale, restart-from-savepoint or cancel'],
    ['a rescale names no vertex', linkWith([{ at_ms: 5, operation: { type: 'rescale', parallelism: 2 } }]), 'operation 1 of the link: a rescale names its vertex (operation.vertex, a vertex id)'],
    ['a rescale asks for parallelism 0', linkWith([{ at_ms: 5, operation: { type: 'rescale', vertex: 'count', parallelism: 0 } }]), 'operation 1 of the link: operation.parallelism must be a whole number from 1 to 32768'],
    ['a savepoint id is a fraction', linkWith([{ at_ms: 5, operation: { type: 'restart-from-savepoint', savepoint: 1.5 } }]), 'operation 1 of the link: operation.savepoint, when given, must be a savepoint id (a whole number from 1)'],
  ])('is refused, naming the part, when %s', (_why, hash, message) => {
    expect(problem(hash)).toBe(message);
  });

  it('says what is wrong in Chinese too', async () => {
    await i18n.setLocale('zh-CN', false);
    expect(problem(linkWith([], 'soon'))).toBe('链接中的 at 为 "soon"：请给出以毫秒计的作业时间（0 或更大）');
    expect(problem(linkWith([{ at_ms: 5, operation: { type: 'rescale', vertex: 'count', parallelism: 0 } }]))).toBe('链接中的第 1 个操作：operation.parallelism 必须是 1 到 32768 之间的整数');
  });

  it('drops fields an operation does not have', () => {
    const run = sharedRunFromHash(linkWith([{ at_ms: 1, operation: { type: 'cancel', vertex: 'x', __proto__: { polluted: true } }, extra: 1 }]));
    expect(run!.operations).toEqual([{ at_ms: 1, operation: { type: 'cancel' } }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
