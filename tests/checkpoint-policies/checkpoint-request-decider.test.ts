import { describe, expect, it } from 'vitest';
import {
  CheckpointRequestDecider,
  type CheckpointTriggerRequest,
  type DeciderOutcome,
  type DeciderState,
} from '../../engine/checkpoint/checkpoint-request-decider.ts';

let nextSeq = 0;

function periodic(timestamp: number, seq = nextSeq++): CheckpointTriggerRequest {
  return { seq, timestamp, isPeriodic: true, isSavepoint: false, isForce: false, checkpointType: 'CONFIGURED' };
}

function userCheckpoint(timestamp: number, seq = nextSeq++): CheckpointTriggerRequest {
  return { seq, timestamp, isPeriodic: false, isSavepoint: false, isForce: false, checkpointType: 'FULL' };
}

/** With unaligned checkpoints off the coordinator forces savepoints (CheckpointProperties.forSavepoint). */
function savepoint(timestamp: number, isForce = true, seq = nextSeq++): CheckpointTriggerRequest {
  return { seq, timestamp, isPeriodic: false, isSavepoint: true, isForce, checkpointType: 'CONFIGURED' };
}

function forcedCheckpoint(timestamp: number, seq = nextSeq++): CheckpointTriggerRequest {
  return { seq, timestamp, isPeriodic: false, isSavepoint: false, isForce: true, checkpointType: 'CONFIGURED' };
}

const idle: DeciderState = { isTriggering: false, pendingCheckpoints: 0, lastCompletionTime: -Infinity, now: 0 };

function decider(options: Partial<{ maxConcurrentCheckpoints: number; minPauseMs: number; maxQueuedRequests: number }> = {}) {
  return new CheckpointRequestDecider({ maxConcurrentCheckpoints: 1, minPauseMs: 0, ...options });
}

function seqs(requests: readonly CheckpointTriggerRequest[]): number[] {
  return requests.map((r) => r.seq);
}

describe('CheckpointRequestDecider queue order', () => {
  it.each<[string, CheckpointTriggerRequest[], number[]]>([
    ['a savepoint before a forced checkpoint', [forcedCheckpoint(0, 1), savepoint(5, true, 2)], [2, 1]],
    ['an unforced savepoint (UC on) still before a forced checkpoint', [forcedCheckpoint(0, 1), savepoint(5, false, 2)], [2, 1]],
    ['a forced savepoint before an unforced one', [savepoint(0, false, 1), savepoint(5, true, 2)], [2, 1]],
    ['a forced checkpoint before a user checkpoint', [userCheckpoint(0, 1), forcedCheckpoint(5, 2)], [2, 1]],
    ['a user checkpoint before an older periodic one', [periodic(0, 1), userCheckpoint(5, 2)], [2, 1]],
    ['the older periodic request first', [periodic(7, 1), periodic(3, 2)], [2, 1]],
    ['equal timestamps by sequence number', [periodic(3, 9), periodic(3, 4)], [4, 9]],
    [
      'all rules together',
      [periodic(1, 1), userCheckpoint(2, 2), savepoint(3, false, 3), forcedCheckpoint(4, 4), periodic(0, 5), savepoint(9, true, 6)],
      [6, 3, 4, 2, 5, 1],
    ],
  ])('puts %s', (_name, requests, expectedOrder) => {
    const d = decider({ maxConcurrentCheckpoints: 10 });
    for (const r of requests) expect(d.enqueue(r)).toEqual([]);
    expect(seqs(d.queuedRequests)).toEqual(expectedOrder);
    const executed: number[] = [];
    for (let i = 0; i < requests.length; i++) {
      const outcome = d.chooseRequestToExecute(idle);
      if (outcome.type === 'execute') executed.push(outcome.request.seq);
    }
    expect(executed).toEqual(expectedOrder);
  });

  it('does not queue the same request twice, like Flink\'s TreeSet', () => {
    const d = decider();
    const request = periodic(0);
    d.enqueue(request);
    expect(d.enqueue({ ...request })).toEqual([]);
    expect(d.numQueuedRequests).toBe(1);
  });
});

