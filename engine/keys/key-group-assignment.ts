/**
 * Flink's `KeyGroupRangeAssignment`: which key group a key belongs to, which subtask owns a key
 * group, and which contiguous range of key groups each subtask owns.
 *
 * Keyed state is sharded into `maxParallelism` key groups, the unit of rescaling: on restore with a
 * new parallelism, subtasks receive whole key groups, never parts of one. The formulas below are
 * Flink's, so a key lands in the same key group and subtask as in a real Flink job.
 *
 * These functions throw `RangeError` on out-of-range arguments. They guard against programming
 * errors; user input (scenario files, CLI flags) should be validated first with a friendlier message.
 */

import { javaHashCode } from './java-string-hash.ts';
import { murmurHash } from './murmur-hash.ts';

/** Flink's `KeyGroupRangeAssignment.DEFAULT_LOWER_BOUND_MAX_PARALLELISM` (2^7). */
export const DEFAULT_LOWER_BOUND_MAX_PARALLELISM = 128;

/** Flink's `Transformation.UPPER_BOUND_MAX_PARALLELISM` (2^15): the most key groups a job can have. */
export const UPPER_BOUND_MAX_PARALLELISM = 32_768;

/** The key groups one subtask owns, both ends inclusive (Flink's `KeyGroupRange`). */
export interface KeyGroupRange {
  readonly start: number;
  readonly end: number;
}

/** The key group of `key`: `murmurHash(key.hashCode()) % maxParallelism`. */
export function assignToKeyGroup(key: string | number, maxParallelism: number): number {
  return computeKeyGroupForKeyHash(javaHashCode(key), maxParallelism);
}

/**
 * assignToKeyGroup for one max parallelism, checked once when made: for the callers that ask for
 * every record (a keyBy's partitioner, the keyed operators), which otherwise checked the same max
 * parallelism on every record of the job, two calls deeper.
 */
export function keyGroupAssigner(maxParallelism: number): (key: string | number) => number {
  requireMaxParallelism(maxParallelism);
  // murmurHash is never negative, so for a power of two (the default max parallelism is one) the
  // remainder is its low bits: a mask instead of an integer division, on every record.
  const mask = maxParallelism - 1;
  if ((maxParallelism & mask) === 0) return (key) => murmurHash(javaHashCode(key)) & mask;
  return (key) => keyGroupOfHash(javaHashCode(key), maxParallelism);
}

/** The key group for an already computed Java hash code. */
export function computeKeyGroupForKeyHash(keyHash: number, maxParallelism: number): number {
  requireMaxParallelism(maxParallelism);
  return keyGroupOfHash(keyHash, maxParallelism);
}

/** Flink's formula, unchecked: the callers above check max parallelism (once, or on every call). */
function keyGroupOfHash(keyHash: number, maxParallelism: number): number {
  return murmurHash(keyHash) % maxParallelism;
}

/** The subtask index that owns `keyGroup`: `keyGroup * parallelism / maxParallelism` (integer division). */
export function computeOperatorIndexForKeyGroup(
  maxParallelism: number,
  parallelism: number,
  keyGroup: number,
): number {
  requireParallelisms(maxParallelism, parallelism);
  requireIndex('keyGroup', keyGroup, maxParallelism);
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}

/** The subtask index that receives `key`. */
export function assignKeyToParallelOperator(
  key: string | number,
  maxParallelism: number,
  parallelism: number,
): number {
  return computeOperatorIndexForKeyGroup(
    maxParallelism,
    parallelism,
    assignToKeyGroup(key, maxParallelism),
  );
}

/**
 * The key groups subtask `operatorIndex` owns:
 * `[(i * maxP + p - 1) / p, ((i + 1) * maxP - 1) / p]` with integer division. The ranges of
 * subtasks 0..p-1 partition [0, maxP) in order, and differ in size by at most one.
 */
export function computeKeyGroupRangeForOperatorIndex(
  maxParallelism: number,
  parallelism: number,
  operatorIndex: number,
): KeyGroupRange {
  requireParallelisms(maxParallelism, parallelism);
  requireIndex('operatorIndex', operatorIndex, parallelism);
  return {
    start: Math.floor((operatorIndex * maxParallelism + parallelism - 1) / parallelism),
    end: Math.floor(((operatorIndex + 1) * maxParallelism - 1) / parallelism),
  };
}

/**
 * The max parallelism Flink picks when none is configured (`pipeline.max-parallelism` = -1):
 * 1.5 × parallelism rounded up to a power of two, at least 128 and at most 32768. The headroom
 * lets the job be scaled up later without losing state.
 */
export function computeDefaultMaxParallelism(parallelism: number): number {
  requireInRange('parallelism', parallelism, 1, UPPER_BOUND_MAX_PARALLELISM);
  const withHeadroom = parallelism + Math.floor(parallelism / 2);
  return Math.min(
    Math.max(roundUpToPowerOfTwo(withHeadroom), DEFAULT_LOWER_BOUND_MAX_PARALLELISM),
    UPPER_BOUND_MAX_PARALLELISM,
  );
}

/** Flink's `MathUtils.roundUpToPowerOfTwo` for the positive values used here. */
function roundUpToPowerOfTwo(value: number): number {
  let power = 1;
  while (power < value) power *= 2;
  return power;
}

function requireMaxParallelism(maxParallelism: number): void {
  requireInRange('maxParallelism', maxParallelism, 1, UPPER_BOUND_MAX_PARALLELISM);
}

function requireParallelisms(maxParallelism: number, parallelism: number): void {
  requireMaxParallelism(maxParallelism);
  if (!isIntegerInRange(parallelism, 1, maxParallelism)) {
    throw new RangeError(
      `parallelism must be an integer from 1 to ${maxParallelism} (the max parallelism), got ${parallelism}`,
    );
  }
}

function requireIndex(name: string, index: number, count: number): void {
  requireInRange(name, index, 0, count - 1);
}

function requireInRange(name: string, value: number, min: number, max: number): void {
  if (!isIntegerInRange(value, min, max)) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
}

function isIntegerInRange(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}
