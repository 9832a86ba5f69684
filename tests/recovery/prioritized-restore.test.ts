/**
 * Prioritized restore per state handle (Flink's PrioritizedOperatorSubtaskState and
 * BackendRestorerProcedure, restated as behaviour tables as PrioritizedOperatorSubtaskStateTest
 * does): each handle of a subtask tries its local alternative first and the remote copy as
 * fallback, one subtask mixing both; the restore fails only when both fail.
 */
import { describe, expect, it } from 'vitest';
import { HostLocalDisk, keyGroupHandlesOfCopy } from '../../engine/recovery/host-local-disk.ts';
import { LOCAL_COPY_KEY_GROUP_HANDLES } from '../../engine/recovery/local-key-groups-handles.ts';
import { decideSubtaskRestore, writesLocalCopy, type SubtaskRestoreDecision, type SubtaskRestoreRequest } from '../../engine/recovery/local-recovery.ts';
import type { TaskStateSnapshot } from '../../engine/protocol.ts';
import { operatorSubtaskStateOf, stateHandleRefsOf } from '../../engine/state/handles/operator-subtask-state.ts';
import { COSTS, JOB, MiB, keyOf } from './local-state-fixtures.ts';

const CHECKPOINT = 7;
const SLOT = { slotId: 'tm-0/slot-0', host: 'host-0' };
const SUBTASK = { vertexId: 'count', subtaskIndex: 0 };
/** one key per key group, so every handle of the copy holds state of its own */
const KEY_GROUPS = 64;

function keyedSnapshot(stateSize = MiB, extra: Partial<TaskStateSnapshot> = {}): TaskStateSnapshot {
  const keyGroups = Array.from({ length: KEY_GROUPS }, (_, g) => ({ keyGroup: g, states: { count: [[`key-${g}`, g] as [string, number]] } }));
  return { subtask: SUBTASK, keyedState: { keyGroupRange: { start: 0, end: KEY_GROUPS - 1 }, keyGroups, sizeBytes: stateSize }, stateSize, checkpointedSize: stateSize, ...extra };
}

function incrementalSnapshot(): TaskStateSnapshot {
  return {
    subtask: SUBTASK,
    keyedState: { incremental: { keyGroupRange: { start: 0, end: KEY_GROUPS - 1 }, manifest: ['a', 'b'] } },
    sharedFiles: [
      { name: 'a', sizeBytes: MiB / 2, contents: { run: 'a' } },
      { name: 'b', sizeBytes: MiB / 2, contents: { run: 'b' } },
    ],
    stateSize: MiB,
    checkpointedSize: MiB,
  };
}

/** The state one key-group handle of the local copy is in. */
type HandleState = 'ok' | 'missing' | 'corrupt';
type RemoteState = 'present' | 'missing';

function request(disk: HostLocalDisk, snapshot: TaskStateSnapshot, remote: RemoteState): SubtaskRestoreRequest {
  return {
    jobId: JOB,
    subtask: SUBTASK,
    checkpointId: CHECKPOINT,
    localRecovery: true,
    rescaled: false,
    previousSlot: SLOT,
    slot: SLOT,
    disk,
    remote: remote === 'present' ? { bytes: snapshot.stateSize } : 'missing',
    remoteHandles: stateHandleRefsOf(operatorSubtaskStateOf(snapshot)),
    costs: COSTS,
  };
}

/** A disk whose copy of the snapshot has its key-group handles in the given states. */
function diskWithHandles(snapshot: TaskStateSnapshot, states: readonly HandleState[]): HostLocalDisk {
  const disk = new HostLocalDisk(SLOT.host);
  disk.store(keyOf(SLOT.slotId), CHECKPOINT, snapshot);
  const handles = keyGroupHandlesOfCopy(disk.retrieve(keyOf(SLOT.slotId), CHECKPOINT)!);
  states.forEach((state, i) => {
    const selector = { ...selectorOf(), keyGroup: handles[i]!.keyGroupRange.start };
    if (state === 'missing') disk.delete(selector);
    if (state === 'corrupt') disk.corrupt(selector);
  });
  return disk;
}

function selectorOf() {
  return { vertexId: SUBTASK.vertexId, subtaskIndex: SUBTASK.subtaskIndex };
}

/** Every combination of `n` handles' states. */
function combinations(n: number): HandleState[][] {
  if (n === 0) return [[]];
  return combinations(n - 1).flatMap((rest) => (['ok', 'missing', 'corrupt'] as const).map((s) => [s, ...rest]));
}

