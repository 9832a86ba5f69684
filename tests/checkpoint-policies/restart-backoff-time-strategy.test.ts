import { describe, expect, it } from 'vitest';
import type { RestartStrategyConfig } from '../../engine/config/flink-config.ts';
import {
  DEFAULT_EXPONENTIAL_DELAY,
  ExponentialDelayRestartBackoffTimeStrategy,
  FixedDelayRestartBackoffTimeStrategy,
  createRestartBackoffTimeStrategy,
  javaDoubleToString,
  type ExponentialDelaySettings,
  type FloatRandom,
  type RestartBackoffTimeStrategy,
} from '../../engine/job/restart-backoff-time-strategy.ts';

/** A random that must not be used: jitter 0 never draws. */
const noRandom: FloatRandom = {
  nextFloat: () => {
    throw new Error('random drawn');
  },
};

/** Returns the given values in turn, then repeats the last one. */
function fakeRandom(...values: number[]): FloatRandom {
  let i = 0;
  return { nextFloat: () => values[Math.min(i++, values.length - 1)]! };
}

function exponential(settings: Partial<ExponentialDelaySettings>, random: FloatRandom = noRandom) {
  return new ExponentialDelayRestartBackoffTimeStrategy({ ...DEFAULT_EXPONENTIAL_DELAY, jitterFactor: 0, ...settings }, random);
}

type Observation = { notified: boolean; canRestart: boolean; backoff: number };

/** Feeds failures at the given times; each is observed as the scheduler does right after it. */
function failAt(strategy: RestartBackoffTimeStrategy, times: number[]): Observation[] {
  return times.map((now) => {
    const notified = strategy.notifyFailure(now);
    return { notified, canRestart: strategy.canRestart(), backoff: strategy.getBackoffTime(now) };
  });
}

describe('createRestartBackoffTimeStrategy', () => {
  const EXPONENTIAL_DEFAULT_DESCRIPTION =
    'ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=1000, maxBackoffMS=60000, ' +
    'backoffMultiplier=1.5, resetBackoffThresholdMS=3600000, jitterFactor=0.1, ' +
    'attemptsBeforeResetBackoff=2147483647, currentRestartAttempt=0, nextRestartTimestamp=-2147483648)';

  it.each<[string, RestartStrategyConfig | undefined, boolean, string]>([
    ['defaults to exponential-delay when checkpointing is enabled', undefined, true, EXPONENTIAL_DEFAULT_DESCRIPTION],
    ['defaults to no restart when checkpointing is disabled', undefined, false, 'NoRestartBackoffTimeStrategy'],
    ['builds none', { type: 'none' }, true, 'NoRestartBackoffTimeStrategy'],
    [
      'builds fixed-delay',
      { type: 'fixed-delay', attempts: 3, delay: 1000 },
      false,
      'FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=1000)',
    ],
    [
      'builds exponential-delay with its settings, printing doubles as Java does',
      {
        type: 'exponential-delay',
        initialBackoff: 10,
        maxBackoff: 20_000,
        backoffMultiplier: 2,
        resetBackoffThreshold: 5000,
        jitterFactor: 0,
        attemptsBeforeResetBackoff: 4,
      },
      false,
      'ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=10, maxBackoffMS=20000, backoffMultiplier=2.0, ' +
        'resetBackoffThresholdMS=5000, jitterFactor=0.0, attemptsBeforeResetBackoff=4, currentRestartAttempt=0, ' +
        'nextRestartTimestamp=-2147483648)',
    ],
  ])('%s', (_name, config, checkpointing, description) => {
    expect(createRestartBackoffTimeStrategy(config, checkpointing, noRandom).description).toBe(description);
  });
});

describe('NoRestartBackoffTimeStrategy', () => {
  it('never restarts and waits 0 ms', () => {
    const strategy = createRestartBackoffTimeStrategy({ type: 'none' }, true, noRandom);
    expect(failAt(strategy, [0, 10])).toEqual([
      { notified: true, canRestart: false, backoff: 0 },
      { notified: true, canRestart: false, backoff: 0 },
    ]);
  });
});

