/**
 * `ckpt-lab key-group`: shows which key group and which subtask Flink would assign each key to.
 *
 * A pure function from arguments to output, so it is testable without a process; the `ckpt-lab`
 * entry point prints `stdout`/`stderr` and exits with `exitCode`. Keys are always strings, exactly
 * as typed: on the command line `42` is the string "42", hashed with String.hashCode.
 */

import {
  assignToKeyGroup,
  computeDefaultMaxParallelism,
  computeKeyGroupRangeForOperatorIndex,
  computeOperatorIndexForKeyGroup,
  UPPER_BOUND_MAX_PARALLELISM,
  type KeyGroupRange,
} from '../keys/key-group-assignment.ts';
import { javaStringHashCode } from '../keys/java-string-hash.ts';

export interface KeyGroupCommandResult {
  stdout: string;
  stderr: string;
  /** 0 on success, 2 on a usage error (the usual convention for bad command-line arguments). */
  exitCode: 0 | 2;
}

export const keyGroupUsage = `Usage: ckpt-lab key-group KEY... [--max-parallelism N] [--parallelism P] [--json]

Shows the key group and subtask Flink assigns to each KEY:
  keyGroup = murmurHash(KEY.hashCode()) % maxParallelism
  subtask  = keyGroup * parallelism / maxParallelism

Options:
  --parallelism P       number of subtasks, 1 to ${UPPER_BOUND_MAX_PARALLELISM} (default 1)
  --max-parallelism N   number of key groups, P to ${UPPER_BOUND_MAX_PARALLELISM}
                        (default: Flink's default for P, 1.5 x P rounded up to a power of two, at least 128)
  --json                print JSON instead of a table
  -h, --help            show this help
  --                    treat every following argument as a KEY, even if it starts with --

Keys are strings, as typed (the key 42 is the string "42").
`;

/** Runs `ckpt-lab key-group` with the arguments that follow the subcommand name. */
export function runKeyGroupCommand(args: string[]): KeyGroupCommandResult {
  const parsed = parseArguments(args);
  if (isFailure(parsed)) return usageError(parsed.error);
  if (parsed.help) return { stdout: keyGroupUsage, stderr: '', exitCode: 0 };
  const settings = resolveSettings(parsed);
  if (isFailure(settings)) return usageError(settings.error);
  const report = buildReport(parsed.keys, settings);
  const stdout = parsed.json ? `${JSON.stringify(report, null, 2)}\n` : formatTable(report);
  return { stdout, stderr: '', exitCode: 0 };
}

interface ParsedArguments {
  keys: string[];
  json: boolean;
  help: boolean;
  /** raw flag values, validated later so messages can mention both numbers */
  parallelism: string | undefined;
  maxParallelism: string | undefined;
}

type Failure = { error: string };

const VALUE_FLAGS = { '--parallelism': 'parallelism', '--max-parallelism': 'maxParallelism' } as const;
type ValueFlag = keyof typeof VALUE_FLAGS;

const KNOWN_FLAGS = '--max-parallelism, --parallelism, --json, --help';

function parseArguments(args: readonly string[]): ParsedArguments | Failure {
  const parsed: ParsedArguments = {
    keys: [],
    json: false,
    help: false,
    parallelism: undefined,
    maxParallelism: undefined,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      parsed.keys.push(...args.slice(i + 1));
      break;
    }
    const consumed = parseOption(arg, args[i + 1], parsed);
    if (typeof consumed !== 'number') return consumed;
    i += consumed;
  }
  if (!parsed.help && parsed.keys.length === 0) {
    return { error: 'no KEY given; pass at least one key, e.g. ckpt-lab key-group key-0 key-1' };
  }
  return parsed;
}

/** Applies one argument to `parsed`; returns how many following arguments it consumed as its value. */
function parseOption(arg: string, next: string | undefined, parsed: ParsedArguments): number | Failure {
  if (arg === '-h' || arg === '--help') {
    parsed.help = true;
    return 0;
  }
  if (arg === '--json') {
    parsed.json = true;
    return 0;
  }
  if (!arg.startsWith('--')) {
    parsed.keys.push(arg);
    return 0;
  }
  return parseValueFlag(arg, next, parsed);
}

