/**
 * Whether and when a failed job restarts: Flink's `RestartBackoffTimeStrategy` family
 * (flink-runtime/src/main/java/org/apache/flink/runtime/executiongraph/failover/):
 * `NoRestartBackoffTimeStrategy`, `FixedDelayRestartBackoffTimeStrategy`,
 * `ExponentialDelayRestartBackoffTimeStrategy` (the FLIP-364 version with
 * attempts-before-reset-backoff), chosen as `RestartBackoffTimeStrategyFactoryLoader` does.
 *
 * Flink reads a `Clock` and `ThreadLocalRandom`; here time is passed in as `now` (ms) and
 * randomness as `random.nextFloat()` in [0, 1). failure-rate is not modelled because
 * `RestartStrategyConfig` has no variant for it.
 */

import type { RestartStrategyConfig } from '../config/flink-config.ts';

export interface RestartBackoffTimeStrategy {
  /**
   * A task failed at `now`. Returns Flink's `notifyFailure` result: true when this failure starts a
   * new restart attempt, false when it is merged into a restart already scheduled
   * (exponential-delay only).
   */
  notifyFailure(now: number): boolean;
  canRestart(): boolean;
  /**
   * ms to wait before restarting. exponential-delay measures it from `now` to its scheduled
   * restart, as Flink does with its clock; without `now` it uses the time of the last failure,
   * which is what Flink returns when asked right after `notifyFailure`.
   */
  getBackoffTime(now?: number): number;
  /** Flink's `toString()`, e.g. "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=1000)" */
  readonly description: string;
}

export interface FloatRandom {
  nextFloat(): number;
}

export type ExponentialDelaySettings = Omit<Extract<RestartStrategyConfig, { type: 'exponential-delay' }>, 'type'>;

/** `RestartStrategyOptions` defaults, used by the loader when no strategy is configured. */
export const DEFAULT_EXPONENTIAL_DELAY: Readonly<ExponentialDelaySettings> = {
  initialBackoff: 1_000,
  maxBackoff: 60_000,
  backoffMultiplier: 1.5,
  resetBackoffThreshold: 3_600_000,
  jitterFactor: 0.1,
  attemptsBeforeResetBackoff: 2_147_483_647,
};

/**
 * Flink's `RestartBackoffTimeStrategyFactoryLoader`: the configured strategy; when none is set,
 * exponential-delay with default settings if checkpointing is enabled, else no restart.
 * (`readConfig` already applies that default, so `config` is normally defined.)
 */
export function createRestartBackoffTimeStrategy(
  config: RestartStrategyConfig | undefined,
  checkpointingEnabled: boolean,
  random: FloatRandom,
): RestartBackoffTimeStrategy {
  if (config === undefined) {
    return checkpointingEnabled
      ? new ExponentialDelayRestartBackoffTimeStrategy(DEFAULT_EXPONENTIAL_DELAY, random)
      : new NoRestartBackoffTimeStrategy();
  }
  switch (config.type) {
    case 'none':
      return new NoRestartBackoffTimeStrategy();
    case 'fixed-delay':
      return new FixedDelayRestartBackoffTimeStrategy(config.attempts, config.delay);
    case 'exponential-delay':
      return new ExponentialDelayRestartBackoffTimeStrategy(config, random);
  }
}

/** Flink's `NoRestartBackoffTimeStrategy`: never restarts. */
export class NoRestartBackoffTimeStrategy implements RestartBackoffTimeStrategy {
  readonly description = 'NoRestartBackoffTimeStrategy';

  notifyFailure(): boolean {
    return true;
  }

  canRestart(): boolean {
    return false;
  }

  getBackoffTime(): number {
    return 0;
  }
}

/** Flink's `FixedDelayRestartBackoffTimeStrategy`: `attempts` restarts, `delay` ms apart. */
export class FixedDelayRestartBackoffTimeStrategy implements RestartBackoffTimeStrategy {
  readonly description: string;
  private currentRestartAttempt = 0;

  constructor(
    private readonly maxNumberRestartAttempts: number,
    private readonly backoffTimeMS: number,
  ) {
    requireArgument(maxNumberRestartAttempts >= 0, 'Maximum number of restart attempts must be at least 0.');
    requireArgument(backoffTimeMS >= 0, 'Backoff time between restart attempts must be at least 0 ms.');
    this.description =
      `FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=${maxNumberRestartAttempts}, ` +
      `backoffTimeMS=${backoffTimeMS})`;
  }

  notifyFailure(): boolean {
    this.currentRestartAttempt += 1;
    return true;
  }

  /** The failure being handled has already been counted, hence `<=`. */
  canRestart(): boolean {
    return this.currentRestartAttempt <= this.maxNumberRestartAttempts;
  }

  getBackoffTime(): number {
    return this.backoffTimeMS;
  }
}

/** Flink's `DEFAULT_NEXT_RESTART_TIMESTAMP` (`Integer.MIN_VALUE`): no failure seen yet. */
const DEFAULT_NEXT_RESTART_TIMESTAMP = -2_147_483_648;

/**
 * Flink's `ExponentialDelayRestartBackoffTimeStrategy`: the n-th restart since the last reset
 * waits initial × multiplier^(n−1) ± jitter, kept within [initial, max]. Failures before the
 * scheduled restart are merged into it. The attempt count resets when a failure comes at least
 * reset-backoff-threshold after the previous scheduled restart; more than
 * attempts-before-reset-backoff attempts without a reset and the job fails.
 */