describe('FixedDelayRestartBackoffTimeStrategy', () => {
  it.each<[number, boolean[]]>([
    [0, [false]],
    [1, [true, false]],
    [3, [true, true, true, false]],
  ])('with %i attempts restarts that many times', (attempts, canRestart) => {
    const strategy = new FixedDelayRestartBackoffTimeStrategy(attempts, 1000);
    const observed = failAt(strategy, canRestart.map((_, i) => i * 5000));
    expect(observed.map((o) => o.canRestart)).toEqual(canRestart);
    expect(observed.map((o) => o.backoff)).toEqual(canRestart.map(() => 1000));
  });

  it.each<[number, number, string]>([
    [-1, 0, 'Maximum number of restart attempts must be at least 0.'],
    [1, -1, 'Backoff time between restart attempts must be at least 0 ms.'],
  ])('rejects attempts %i / delay %i with Flink\'s message', (attempts, delay, message) => {
    expect(() => new FixedDelayRestartBackoffTimeStrategy(attempts, delay)).toThrow(message);
  });
});

describe('ExponentialDelayRestartBackoffTimeStrategy backoff sequence', () => {
  it.each<[string, Partial<ExponentialDelaySettings>, FloatRandom, number[]]>([
    [
      'doubles from the initial backoff up to the max (jitter 0)',
      { initialBackoff: 1000, maxBackoff: 10_000, backoffMultiplier: 2 },
      noRandom,
      [1000, 2000, 4000, 8000, 10_000, 10_000],
    ],
    [
      'truncates fractional backoffs like Java\'s (long) cast (default multiplier 1.5)',
      { initialBackoff: 1000, maxBackoff: 60_000, backoffMultiplier: 1.5 },
      noRandom,
      [1000, 1500, 2250, 3375, 5062, 7593],
    ],
    [
      'adds jitter in [-backoff × factor, +backoff × factor], kept within [initial, max]',
      { initialBackoff: 1000, maxBackoff: 4400, backoffMultiplier: 2, jitterFactor: 0.1 },
      // attempt 0: 1000 - 100 → raised to initial; 1: 2000 + 200; 2: 4000 + 0; 3: 8000 ± → capped at max
      fakeRandom(0, 0.999_999, 0.5, 0),
      [1000, 2200, 4000, 4400],
    ],
    [
      'draws the jitter as nextLong(-offset, offset + 1) over 2 × offset + 1 values',
      { initialBackoff: 100, maxBackoff: 10_000, backoffMultiplier: 2, jitterFactor: 0.5 },
      // attempt 0: offset 50, 101 values → floor(0.3 × 101) = 30 → -20; attempt 1: offset 100, 201 values → floor(0.9 × 201) = 180 → +80
      fakeRandom(0.3, 0.9),
      [100, 280],
    ],
  ])('%s', (_name, settings, random, backoffs) => {
    const strategy = exponential(settings, random);
    // Each failure comes 1 ms after the previous restart, well inside the reset threshold.
    let now = 0;
    const observed = backoffs.map(() => {
      strategy.notifyFailure(now);
      const backoff = strategy.getBackoffTime();
      now += backoff + 1;
      return backoff;
    });
    expect(observed).toEqual(backoffs);
  });

  it.each<[string, number, number]>([
    ['a positive jitter wraps the sum negative, so only the initial backoff is waited', 0.999, 1000],
    ['a negative jitter stays positive and is capped at the max', 0, 60_000],
  ])('after 60 unreset attempts (base saturated at Long.MAX_VALUE) %s (Flink quirk, mirrored)', (_name, draw, backoff) => {
    const earlyDraws = new Array<number>(60).fill(0.5);
    const strategy = exponential(
      { initialBackoff: 1000, maxBackoff: 60_000, backoffMultiplier: 2, jitterFactor: 0.5 },
      fakeRandom(...earlyDraws, draw),
    );
    let now = 0;
    for (let attempt = 0; attempt < 60; attempt++) {
      strategy.notifyFailure(now);
      now += 60_001;
    }
    strategy.notifyFailure(now);
    expect(strategy.getBackoffTime()).toBe(backoff);
  });
});