/** The rule, said independently of the code: intact handles local, the others remote with their reason, or failed without remote. */
function expected(states: readonly HandleState[], remote: RemoteState) {
  const fallback = (s: HandleState) => (s === 'missing' ? 'partial' : 'corrupt');
  const allOk = states.every((s) => s === 'ok');
  const source = allOk ? 'local' : remote === 'missing' ? 'failed' : 'remote';
  const reason = allOk ? undefined : states.includes('missing') ? 'partial' : 'corrupt';
  // Nothing usable locally: the remote copy is read as it is, one handle of the whole range.
  if (!states.includes('ok')) return { source, reason, handles: [{ source, reason }] };
  const handles = states.map((s) => (s === 'ok' ? { source: 'local' } : { source: remote === 'missing' ? 'failed' : 'remote', reason: fallback(s) }));
  return { source, reason, handles };
}

function actual(d: SubtaskRestoreDecision) {
  const reason = d.source === 'remote' ? d.reason : d.source === 'failed' ? d.localReason : undefined;
  return { source: d.source, reason, handles: d.handles.map((h) => (h.source === 'local' ? { source: h.source } : { source: h.source, reason: h.reason })) };
}

describe('prioritized restore of key-group handles (full keyed snapshots)', () => {
  it(`writes a full keyed snapshot's local copy as ${LOCAL_COPY_KEY_GROUP_HANDLES} key-group handles that cover its range once`, () => {
    const disk = diskWithHandles(keyedSnapshot(), []);
    const handles = keyGroupHandlesOfCopy(disk.retrieve(keyOf(SLOT.slotId), CHECKPOINT)!);
    expect(handles).toHaveLength(LOCAL_COPY_KEY_GROUP_HANDLES);
    expect(handles.map((h) => [h.keyGroupRange.start, h.keyGroupRange.end])).toEqual([
      [0, 15],
      [16, 31],
      [32, 47],
      [48, 63],
    ]);
    expect(handles.every((h) => h.present)).toBe(true);
  });

  for (const remote of ['present', 'missing'] as const) {
    it(`restores each handle locally when intact and otherwise remotely, for all 3^4 handle states, remote ${remote}`, () => {
      for (const states of combinations(LOCAL_COPY_KEY_GROUP_HANDLES)) {
        const snapshot = keyedSnapshot();
        const decision = decideSubtaskRestore(request(diskWithHandles(snapshot, states), snapshot, remote));
        expect(actual(decision), states.join(',')).toEqual(expected(states, remote));
      }
    });
  }

  it('reads remotely only the bytes of the handles the local copy lacks, and says it mixed', () => {
    const snapshot = keyedSnapshot(4 * MiB);
    const decision = decideSubtaskRestore(request(diskWithHandles(snapshot, ['ok', 'missing', 'ok', 'ok']), snapshot, 'present'));
    expect(decision.source).toBe('remote');
    if (decision.source !== 'remote') return;
    expect(decision.reason).toBe('partial');
    expect(decision.localPart!.bytes).toBe(3 * MiB);
    expect(decision.localPart!.keyGroupRanges).toEqual([
      { start: 0, end: 15 },
      { start: 32, end: 47 },
      { start: 48, end: 63 },
    ]);
    expect(decision.handles.filter((h) => h.source === 'remote').map((h) => [h.keyGroupRange, h.bytes])).toEqual([[{ start: 16, end: 31 }, MiB]]);
  });

  it('takes less time for a half-local restore than a fully remote one, and more than a fully local one', () => {
    const snapshot = keyedSnapshot(4 * MiB);
    const ms = (states: HandleState[]) => {
      const d = decideSubtaskRestore(request(diskWithHandles(snapshot, states), snapshot, 'present'));
      return d.source === 'failed' ? NaN : d.durationMs;
    };
    const half = ms(['ok', 'ok', 'missing', 'missing']);
    expect(half).toBeLessThan(ms(['missing', 'missing', 'missing', 'missing']));
    expect(half).toBeGreaterThan(ms(['ok', 'ok', 'ok', 'ok']));
  });

  it('treats a copy whose write is still in flight as partial with no handle on the disk: everything remote', () => {
    const snapshot = keyedSnapshot();
    const disk = new HostLocalDisk(SLOT.host);
    disk.store(keyOf(SLOT.slotId), CHECKPOINT, snapshot, { complete: false, bytes: MiB / 2 });
    const decision = decideSubtaskRestore(request(disk, snapshot, 'present'));
    expect(decision).toMatchObject({ source: 'remote', reason: 'partial' });
    expect(decision.source === 'remote' && decision.localPart).toBeFalsy();
  });

  it('falls back whole when the copy as a whole fails its checksum, even with its handles intact', () => {
    const snapshot = keyedSnapshot();
    const disk = diskWithHandles(snapshot, []);
    disk.corrupt(selectorOf(), 'checksum');
    const decision = decideSubtaskRestore(request(disk, snapshot, 'present'));
    expect(actual(decision).handles.every((h) => h.source === 'remote')).toBe(true);
    expect(decision).toMatchObject({ source: 'remote', reason: 'corrupt' });
  });

  it('lists a partial copy on the disk as incomplete, smaller by the lost handle, with the handle file named', () => {
    const disk = new HostLocalDisk(SLOT.host);
    disk.store(keyOf(SLOT.slotId), CHECKPOINT, keyedSnapshot(4 * MiB));
    const paths = disk.delete({ ...selectorOf(), keyGroup: 20 });
    expect(paths).toEqual([`aid_${SLOT.slotId}/jid_${JOB}/vtx_count_sti_0/chk_${CHECKPOINT}/kg_16-31`]);
    expect(disk.list().stores[0]!.copies[0]).toMatchObject({ complete: false, bytes: 3 * MiB });
  });
});