export class ExponentialDelayRestartBackoffTimeStrategy implements RestartBackoffTimeStrategy {
  private readonly settings: ExponentialDelaySettings;
  private currentRestartAttempt = 0;
  private nextRestartTimestamp = DEFAULT_NEXT_RESTART_TIMESTAMP;
  private lastFailureTime = DEFAULT_NEXT_RESTART_TIMESTAMP;

  constructor(
    settings: ExponentialDelaySettings,
    private readonly random: FloatRandom,
  ) {
    checkExponentialDelaySettings(settings);
    this.settings = { ...settings };
  }

  notifyFailure(now: number): boolean {
    this.lastFailureTime = now;
    // Merge multiple failures into one attempt if there are tasks will be restarted later (Flink).
    if (now <= this.nextRestartTimestamp) return false;
    if (now - this.nextRestartTimestamp >= this.settings.resetBackoffThreshold) this.currentRestartAttempt = 0;
    this.nextRestartTimestamp = now + this.calculateActualBackoffTime();
    this.currentRestartAttempt += 1;
    return true;
  }

  canRestart(): boolean {
    return this.currentRestartAttempt <= this.settings.attemptsBeforeResetBackoff;
  }

  getBackoffTime(now: number = this.lastFailureTime): number {
    // Flink: checkState(nextRestartTimestamp != DEFAULT_NEXT_RESTART_TIMESTAMP, …), a caller bug.
    if (this.nextRestartTimestamp === DEFAULT_NEXT_RESTART_TIMESTAMP) {
      throw new Error('Please call notifyFailure first.');
    }
    return Math.max(0, this.nextRestartTimestamp - now);
  }

  get description(): string {
    const s = this.settings;
    return (
      `ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=${s.initialBackoff}, ` +
      `maxBackoffMS=${s.maxBackoff}, backoffMultiplier=${javaDoubleToString(s.backoffMultiplier)}, ` +
      `resetBackoffThresholdMS=${s.resetBackoffThreshold}, jitterFactor=${javaDoubleToString(s.jitterFactor)}, ` +
      `attemptsBeforeResetBackoff=${s.attemptsBeforeResetBackoff}, ` +
      `currentRestartAttempt=${this.currentRestartAttempt}, nextRestartTimestamp=${this.nextRestartTimestamp})`
    );
  }

  /**
   * Flink's `calculateActualBackoffTime`, in Java `long` arithmetic: after ~90 attempts without a
   * reset the base saturates at Long.MAX_VALUE and a positive jitter wraps the sum negative, so
   * Flink then waits only the initial backoff. Mirrored, not fixed.
   */
  private calculateActualBackoffTime(): number {
    const { initialBackoff, maxBackoff, backoffMultiplier } = this.settings;
    const current = javaLongOf(initialBackoff * Math.pow(backoffMultiplier, this.currentRestartAttempt));
    const withJitter = BigInt.asIntN(64, current + this.calculateJitterBackoffMS(current));
    const capped = withJitter < BigInt(maxBackoff) ? withJitter : BigInt(maxBackoff);
    return Number(capped > BigInt(initialBackoff) ? capped : BigInt(initialBackoff));
  }

  /**
   * Flink's `calculateJitterBackoffMS`: uniform in [−offset, offset] with
   * offset = (long) (backoff × jitterFactor), drawn as `ThreadLocalRandom.nextLong(−offset, offset + 1)`.
   */
  private calculateJitterBackoffMS(currentBackoffMS: bigint): bigint {
    if (this.settings.jitterFactor === 0) return 0n;
    const offset = javaLongOf(Number(currentBackoffMS) * this.settings.jitterFactor);
    const span = 2n * offset + 1n;
    const draw = BigInt(Math.floor(this.random.nextFloat() * Number(span)));
    return -offset + (draw < span ? draw : span - 1n);
  }
}

/** The checkArgument calls of Flink's `ExponentialDelayRestartBackoffTimeStrategy` constructor. */
function checkExponentialDelaySettings(s: ExponentialDelaySettings): void {
  requireArgument(s.initialBackoff >= 1, 'Initial backoff must be at least 1.');
  requireArgument(s.maxBackoff >= 1, 'Maximum backoff must be at least 1.');
  requireArgument(s.initialBackoff <= s.maxBackoff, 'Initial backoff cannot be higher than maximum backoff.');
  requireArgument(s.backoffMultiplier > 1, 'Backoff multiplier must be greater than 1.');
  requireArgument(s.resetBackoffThreshold >= 1, 'Threshold duration for exponential backoff reset must be at least 1.');
  requireArgument(s.jitterFactor >= 0 && s.jitterFactor <= 1, 'Jitter factor must be >= 0 and <= 1.');
  requireArgument(s.attemptsBeforeResetBackoff >= 1, 'The attemptsBeforeResetBackoff must be at least 1.');
}

/** Flink's `Preconditions.checkArgument`: a misconfigured strategy cannot be built (as in Flink). */
function requireArgument(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(message);
}

const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);

/** Java's `(long)` cast of a double: truncates toward zero, NaN → 0, saturates at the long range. */
function javaLongOf(value: number): bigint {
  if (Number.isNaN(value)) return 0n;
  if (value >= 2 ** 63) return LONG_MAX;
  if (value <= -(2 ** 63)) return LONG_MIN;
  return BigInt(Math.trunc(value));
}

/** Java's `Double.toString` for the values a config holds ("1.5", "2.0", "0.0", "1.0E7"). */
export function javaDoubleToString(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude === 0 || (magnitude >= 1e-3 && magnitude < 1e7)) {
    return Number.isInteger(value) ? value.toFixed(1) : String(value);
  }
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}
