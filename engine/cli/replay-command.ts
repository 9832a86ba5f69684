import { runScenario } from '../run/run-report.ts';
import { decodeSessionDocument } from '../replay/session-document.ts';
import { ReplayDivergence } from '../replay/replay-divergence.ts';
import { formatScenarioErrors } from '../scenario/scenario-error.ts';
import type { LsmStorageFactory } from '../state/state-backend-factory.ts';
import type { CommandResult, ReadFile } from './command-result.ts';
import { formatSummary } from './run-command.ts';
import { replayOf } from '../replay/replay-pacer.ts';

export const replayUsage = `Usage: ckpt-lab replay SESSION [--json]

Replays SESSION (a session document exported from the live playground, playground.exportSession())
in the deterministic simulator: every input gate consumes in the recorded order, sources inject
barriers at the recorded offsets, checkpoints, faults and restores happen as recorded.
  --json              print one JSON document (as \`ckpt-lab run --json\`) instead of a summary
Exit codes as \`run\`; a recording the replay cannot follow is reported with exit code 2.
`;


/** `ckpt-lab replay`: validates the session document (nothing runs on invalid input), replays it, reports. */
export function runReplayCommand(args: string[], readFile: ReadFile, lsmStorage?: LsmStorageFactory): CommandResult {
  const parsed = parseReplayArguments(args);
  if (typeof parsed === 'string') return { stdout: '', stderr: `ckpt-lab replay: ${parsed}\n\n${replayUsage}`, exitCode: 2 };
  if (parsed.file === '--help') return { stdout: replayUsage, stderr: '', exitCode: 0 };
  const file = readFile(parsed.file);
  if (!file.ok) return { stdout: '', stderr: `ckpt-lab replay: ${file.message}\n`, exitCode: 2 };
  const reading = decodeSessionDocument(file.text);
  if (!reading.ok) return { stdout: '', stderr: `ckpt-lab replay: ${parsed.file} is not a valid session document; nothing was run.\n${formatScenarioErrors(reading.errors)}\n`, exitCode: 2 };
  const { document, scenario } = reading;
  try {
    const { report, simulation } = runScenario(scenario, { seed: document.seed, until: document.recording.endTime, replay: replayOf(document.recording), ...(lsmStorage ? { lsmStorage } : {}) });
    // A recording comes from the record-level runtimes: only they replay.
    if ('checkReplayFollowed' in simulation) simulation.checkReplayFollowed();
    const failed = report.expectations.some((e) => !e.held);
    const header = `replayed ${document.recording.subtasks.length} subtask recordings, ${document.recording.checkpoints.length} checkpoint triggers, ${document.recording.faults.length} faults\n`;
    const stdout = parsed.json ? `${JSON.stringify(report, null, 2)}\n` : header + formatSummary(report);
    return { stdout, stderr: '', exitCode: failed ? 1 : 0 };
  } catch (error) {
    if (!(error instanceof ReplayDivergence)) throw error;
    return { stdout: '', stderr: `ckpt-lab replay: ${error.message}\n`, exitCode: 2 };
  }
}

function parseReplayArguments(args: string[]): { file: string; json: boolean } | string {
  let file: string | undefined;
  let json = false;
  for (const arg of args) {
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') return { file: '--help', json };
    else if (arg.startsWith('-')) return `unknown option "${arg}" (allowed: --json)`;
    else if (file !== undefined) return `only one SESSION file may be given, got "${file}" and "${arg}"`;
    else file = arg;
  }
  return file === undefined ? 'missing SESSION (a session document exported from the playground, JSON)' : { file, json };
}
