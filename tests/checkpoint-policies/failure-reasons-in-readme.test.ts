/**
 * The README's table of failure reasons is the learner's answer to "which failures count toward
 * tolerable-failed-checkpoints": it must list every reason the playground's code produces, and
 * say "counted" exactly where Flink's isCountedAgainstFailureThreshold does.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FAILURE_REASONS, type CheckpointFailureReason } from '../../engine/checkpoint/checkpoint-failure-reason.ts';
import { sourceFiles, withoutComments } from '../support/source-files.ts';

function readmeTable(): Map<string, boolean> {
  const readme = readFileSync('README.md', 'utf8');
  const rows = new Map<string, boolean>();
  for (const m of readme.matchAll(/^\s*\| `([A-Z_]+)` \| (yes|no) \|/gm)) rows.set(m[1]!, m[2] === 'yes');
  return rows;
}

/** Reasons named as string literals in the engine's and the live runtime's code (the enum's own file aside). */
function producedReasons(): Set<CheckpointFailureReason> {
  const names = Object.keys(CHECKPOINT_FAILURE_REASONS) as CheckpointFailureReason[];
  const produced = new Set<CheckpointFailureReason>();
  for (const file of [...sourceFiles('engine'), ...sourceFiles('workers')]) {
    if (file.endsWith('checkpoint-failure-reason.ts')) continue;
    const text = withoutComments(readFileSync(file, 'utf8'));
    // IO_EXCEPTION is also the reason of a failed storage request (StorageError), which is not a checkpoint's.
    for (const name of names) if (name !== 'IO_EXCEPTION' && text.includes(`'${name}'`)) produced.add(name);
  }
  return produced;
}

describe('the README’s failure reasons', () => {
  it('list every reason the playground produces', () => {
    const table = readmeTable();
    const missing = [...producedReasons()].filter((r) => !table.has(r));
    expect(missing, 'reasons the code produces that the README table does not list').toEqual([]);
    expect(table.size).toBeGreaterThan(5);
  });

  it('say counted exactly where Flink counts the reason toward tolerable-failed-checkpoints', () => {
    for (const [reason, counted] of readmeTable()) {
      const info = CHECKPOINT_FAILURE_REASONS[reason as CheckpointFailureReason];
      expect(info, `${reason} is not one of Flink's CheckpointFailureReason constants`).toBeDefined();
      expect(counted, reason).toBe(info.counted);
    }
  });
});