describe('ExponentialDelayRestartBackoffTimeStrategy attempts and reset', () => {
  const settings = { initialBackoff: 1000, maxBackoff: 60_000, backoffMultiplier: 2, resetBackoffThreshold: 10_000 };

  it.each<[string, Partial<ExponentialDelaySettings>, number[], Observation[]]>([
    [
      'merges a failure before the scheduled restart into that restart',
      settings,
      [0, 500, 1000],
      [
        { notified: true, canRestart: true, backoff: 1000 },
        { notified: false, canRestart: true, backoff: 500 },
        { notified: false, canRestart: true, backoff: 0 },
      ],
    ],
    [
      'fails the job after attempts-before-reset-backoff restarts',
      { ...settings, attemptsBeforeResetBackoff: 2 },
      [0, 1001, 3002],
      [
        { notified: true, canRestart: true, backoff: 1000 },
        { notified: true, canRestart: true, backoff: 2000 },
        { notified: true, canRestart: false, backoff: 4000 },
      ],
    ],
    [
      'resets backoff and attempts when a failure comes reset-threshold after the last restart',
      { ...settings, attemptsBeforeResetBackoff: 2 },
      // restarts at 1000 and 4000; 4000 + 10000 = 14000 reaches the threshold
      [0, 2000, 14_000, 15_001],
      [
        { notified: true, canRestart: true, backoff: 1000 },
        { notified: true, canRestart: true, backoff: 2000 },
        { notified: true, canRestart: true, backoff: 1000 },
        { notified: true, canRestart: true, backoff: 2000 },
      ],
    ],
    [
      'does not reset 1 ms before the threshold',
      { ...settings, attemptsBeforeResetBackoff: 2 },
      [0, 2000, 13_999],
      [
        { notified: true, canRestart: true, backoff: 1000 },
        { notified: true, canRestart: true, backoff: 2000 },
        { notified: true, canRestart: false, backoff: 4000 },
      ],
    ],
  ])('%s', (_name, strategySettings, times, expected) => {
    expect(failAt(exponential(strategySettings), times)).toEqual(expected);
  });

  it('reports its progress in the description as Flink\'s toString does', () => {
    const strategy = exponential({ ...settings, attemptsBeforeResetBackoff: 5 });
    strategy.notifyFailure(100);
    strategy.notifyFailure(1200);
    expect(strategy.description).toBe(
      'ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=1000, maxBackoffMS=60000, backoffMultiplier=2.0, ' +
        'resetBackoffThresholdMS=10000, jitterFactor=0.0, attemptsBeforeResetBackoff=5, currentRestartAttempt=2, ' +
        'nextRestartTimestamp=3200)',
    );
  });

  it('refuses a backoff time before any failure, as Flink\'s checkState does', () => {
    expect(() => exponential(settings).getBackoffTime(0)).toThrow('Please call notifyFailure first.');
  });

  it.each<[Partial<ExponentialDelaySettings>, string]>([
    [{ initialBackoff: 0 }, 'Initial backoff must be at least 1.'],
    [{ maxBackoff: 0, initialBackoff: 1 }, 'Maximum backoff must be at least 1.'],
    [{ initialBackoff: 2000, maxBackoff: 1000 }, 'Initial backoff cannot be higher than maximum backoff.'],
    [{ backoffMultiplier: 1 }, 'Backoff multiplier must be greater than 1.'],
    [{ resetBackoffThreshold: 0 }, 'Threshold duration for exponential backoff reset must be at least 1.'],
    [{ jitterFactor: 1.5 }, 'Jitter factor must be >= 0 and <= 1.'],
    [{ attemptsBeforeResetBackoff: 0 }, 'The attemptsBeforeResetBackoff must be at least 1.'],
  ])('rejects %o with Flink\'s message', (bad, message) => {
    expect(() => exponential(bad)).toThrow(message);
  });
});

describe('javaDoubleToString', () => {
  it.each<[number, string]>([
    [1.5, '1.5'],
    [2, '2.0'],
    [0, '0.0'],
    [0.1, '0.1'],
    [1e7, '1.0E7'],
    [0.0001, '1.0E-4'],
    [1.25e-5, '1.25E-5'],
  ])('prints %d as Java prints it', (value, text) => {
    expect(javaDoubleToString(value)).toBe(text);
  });
});
