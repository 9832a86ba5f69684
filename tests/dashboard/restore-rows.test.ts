/**
 * The rows of the Latest Restore table and the inspector's Last restore (web/dashboard/restore-rows.ts):
 * a local restore, a remote one for every reason local recovery falls back for, a stateless subtask,
 * a non-keyed one, grouping by vertex in graph order, the collapsed table, and a real run of the
 * bundled local-recovery scenario.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LocalRecoveryFallbackReason } from '../../engine/recovery/local-recovery.ts';
import type { RestoreRecord, SubtaskRestore } from '../../engine/run/job-events.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { Simulation } from '../../engine/sim/simulation.ts';
import { FALLBACK_REASONS, firstRows, lastSubtaskRestore, restoreGroups, restoreRow, restoreRowOptions } from '../../web/dashboard/restore-rows.ts';

const subtask = (over: Partial<SubtaskRestore> = {}): SubtaskRestore => ({
  vertexId: 'count',
  subtaskIndex: 0,
  source: 'remote',
  reason: 'missing',
  bytes: 1_258_291,
  remoteBytes: 1_258_291,
  durationMs: 340,
  ...over,
});

const record = (subtasks: SubtaskRestore[], over: Partial<RestoreRecord> = {}): RestoreRecord => ({ time: 4500, checkpointId: 4, isSavepoint: false, subtasks, ...over });

const topology = {
  vertices: [
    { id: 'source', name: 'Events', type: 'source', parallelism: 2, maxParallelism: 128 },
    { id: 'count', name: 'Count per key', type: 'keyed-aggregate', parallelism: 2, maxParallelism: 128 },
    { id: 'sink', name: 'Transactional sink', type: 'sink', parallelism: 2, maxParallelism: 128 },
  ],
};

describe('restoreRow', () => {
  it('a local restore: no reason, its bytes, no remote part', () => {
    const row = restoreRow(subtask({ source: 'local', reason: undefined, remoteBytes: 0, durationMs: 1.2 }));
    expect(row).toEqual({
      vertexId: 'count',
      subtaskIndex: 0,
      label: 'count#0',
      source: 'local',
      reason: null,
      bytes: 1_258_291,
      remoteBytes: 0,
      showRemoteBytes: false,
      durationMs: 1.2,
    });
  });

  it('carries each state handle’s read time, and none for a handle the record did not time', () => {
    const row = restoreRow(
      subtask({
        source: 'remote',
        reason: 'partial',
        handles: [
          { kind: 'key-groups', keyGroupRange: { start: 0, end: 7 }, bytes: 100, source: 'local', durationMs: 26.7 },
          { kind: 'key-groups', keyGroupRange: { start: 8, end: 15 }, bytes: 100, source: 'remote', reason: 'partial', durationMs: 312.5 },
          { kind: 'operator', bytes: 0, source: 'failed', reason: 'partial' },
        ],
      }),
    );
    expect(row.handles!.map((h) => [h.keyGroups, h.source, h.durationMs])).toEqual([
      ['0–7', 'local', 26.7],
      ['8–15', 'remote', 312.5],
      [undefined, 'failed', undefined],
    ]);
    expect('durationMs' in row.handles![2]!).toBe(false);
  });

  it('a local restore that fetched some shared runs from remote names its remote bytes', () => {
    const row = restoreRow(subtask({ source: 'local', reason: undefined, remoteBytes: 4096 }));
    expect(row).toMatchObject({ source: 'local', reason: null, showRemoteBytes: true, remoteBytes: 4096 });
  });

  it('lists every fallback reason of local-recovery.ts, in the order it checks them', () => {
    const all: LocalRecoveryFallbackReason[] = ['local-recovery-disabled', 'rescaled', 'no-previous-slot', 'different-slot', 'different-host', 'missing', 'partial', 'corrupt'];
    expect(FALLBACK_REASONS).toEqual(all);
  });

  it.each(FALLBACK_REASONS)('a remote restore with reason %s keeps it', (reason) => {
    const row = restoreRow(subtask({ subtaskIndex: 1, reason }), restoreRowOptions(topology));
    expect(row).toMatchObject({ label: 'count#1', source: 'remote', reason, showRemoteBytes: false, bytes: 1_258_291, durationMs: 340 });
    expect(row.rawReason).toBeUndefined();
  });

  it('a subtask that read 0 bytes is stateless, whatever source and reason the record gives', () => {
    expect(restoreRow(subtask({ vertexId: 'words', bytes: 0, remoteBytes: 0, durationMs: 0 }))).toMatchObject({ reason: 'stateless', source: 'remote', showRemoteBytes: false });
    expect(restoreRow(subtask({ bytes: 0, remoteBytes: 0, reason: 'different-slot' }))).toMatchObject({ reason: 'stateless' });
    expect(restoreRow(subtask({ source: 'local', reason: undefined, bytes: 0, remoteBytes: 0 }))).toMatchObject({ reason: 'stateless', source: 'local' });
  });

  it('a non-keyed subtask with state that found no local copy says local recovery covers keyed state only', () => {
    const options = restoreRowOptions(topology);
    expect(restoreRow(subtask({ vertexId: 'source', bytes: 64, remoteBytes: 64 }), options).reason).toBe('not-keyed');
    expect(restoreRow(subtask({ vertexId: 'sink', bytes: 399_664, remoteBytes: 399_664 }), options).reason).toBe('not-keyed');
    // A reason checked before the disk stays; a keyed vertex's missing copy stays missing; without the topology, nothing is assumed.
    expect(restoreRow(subtask({ vertexId: 'sink', reason: 'different-slot' }), options).reason).toBe('different-slot');
    expect(restoreRow(subtask({ vertexId: 'count' }), options).reason).toBe('missing');
    expect(restoreRow(subtask({ vertexId: 'sink' })).reason).toBe('missing');
  });

  it('a reason this version does not know is kept verbatim', () => {
    expect(restoreRow(subtask({ reason: 'moon-phase' }))).toMatchObject({ reason: 'unknown', rawReason: 'moon-phase' });
    expect(restoreRow(subtask({ reason: undefined }))).toMatchObject({ reason: 'unknown', rawReason: '' });
  });
});

describe('restoreGroups', () => {
  const shuffled = record([
    subtask({ vertexId: 'sink', subtaskIndex: 1 }),
    subtask({ vertexId: 'count', subtaskIndex: 1, reason: 'corrupt' }),
    subtask({ vertexId: 'extra', subtaskIndex: 0 }),
    subtask({ vertexId: 'source', subtaskIndex: 0, bytes: 64, remoteBytes: 64 }),
    subtask({ vertexId: 'count', subtaskIndex: 0, source: 'local', reason: undefined, remoteBytes: 0 }),
    subtask({ vertexId: 'sink', subtaskIndex: 0 }),
  ]);

  it('groups by vertex in graph order, unknown vertices last, each group by subtask index', () => {
    const groups = restoreGroups(shuffled, restoreRowOptions(topology));
    expect(groups.map((g) => [g.vertexId, g.rows.map((r) => `${r.label} ${r.source} ${r.reason}`)])).toEqual([
      ['source', ['source#0 remote not-keyed']],
      ['count', ['count#0 local null', 'count#1 remote corrupt']],
      ['sink', ['sink#0 remote not-keyed', 'sink#1 remote not-keyed']],
      ['extra', ['extra#0 remote missing']],
    ]);
  });

  it('without a topology keeps the order the vertices first appear in', () => {
    expect(restoreGroups(shuffled).map((g) => g.vertexId)).toEqual(['sink', 'count', 'extra', 'source']);
  });

  it('firstRows cuts after the limit across groups, and counts what it left out', () => {
    const groups = restoreGroups(shuffled, restoreRowOptions(topology));
    const cut = firstRows(groups, 2);
    expect(cut.groups.map((g) => [g.vertexId, g.rows.map((r) => r.label)])).toEqual([
      ['source', ['source#0']],
      ['count', ['count#0']],
    ]);
    expect(cut).toMatchObject({ hidden: 4, total: 6 });
    expect(firstRows(groups, Infinity)).toMatchObject({ hidden: 0, total: 6 });
    expect(firstRows(groups, 8).groups).toEqual(groups);
  });
});

describe('lastSubtaskRestore', () => {
  it('finds the latest restore that included the subtask', () => {
    const first = record([subtask({ source: 'local', reason: undefined, remoteBytes: 0 })], { checkpointId: 4 });
    const second = record([subtask({ reason: 'corrupt' })], { checkpointId: 7, time: 8500 });
    const third = record([subtask({ vertexId: 'sink' })], { checkpointId: 9, time: 9500 });
    const found = lastSubtaskRestore([first, second, third], 'count', 0);
    expect(found?.record.checkpointId).toBe(7);
    expect(found?.row).toMatchObject({ source: 'remote', reason: 'corrupt' });
    expect(lastSubtaskRestore([first, second], 'count', 3)).toBeUndefined();
    expect(lastSubtaskRestore([], 'count', 0)).toBeUndefined();
  });
});

describe('the rows of a real run (public/scenarios/local-recovery.yaml)', () => {
  it('kill tm-1: count restores locally, the rest remotely; lose host-1: count#1 remotely from another slot', () => {
    const text = parseScenarioText(readFileSync('public/scenarios/local-recovery.yaml', 'utf8'));
    if (!text.ok) throw new Error('the bundled scenario does not parse');
    const validated = validateScenario(text.value);
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const simulation = new Simulation(validated.scenario);
    simulation.runUntil(9000);
    const options = restoreRowOptions(simulation.topology());
    const summary = (r: RestoreRecord) => restoreGroups(r, options).flatMap((g) => g.rows.map((row) => `${row.label} ${row.source} ${row.reason}`));
    expect(simulation.restores).toHaveLength(2);
    expect(summary(simulation.restores[0]!)).toEqual([
      'source#0 remote not-keyed',
      'source#1 remote not-keyed',
      'count#0 local null',
      'count#1 local null',
      'sink#0 remote not-keyed',
      'sink#1 remote not-keyed',
    ]);
    expect(summary(simulation.restores[1]!)).toEqual([
      'source#0 remote not-keyed',
      'source#1 remote different-slot',
      'count#0 local null',
      'count#1 remote different-slot',
      'sink#0 remote not-keyed',
      'sink#1 remote different-slot',
    ]);
  });
});
