import { describe, expect, it } from 'vitest';
import { HostLocalDisk } from '../../engine/recovery/host-local-disk.ts';
import {
  decideSubtaskRestore,
  writesLocalCopy,
  type LocalRecoveryFallbackReason,
  type SubtaskRestoreDecision,
  type SubtaskRestoreRequest,
} from '../../engine/recovery/local-recovery.ts';
import { COSTS, JOB, MiB, keyOf, snapshot } from './local-state-fixtures.ts';

const CHECKPOINT = 5;
const SLOT = { slotId: 'tm-0/slot-0', host: 'host-0' };
const LOCAL_MS = 3; // 1 ms latency + 1 MiB at 500 MiB/s
const REMOTE_MS = 60; // 50 ms latency + 1 MiB at 100 MiB/s

type LocalCopyState = 'ok' | 'missing' | 'other-checkpoint-only' | 'partial' | 'corrupt-content' | 'corrupt-checksum';
type RemoteCopyState = 'ok' | 'missing';

function diskHolding(state: LocalCopyState): HostLocalDisk {
  const disk = new HostLocalDisk(SLOT.host);
  const key = keyOf(SLOT.slotId);
  if (state === 'missing') return disk;
  if (state === 'other-checkpoint-only') {
    disk.store(key, CHECKPOINT - 1, snapshot(CHECKPOINT - 1));
    return disk;
  }
  disk.store(key, CHECKPOINT, snapshot(CHECKPOINT), { complete: state !== 'partial' });
  if (state === 'corrupt-content') disk.corrupt({ vertexId: 'count', subtaskIndex: 0 }, 'content');
  if (state === 'corrupt-checksum') disk.corrupt({ vertexId: 'count', subtaskIndex: 0 }, 'checksum');
  return disk;
}

/** The subtask comes back in its previous slot on the same host, local recovery on, same parallelism. */
function request(local: LocalCopyState, remote: RemoteCopyState, overrides: Partial<SubtaskRestoreRequest> = {}): SubtaskRestoreRequest {
  return {
    jobId: JOB,
    subtask: { vertexId: 'count', subtaskIndex: 0 },
    checkpointId: CHECKPOINT,
    localRecovery: true,
    rescaled: false,
    previousSlot: SLOT,
    slot: SLOT,
    disk: diskHolding(local),
    remote: remote === 'ok' ? { bytes: MiB } : 'missing',
    costs: COSTS,
    ...overrides,
  };
}

/** The decision without the restored snapshot, for tables. */
function outcome(d: SubtaskRestoreDecision) {
  if (d.source === 'local') return { source: d.source, bytes: d.bytes, durationMs: d.durationMs };
  if (d.source === 'remote') return { source: d.source, reason: d.reason, bytes: d.bytes, durationMs: d.durationMs };
  return { source: d.source, localReason: d.localReason };
}

const local = { source: 'local', bytes: MiB, durationMs: LOCAL_MS };
const remote = (reason: LocalRecoveryFallbackReason, durationMs = REMOTE_MS) => ({ source: 'remote', reason, bytes: MiB, durationMs });
const failed = (localReason: LocalRecoveryFallbackReason) => ({ source: 'failed', localReason });

describe('restore source: local copy × remote copy, same slot on the same host', () => {
  it.each<[LocalCopyState, RemoteCopyState, object]>([
    ['ok', 'ok', local],
    ['ok', 'missing', local],
    ['missing', 'ok', remote('missing')],
    ['missing', 'missing', failed('missing')],
    ['other-checkpoint-only', 'ok', remote('missing')],
    ['other-checkpoint-only', 'missing', failed('missing')],
    ['partial', 'ok', remote('partial')],
    ['partial', 'missing', failed('partial')],
    // a corrupt copy is only found out by reading it: the wasted local read adds to the remote one
    ['corrupt-content', 'ok', remote('corrupt', LOCAL_MS + REMOTE_MS)],
    ['corrupt-content', 'missing', failed('corrupt')],
    ['corrupt-checksum', 'ok', remote('corrupt', LOCAL_MS + REMOTE_MS)],
    ['corrupt-checksum', 'missing', failed('corrupt')],
  ])('local copy %s, remote copy %s', (localState, remoteState, expected) => {
    expect(outcome(decideSubtaskRestore(request(localState, remoteState)))).toEqual(expected);
  });
});