/** `--flag VALUE` or `--flag=VALUE`. */
function parseValueFlag(arg: string, next: string | undefined, parsed: ParsedArguments): number | Failure {
  const equals = arg.indexOf('=');
  const flag = equals === -1 ? arg : arg.slice(0, equals);
  if (flag === '--json' || flag === '--help') return { error: `${flag} takes no value, got ${JSON.stringify(arg)}` };
  if (!Object.hasOwn(VALUE_FLAGS, flag)) {
    return { error: `unknown flag ${JSON.stringify(flag)}; allowed flags are ${KNOWN_FLAGS}` };
  }
  const field = VALUE_FLAGS[flag as ValueFlag];
  if (parsed[field] !== undefined) return { error: `${flag} was given more than once; give it once` };
  const value = equals === -1 ? next : arg.slice(equals + 1);
  if (value === undefined) return { error: `${flag} needs a value, an integer from 1 to ${UPPER_BOUND_MAX_PARALLELISM}` };
  parsed[field] = value;
  return equals === -1 ? 1 : 0;
}

interface Settings {
  maxParallelism: number;
  parallelism: number;
}

function resolveSettings(parsed: ParsedArguments): Settings | Failure {
  const upper = UPPER_BOUND_MAX_PARALLELISM;
  const maxParallelism = parseIntegerFlag('--max-parallelism', parsed.maxParallelism, 1, upper, '');
  if (isFailure(maxParallelism)) return maxParallelism;
  // With an explicit max parallelism it bounds the parallelism: a subtask needs a key group.
  const parallelism =
    maxParallelism === undefined
      ? parseIntegerFlag('--parallelism', parsed.parallelism, 1, upper, '')
      : parseIntegerFlag('--parallelism', parsed.parallelism, 1, maxParallelism, ' (the max parallelism)');
  if (isFailure(parallelism)) return parallelism;
  const resolvedParallelism = parallelism ?? 1;
  return {
    parallelism: resolvedParallelism,
    maxParallelism: maxParallelism ?? computeDefaultMaxParallelism(resolvedParallelism),
  };
}

/** `undefined` when the flag was not given. `boundNote` explains where `max` comes from. */
function parseIntegerFlag(
  flag: string,
  raw: string | undefined,
  min: number,
  max: number,
  boundNote: string,
): number | undefined | Failure {
  if (raw === undefined) return undefined;
  const isIntegerText = /^[+-]?\d+$/.test(raw);
  const value = isIntegerText ? Number(raw) : Number.NaN;
  if (value >= min && value <= max) return value;
  const shown = isIntegerText ? raw : JSON.stringify(raw);
  return { error: `${flag} must be an integer from ${min} to ${max}${boundNote}, got ${shown}` };
}

function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && 'error' in value;
}

interface KeyReport {
  key: string;
  hashCode: number;
  keyGroup: number;
  subtask: number;
  keyGroupRange: KeyGroupRange;
}

interface Report extends Settings {
  keys: KeyReport[];
}

function buildReport(keys: readonly string[], settings: Settings): Report {
  const { maxParallelism, parallelism } = settings;
  return {
    maxParallelism,
    parallelism,
    keys: keys.map((key) => {
      const keyGroup = assignToKeyGroup(key, maxParallelism);
      const subtask = computeOperatorIndexForKeyGroup(maxParallelism, parallelism, keyGroup);
      const keyGroupRange = computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, subtask);
      return { key, hashCode: javaStringHashCode(key), keyGroup, subtask, keyGroupRange };
    }),
  };
}

const TABLE_HEADER = ['key', 'hashCode', 'key group', 'subtask', 'key-group range'];
/** Keys are left-aligned, numbers right-aligned so their digits line up. */
const RIGHT_ALIGNED = [false, true, true, true, false];

function formatTable(report: Report): string {
  const rows = report.keys.map((entry) => [
    displayKey(entry.key),
    String(entry.hashCode),
    String(entry.keyGroup),
    String(entry.subtask),
    `[${entry.keyGroupRange.start}, ${entry.keyGroupRange.end}]`,
  ]);
  const table = alignColumns([TABLE_HEADER, ...rows]);
  return `maxParallelism=${report.maxParallelism} parallelism=${report.parallelism}\n${table}`;
}

function alignColumns(rows: readonly string[][]): string {
  const widths = TABLE_HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return RIGHT_ALIGNED[column] ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}

/** Quotes keys that would be invisible or break the table (empty, whitespace, control characters). */
function displayKey(key: string): string {
  return key === '' || /[\s"\p{C}]/u.test(key) ? JSON.stringify(key) : key;
}

/** One line on stderr, prefixed with the command so it is clear where it came from. */
function usageError(message: string): KeyGroupCommandResult {
  return { stdout: '', stderr: `ckpt-lab key-group: ${message}\n`, exitCode: 2 };
}
