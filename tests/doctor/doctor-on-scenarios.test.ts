/**
 * Each doctor rule on a playground run built to trigger it, and on the same run with the advice
 * taken (the finding must go away); a healthy run gets no finding at all. The runs go through
 * runScenario, as `ckpt-lab run` does, so the documents are the ones `--json` writes.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../engine/doctor/diagnose.ts';
import type { Finding, FindingCode } from '../../engine/doctor/finding.ts';
import { runDoctorDocuments } from '../../engine/doctor/run-doctor-documents.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

const runs = new Map<string, Finding[]>();

/** The doctor's findings for a scenario file (from the repository root), with config options changed; each run once. */
function findingsOf(file: string, config: Record<string, unknown> = {}, untilMs?: number): Finding[] {
  const key = JSON.stringify([file, config, untilMs]);
  if (!runs.has(key)) runs.set(key, diagnoseRun(file, config, untilMs));
  return runs.get(key)!;
}

function diagnoseRun(file: string, config: Record<string, unknown>, untilMs: number | undefined): Finding[] {
  const text = parseScenarioText(readFileSync(file, 'utf8'));
  if (!text.ok) throw new Error(`${file}: not YAML`);
  const document = text.value as { config?: Record<string, unknown> };
  const valid = validateScenario({ ...document, config: { ...document.config, ...config } });
  if (!valid.ok) throw new Error(`${file}: ${JSON.stringify(valid.errors)}`);
  const { report, simulation } = runScenario(valid.scenario, { lsmStorage, ...(untilMs === undefined ? {} : { until: untilMs }) });
  return diagnose(runDoctorDocuments(simulation, report.output.duplicates));
}

/** A run takes seconds of CPU (twice: the oracle run too); the machine may be shared. */
const RUN_TIMEOUT_MS = 180_000;

const codes = (findings: readonly Finding[]) => findings.map((f) => f.code);

describe('the checkpoint doctor on playground runs', () => {
  it.each<[string, string, Record<string, unknown>, number | undefined, FindingCode, string]>([
    ['checkpoints as long as the interval, no gap', 'public/scenarios/always-checkpointing.yaml', {}, 12000, 'always-checkpointing', 'interval-and-min-pause'],
    ['barriers stuck behind backpressured buffers', 'public/lessons/backpressure-and-unaligned.yaml', {}, 6000, 'backpressure-start-delay', 'backpressure-and-unaligned'],
    ['a two-input join waiting for its slow input', 'tests/doctor/scenarios/long-alignment.yaml', {}, undefined, 'long-alignment', 'backpressure-and-unaligned'],
    ['full RocksDB checkpoints of growing state', 'tests/doctor/scenarios/growing-full-rocksdb.yaml', {}, undefined, 'growing-full-checkpoints', 'full-vs-incremental'],
    ['one subtask uploading all the state', 'public/lessons/parallelism-and-checkpoint-duration.yaml', {}, 8000, 'slow-async-phase-uncompressed', 'parallelism-and-checkpoint-duration'],
    ['heap timers copied in the sync phase', 'tests/doctor/scenarios/heap-timers.yaml', {}, undefined, 'heap-timers-sync-phase', 'timers-and-compression'],
    ['checkpoints expiring with no failure tolerated', 'public/lessons/timeout-and-tolerable-failures.yaml', {}, 12000, 'failures-near-tolerable-limit', 'timeout-and-tolerable-failures'],
    ['a restore reading everything from slow remote storage', 'tests/doctor/scenarios/slow-remote-restore.yaml', {}, undefined, 'slow-remote-restore', 'task-local-recovery'],
    ['AT_LEAST_ONCE with a plain sink', 'public/scenarios/at-least-once-duplicates.yaml', {}, undefined, 'at-least-once-duplicates', 'exactly-once-vs-at-least-once'],
    ['a hot key on one subtask', 'tests/doctor/scenarios/skewed-subtask.yaml', {}, undefined, 'subtask-skew', 'parallelism-and-checkpoint-duration'],
  ])('finds %s (%s)', (_, file, config, until, code, lesson) => {
    const finding = findingsOf(file, config, until).find((f) => f.code === code);
    expect(finding, `${code} in ${file}`).toBeDefined();
    expect(finding!.lesson).toBe(lesson);
  }, RUN_TIMEOUT_MS);

  it.each<[string, string, Record<string, unknown>, number | undefined, FindingCode]>([
    ['with a min-pause', 'public/scenarios/min-pause.yaml', {}, 12000, 'always-checkpointing'],
    ['with incremental checkpoints', 'tests/doctor/scenarios/growing-full-rocksdb.yaml', { 'execution.checkpointing.incremental': true }, undefined, 'growing-full-checkpoints'],
    ['with the timers in RocksDB', 'tests/doctor/scenarios/heap-timers.yaml', { 'state.backend.rocksdb.timer-service.factory': 'ROCKSDB' }, undefined, 'heap-timers-sync-phase'],
    [
      'with task-local recovery',
      'tests/doctor/scenarios/slow-remote-restore.yaml',
      { 'execution.checkpointing.local-backup.enabled': true, 'execution.state-recovery.from-local': true },
      undefined,
      'slow-remote-restore',
    ],
    ['with EXACTLY_ONCE', 'public/scenarios/at-least-once-duplicates.yaml', { 'execution.checkpointing.mode': 'EXACTLY_ONCE' }, undefined, 'at-least-once-duplicates'],
    ['with compression on', 'public/lessons/parallelism-and-checkpoint-duration.yaml', { 'execution.checkpointing.snapshot-compression': true }, 8000, 'slow-async-phase-uncompressed'],
  ])('says nothing of it %s (%s)', (_, file, config, until, code) => {
    expect(codes(findingsOf(file, config, until))).not.toContain(code);
  }, RUN_TIMEOUT_MS);

  it('finds nothing wrong with a healthy job', () => {
    expect(findingsOf('tests/doctor/scenarios/healthy.yaml')).toEqual([]);
  }, RUN_TIMEOUT_MS);

  it('cites the figures: the median duration, the interval and the pause of an always-checkpointing job', () => {
    const finding = findingsOf('public/scenarios/always-checkpointing.yaml', {}, 12000).find((f) => f.code === 'always-checkpointing');
    expect(finding!.params).toMatchObject({ intervalMs: 1000, minPauseMs: 0 });
    expect(finding!.params['durationMs']).toBeGreaterThan(1000);
    expect(finding!.params['pauseMs']).toBeLessThan(100);
  }, RUN_TIMEOUT_MS);
});