describe('restore source: when a good local copy may not be used', () => {
  it.each<[string, Partial<SubtaskRestoreRequest>, LocalRecoveryFallbackReason]>([
    ['local recovery is disabled', { localRecovery: false }, 'local-recovery-disabled'],
    ['the vertex was rescaled', { rescaled: true }, 'rescaled'],
    ['the subtask did not run before', { previousSlot: undefined }, 'no-previous-slot'],
    ['the subtask restarts in a fresh slot of a replacement TaskManager on the same host', { slot: { slotId: 'tm-4/slot-0', host: 'host-0' } }, 'different-slot'],
    ['the subtask restarts on another host', { slot: { slotId: 'tm-4/slot-0', host: 'host-1' }, disk: new HostLocalDisk('host-1') }, 'different-slot'],
    ['the slot id is the same but the host is another', { slot: { slotId: SLOT.slotId, host: 'host-1' } }, 'different-host'],
    ['the host has no disk', { disk: undefined }, 'missing'],
  ])('reads remote when %s', (_name, overrides, reason) => {
    expect(outcome(decideSubtaskRestore(request('ok', 'ok', overrides)))).toEqual(remote(reason));
  });

  it.each<[string, Partial<SubtaskRestoreRequest>, LocalRecoveryFallbackReason]>([
    ['local recovery is disabled', { localRecovery: false }, 'local-recovery-disabled'],
    ['the vertex was rescaled', { rescaled: true }, 'rescaled'],
    ['the subtask restarts in another slot', { slot: { slotId: 'tm-4/slot-0', host: 'host-0' } }, 'different-slot'],
  ])('fails when the remote copy is missing and %s', (_name, overrides, localReason) => {
    expect(outcome(decideSubtaskRestore(request('ok', 'missing', overrides)))).toEqual(failed(localReason));
  });

  it('checks in order: disabled before rescaled before slot before the copy itself', () => {
    const everythingWrong = { localRecovery: false, rescaled: true, slot: { slotId: 'tm-9/slot-0', host: 'host-1' } };
    expect(outcome(decideSubtaskRestore(request('corrupt-content', 'ok', everythingWrong)))).toEqual(remote('local-recovery-disabled'));
    expect(outcome(decideSubtaskRestore(request('corrupt-content', 'ok', { ...everythingWrong, localRecovery: true })))).toEqual(remote('rescaled'));
  });
});

describe('restore decision details', () => {
  it('hands back the local copy to restore from', () => {
    const decision = decideSubtaskRestore(request('ok', 'missing'));
    expect(decision.source).toBe('local');
    if (decision.source === 'local') expect(decision.snapshot).toEqual(snapshot(CHECKPOINT));
  });

  it('names the subtask, the checkpoint and the local reason when the restore fails', () => {
    const decision = decideSubtaskRestore(request('partial', 'missing'));
    expect(decision).toMatchObject({
      source: 'failed',
      reason: 'cannot restore count#0 from checkpoint 5: the remote copy is missing and the local copy cannot be used (partial)',
    });
  });

  it('takes no time to restore a subtask without state', () => {
    expect(outcome(decideSubtaskRestore(request('missing', 'ok', { remote: { bytes: 0 } })))).toEqual({ source: 'remote', reason: 'missing', bytes: 0, durationMs: 0 });
  });

  it('changes nothing on the disk', () => {
    const r = request('ok', 'ok');
    const before = r.disk!.list();
    decideSubtaskRestore(r);
    expect(r.disk!.list()).toEqual(before);
  });
});

describe('writesLocalCopy', () => {
  const keyed = snapshot(1);
  const { keyedState: _dropped, ...operatorStateOnly } = keyed;
  it.each<[string, Parameters<typeof writesLocalCopy>[0], boolean]>([
    ['an aligned checkpoint of keyed state with local backup on', { localBackupEnabled: true, isSavepoint: false, unalignedCheckpoint: false, snapshot: keyed }, true],
    ['local backup off', { localBackupEnabled: false, isSavepoint: false, unalignedCheckpoint: false, snapshot: keyed }, false],
    ['a savepoint', { localBackupEnabled: true, isSavepoint: true, unalignedCheckpoint: false, snapshot: keyed }, false],
    ['an unaligned checkpoint', { localBackupEnabled: true, isSavepoint: false, unalignedCheckpoint: true, snapshot: keyed }, false],
    ['a subtask without keyed state', { localBackupEnabled: true, isSavepoint: false, unalignedCheckpoint: false, snapshot: operatorStateOnly }, false],
  ])('for %s: %s', (_name, write, expected) => {
    expect(writesLocalCopy(write)).toBe(expected);
  });
});