describe('CheckpointRequestDecider decisions', () => {
  type Case = {
    name: string;
    options?: { maxConcurrentCheckpoints?: number; minPauseMs?: number };
    request: () => CheckpointTriggerRequest;
    state: Partial<DeciderState>;
    expected: 'execute' | 'none' | { rescheduleInMs: number };
  };

  it.each<Case>([
    { name: 'runs a periodic request on an idle coordinator', request: () => periodic(0), state: {}, expected: 'execute' },
    {
      name: 'does nothing while another trigger is being set up',
      request: () => savepoint(0),
      state: { isTriggering: true },
      expected: 'none',
    },
    {
      name: 'keeps a periodic request queued at max-concurrent',
      request: () => periodic(0),
      state: { pendingCheckpoints: 1 },
      expected: 'none',
    },
    {
      name: 'keeps a user checkpoint queued at max-concurrent',
      options: { maxConcurrentCheckpoints: 2 },
      request: () => userCheckpoint(0),
      state: { pendingCheckpoints: 2 },
      expected: 'none',
    },
    {
      name: 'runs below max-concurrent',
      options: { maxConcurrentCheckpoints: 2 },
      request: () => periodic(0),
      state: { pendingCheckpoints: 1 },
      expected: 'execute',
    },
    {
      name: 'lets a forced savepoint bypass max-concurrent',
      request: () => savepoint(0, true),
      state: { pendingCheckpoints: 1 },
      expected: 'execute',
    },
    {
      name: 'keeps an unforced savepoint (UC on) queued at max-concurrent',
      request: () => savepoint(0, false),
      state: { pendingCheckpoints: 1 },
      expected: 'none',
    },
    {
      name: 'drops a periodic request inside min-pause and reschedules at lastCompletion + minPause',
      options: { minPauseMs: 500 },
      request: () => periodic(1200),
      state: { lastCompletionTime: 1000, now: 1200 },
      expected: { rescheduleInMs: 300 },
    },
    {
      name: 'drops a periodic request 1 ms before min-pause ends',
      options: { minPauseMs: 500 },
      request: () => periodic(1499),
      state: { lastCompletionTime: 1000, now: 1499 },
      expected: { rescheduleInMs: 1 },
    },
    {
      name: 'runs a periodic request exactly when min-pause ends',
      options: { minPauseMs: 500 },
      request: () => periodic(1500),
      state: { lastCompletionTime: 1000, now: 1500 },
      expected: 'execute',
    },
    {
      name: 'runs a periodic request before any checkpoint completed',
      options: { minPauseMs: 500 },
      request: () => periodic(0),
      state: { lastCompletionTime: -Infinity, now: 0 },
      expected: 'execute',
    },
    {
      name: 'does not apply min-pause to a user checkpoint',
      options: { minPauseMs: 500 },
      request: () => userCheckpoint(1200),
      state: { lastCompletionTime: 1000, now: 1200 },
      expected: 'execute',
    },
    {
      name: 'lets a forced savepoint bypass min-pause',
      options: { minPauseMs: 500 },
      request: () => savepoint(1200, true),
      state: { lastCompletionTime: 1000, now: 1200 },
      expected: 'execute',
    },
    {
      name: 'does not apply min-pause to an unforced savepoint (it is not periodic)',
      options: { minPauseMs: 500 },
      request: () => savepoint(1200, false),
      state: { lastCompletionTime: 1000, now: 1200 },
      expected: 'execute',
    },
    {
      name: 'waits while more checkpoints are being cleaned than may run concurrently',
      request: () => savepoint(0, true),
      state: { numberOfCleaningCheckpoints: 2 },
      expected: 'none',
    },
    {
      name: 'runs while cleaning checkpoints equal max-concurrent',
      request: () => periodic(0),
      state: { numberOfCleaningCheckpoints: 1 },
      expected: 'execute',
    },
  ])('$name', ({ options, request, state, expected }) => {
    const d = decider(options);
    const r = request();
    d.enqueue(r);
    const outcome = d.chooseRequestToExecute({ ...idle, ...state });
    if (expected === 'execute') {
      expect(outcome).toEqual({ type: 'execute', request: r });
      expect(d.numQueuedRequests).toBe(0);
    } else if (expected === 'none') {
      expect(outcome).toEqual({ type: 'none' });
      expect(d.numQueuedRequests).toBe(1);
    } else {
      expect(outcome).toEqual({
        type: 'drop',
        request: r,
        reason: 'MINIMUM_TIME_BETWEEN_CHECKPOINTS',
        rescheduleInMs: expected.rescheduleInMs,
      });
      expect(d.numQueuedRequests).toBe(0);
    }
  });

  it('returns none for an empty queue', () => {
    expect(decider().chooseRequestToExecute(idle)).toEqual({ type: 'none' });
  });

  it('runs a queued request once a pending checkpoint finishes', () => {
    const d = decider();
    const r = periodic(0);
    d.enqueue(r);
    expect(d.chooseRequestToExecute({ ...idle, pendingCheckpoints: 1 })).toEqual({ type: 'none' });
    expect(d.chooseRequestToExecute({ ...idle, pendingCheckpoints: 0 })).toEqual({ type: 'execute', request: r });
  });

  it('decides for the head only: one drop per call, the next request waits for the next call', () => {
    const d = decider({ minPauseMs: 500 });
    const [first, second] = [periodic(1100), periodic(1150)];
    d.enqueue(first);
    d.enqueue(second);
    const state = { ...idle, lastCompletionTime: 1000, now: 1200 };
    const outcomes: DeciderOutcome[] = [d.chooseRequestToExecute(state), d.chooseRequestToExecute(state)];
    expect(outcomes.map((o) => (o.type === 'drop' ? o.request.seq : o.type))).toEqual([first.seq, second.seq]);
    expect(d.chooseRequestToExecute(state)).toEqual({ type: 'none' });
  });

  it('rejects a non-positive max-concurrent as Flink\'s checkArgument does', () => {
    expect(() => decider({ maxConcurrentCheckpoints: 0 })).toThrow(RangeError);
    expect(() => decider({ maxQueuedRequests: 0 })).toThrow(RangeError);
  });
});