describe('prioritized restore per handle kind', () => {
  type CopyState = 'complete' | 'missing-run' | 'corrupt-run' | 'no-copy';
  const incrementalCases: Array<[CopyState, RemoteState, string, string | undefined]> = [
    ['complete', 'present', 'local', undefined],
    ['complete', 'missing', 'local', undefined],
    ['missing-run', 'present', 'remote', 'missing'],
    ['missing-run', 'missing', 'failed', 'missing'],
    ['corrupt-run', 'present', 'remote', 'corrupt'],
    ['corrupt-run', 'missing', 'failed', 'corrupt'],
    ['no-copy', 'present', 'remote', 'missing'],
    ['no-copy', 'missing', 'failed', 'missing'],
  ];
  for (const [copy, remote, source, reason] of incrementalCases) {
    it(`restores an incremental keyed handle whole from ${source} when the local copy is ${copy} and remote ${remote}`, () => {
      const snapshot = incrementalSnapshot();
      const disk = new HostLocalDisk(SLOT.host);
      if (copy !== 'no-copy') disk.store(keyOf(SLOT.slotId), CHECKPOINT, snapshot);
      if (copy === 'missing-run') disk.delete({ ...selectorOf(), run: 'b' });
      if (copy === 'corrupt-run') disk.corrupt({ ...selectorOf(), run: 'b' });
      const decision = decideSubtaskRestore(request(disk, snapshot, remote));
      expect(actual(decision).source).toBe(source);
      expect(actual(decision).reason).toBe(reason);
      // One handle: the native checkpoint directory is restored all from one side.
      expect(new Set(decision.handles.map((h) => h.source))).toEqual(new Set([source]));
    });
  }

  it('has no key-group handle to lose in an incremental copy: a key_group fault finds nothing there', () => {
    const disk = new HostLocalDisk(SLOT.host);
    disk.store(keyOf(SLOT.slotId), CHECKPOINT, incrementalSnapshot());
    expect(disk.delete({ ...selectorOf(), keyGroup: 3 })).toEqual([]);
    expect(disk.corrupt({ ...selectorOf(), keyGroup: 3 })).toEqual([]);
    expect(decideSubtaskRestore(request(disk, incrementalSnapshot(), 'present')).source).toBe('local');
  });

  it('restores operator state (a 2PC sink\'s pending transactions) from remote when the keyed handles mix', () => {
    const snapshot = keyedSnapshot(MiB, { pendingTransactions: [{ id: 'txn-1', checkpointId: CHECKPOINT, records: [] }] });
    const decision = decideSubtaskRestore(request(diskWithHandles(snapshot, ['missing', 'ok', 'ok', 'ok']), snapshot, 'present'));
    expect(decision.handles.filter((h) => h.kind === 'operator')).toEqual([{ kind: 'operator', bytes: 0, source: 'remote', reason: 'partial' }]);
  });

  it('never writes a local copy of a subtask without keyed state, nor of an unaligned snapshot (channel state stays remote)', () => {
    const source: TaskStateSnapshot = { subtask: { vertexId: 'source', subtaskIndex: 0 }, sourceOffset: 12, stateSize: 8, checkpointedSize: 8 };
    const write = { localBackupEnabled: true, isSavepoint: false };
    expect(writesLocalCopy({ ...write, unalignedCheckpoint: false, snapshot: source })).toBe(false);
    expect(writesLocalCopy({ ...write, unalignedCheckpoint: true, snapshot: keyedSnapshot() })).toBe(false);
  });

  it('names a subtask\'s handles by Flink\'s collections: keyed, operator, input-channel and result-subpartition state', () => {
    const buffer = { kind: 'data' as const, records: [], sizeBytes: 100 };
    const snapshot = keyedSnapshot(MiB, {
      sourceOffset: 3,
      channelState: { inputs: [{ gate: 0, channel: 1, buffers: [buffer] }], outputs: [{ channelId: 4, buffers: [buffer, buffer] }] },
    });
    const state = operatorSubtaskStateOf(snapshot);
    expect(stateHandleRefsOf(state).map((h) => [h.kind, h.bytes])).toEqual([
      ['key-groups', MiB - 300],
      ['operator', 0],
      ['input-channel', 100],
      ['result-subpartition', 200],
    ]);
  });
});