describe('CheckpointRequestDecider queue limit', () => {
  it.each<[string, CheckpointTriggerRequest[], CheckpointTriggerRequest, number, number[]]>([
    ['fails the newcomer when only user requests are queued', [userCheckpoint(0, 1), userCheckpoint(1, 2)], periodic(2, 3), 3, [1, 2]],
    ['fails a new user request too when only user requests are queued', [userCheckpoint(0, 1), userCheckpoint(1, 2)], savepoint(2, true, 3), 3, [1, 2]],
    ['evicts the queued periodic request for a new user request', [userCheckpoint(0, 1), periodic(1, 2)], userCheckpoint(2, 3), 2, [1, 3]],
    ['evicts the newcomer when it sorts last', [periodic(0, 1), periodic(1, 2)], periodic(2, 3), 3, [1, 2]],
    ['evicts the newest periodic request for a savepoint', [periodic(0, 1), periodic(1, 2)], savepoint(2, true, 3), 2, [3, 1]],
  ])('%s', (_name, queued, newcomer, failedSeq, remaining) => {
    const d = decider({ maxQueuedRequests: 2 });
    for (const r of queued) expect(d.enqueue(r)).toEqual([]);
    expect(seqs(d.enqueue(newcomer))).toEqual([failedSeq]);
    expect(seqs(d.queuedRequests)).toEqual(remaining);
  });

  it('holds 1000 requests by default', () => {
    const d = decider();
    for (let i = 0; i < 1000; i++) expect(d.enqueue(userCheckpoint(i))).toEqual([]);
    expect(d.enqueue(userCheckpoint(1000))).toHaveLength(1);
    expect(d.numQueuedRequests).toBe(1000);
  });
});

describe('CheckpointRequestDecider.abortAll', () => {
  it('fails every queued request in queue order and empties the queue', () => {
    const d = decider();
    const requests = [periodic(0, 1), savepoint(1, true, 2), userCheckpoint(2, 3)];
    for (const r of requests) d.enqueue(r);
    expect(seqs(d.abortAll())).toEqual([2, 3, 1]);
    expect(d.numQueuedRequests).toBe(0);
    expect(d.abortAll()).toEqual([]);
  });
});
