/**
 * The checkpoint doctor on real Flink REST responses (tests/flink-samples/), as `ckpt-lab inspect`
 * imports them, and on those responses changed the way a troubled job's would be.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type {
  CheckpointConfigDocument,
  CheckpointStatisticsDocument,
  CompletedCheckpointStatisticsDocument,
  FailedCheckpointStatisticsDocument,
} from '../../engine/checkpoint/stats/rest-document-types.ts';
import { diagnose } from '../../engine/doctor/diagnose.ts';
import type { DoctorDocuments } from '../../engine/doctor/doctor-documents.ts';
import { importFlinkStatisticsText, type ImportedFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';

const FLINK_115 = '01-checkpoints-flink-kubernetes-operator-flink115-history10.json';
const FLINK_191 = '08-checkpoints-soojae-study-flink191-38completed.json';

function imported(text: string): ImportedFlinkStatistics {
  const result = importFlinkStatisticsText(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
  return result.statistics;
}

const sample = (name: string) => imported(readFileSync(new URL(`../flink-samples/${name}`, import.meta.url), 'utf8'));

/** The 1.15 sample's history, oldest first, each entry changed by `change`. */
function withHistory(change: (entry: CheckpointStatisticsDocument, index: number) => CheckpointStatisticsDocument): DoctorDocuments {
  const statistics = sample(FLINK_115);
  const history = [...statistics.checkpoints!.history].sort((a, b) => a.id - b.id).map(change);
  return { ...statistics, checkpoints: { ...statistics.checkpoints!, history } };
}

/** Flink 1.15's /checkpoints/config for a job with the given settings. */
function config(overrides: Partial<CheckpointConfigDocument>): CheckpointConfigDocument {
  return {
    mode: 'exactly_once', interval: 2000, timeout: 600000, min_pause: 0, max_concurrent: 1,
    externalization: { enabled: true, delete_on_cancellation: false }, state_backend: 'HashMapStateBackend',
    checkpoint_storage: 'FileSystemCheckpointStorage', unaligned_checkpoints: false, tolerable_failed_checkpoints: 0,
    aligned_checkpoint_timeout: 0, checkpoints_after_tasks_finish: true, state_changelog_enabled: false,
    changelog_periodic_materialization_interval: 600000, changelog_storage: 'memory', ...overrides,
  };
}

/** An entry of the history as a failed checkpoint with Flink's failure message. */
function failed(entry: CheckpointStatisticsDocument, message: string): FailedCheckpointStatisticsDocument {
  const { className: _class, external_path: _path, discarded: _discarded, ...fields } = entry as CompletedCheckpointStatisticsDocument;
  return { ...fields, className: 'failed', status: 'FAILED', failure_timestamp: entry.latest_ack_timestamp, failure_message: message };
}

describe('the checkpoint doctor on real Flink responses', () => {
  it.each([
    // 10 history entries of ~20 ms every 2 s: a job with plenty of room; the 10 failures in
    // counts.failed are not in the history (failed before they became checkpoints), so not judged.
    [FLINK_115],
    // 38 completed checkpoints of a few ms and 8 KiB, every 2 s: nothing to say.
    [FLINK_191],
  ])('finds nothing wrong in %s', (name) => {
    expect(diagnose(sample(name))).toEqual([]);
  });

  it('finds the 1.15 job always checkpointing once each checkpoint lasts until the next trigger, without the config', () => {
    const documents = withHistory((entry) => ({ ...entry, end_to_end_duration: 1995, latest_ack_timestamp: entry.trigger_timestamp + 1995 }));
    expect(diagnose(documents)).toEqual([
      { code: 'always-checkpointing', lesson: 'interval-and-min-pause', params: { durationMs: 1995, intervalMs: -1, pauseMs: 5, minPauseMs: -1, checkpoints: 10 } },
    ]);
  });

  it.each<[string, string, number | undefined, number]>([
    ['three expired in a row, no config: two in a row are a pattern', 'Checkpoint expired before completing.', undefined, 3],
    ['three expired in a row against 4 tolerable', 'Checkpoint expired before completing.', 4, 3],
    ['a real job’s exception text counts too', 'java.io.IOException: No space left on device', 6, 3],
  ])('finds failures near the tolerable limit: %s', (_, message, tolerable, consecutive) => {
    const history = withHistory((entry, i) => (i >= 5 && i < 8 ? failed(entry, message) : entry));
    const documents = tolerable === undefined ? history : { ...history, checkpointConfig: config({ tolerable_failed_checkpoints: tolerable }) };
    const [finding] = diagnose(documents);
    expect(finding).toMatchObject({ code: 'failures-near-tolerable-limit', lesson: 'timeout-and-tolerable-failures', params: { consecutive, tolerable: tolerable ?? -1, reason: message } });
  });

  it.each([
    ['failures Flink does not count (a failover suspends the coordinator)', 'Checkpoint Coordinator is suspending.', 0],
    ['three failures against 10 tolerable', 'Checkpoint expired before completing.', 10],
  ])('says nothing of %s', (_, message, tolerable) => {
    const documents = { ...withHistory((entry, i) => (i >= 5 && i < 8 ? failed(entry, message) : entry)), checkpointConfig: config({ tolerable_failed_checkpoints: tolerable }) };
    expect(diagnose(documents)).toEqual([]);
  });

  it('says an imported AT_LEAST_ONCE job’s sinks are unknown, rather than guessing duplicates', () => {
    expect(diagnose({ ...sample(FLINK_115), checkpointConfig: config({ mode: 'at_least_once' }) })).toEqual([
      { code: 'at-least-once-sink-unknown', lesson: 'exactly-once-vs-at-least-once', params: {} },
    ]);
  });
});

/** A saved subtasks response (its vertex id only in the URL) whose two subtasks have these figures. */
function subtasksResponse(figures: { startDelay: number; alignment: number; sync: number; async: number }): DoctorDocuments['checkpointSubtaskDetails'] {
  const endToEnd = figures.startDelay + figures.alignment + figures.sync + figures.async;
  const subtask = (index: number) => ({
    className: 'completed' as const, index, status: 'completed' as const, ack_timestamp: 1_000_000 + endToEnd, end_to_end_duration: endToEnd,
    checkpointed_size: 4096, state_size: 4096, checkpoint: { sync: figures.sync, async: figures.async },
    alignment: { buffered: 0, processed: 0, persisted: 0, duration: figures.alignment }, start_delay: figures.startDelay, unaligned_checkpoint: false, aborted: false,
  });
  const summary = { min: 0, max: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 };
  const statistics = {
    id: 7, status: 'COMPLETED' as const, latest_ack_timestamp: 1_000_000 + endToEnd, checkpointed_size: 8192, state_size: 8192, end_to_end_duration: endToEnd,
    alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: 2, num_acknowledged_subtasks: 2,
    summary: {
      checkpointed_size: summary, state_size: summary, end_to_end_duration: summary, checkpoint_duration: { sync: summary, async: summary },
      alignment: { buffered: summary, processed: summary, persisted: summary, duration: summary }, start_delay: summary,
    },
    subtasks: [subtask(0), subtask(1)],
  };
  return [{ checkpointId: 7, vertexId: null, statistics }];
}

describe('the checkpoint doctor on a saved subtasks response', () => {
  it.each<[string, { startDelay: number; alignment: number; sync: number; async: number }, Partial<CheckpointConfigDocument>, string | undefined]>([
    ['a barrier late by backpressure', { startDelay: 2000, alignment: 0, sync: 2, async: 50 }, {}, 'backpressure-start-delay'],
    ['a long alignment', { startDelay: 20, alignment: 800, sync: 2, async: 50 }, {}, 'long-alignment'],
    ['no alignment finding under AT_LEAST_ONCE', { startDelay: 20, alignment: 800, sync: 2, async: 50 }, { mode: 'at_least_once' }, 'at-least-once-sink-unknown'],
    ['a slow upload (the run’s compression unknown)', { startDelay: 20, alignment: 0, sync: 2, async: 3000 }, {}, 'slow-async-phase'],
    ['a long sync phase with RocksDB: timers may be on the heap', { startDelay: 20, alignment: 0, sync: 300, async: 200 }, { state_backend: 'EmbeddedRocksDBStateBackend' }, 'long-sync-phase-rocksdb'],
    ['nothing of a long sync phase with the heap backend', { startDelay: 20, alignment: 0, sync: 300, async: 200 }, {}, undefined],
    ['nothing of a quick checkpoint', { startDelay: 20, alignment: 10, sync: 2, async: 50 }, {}, undefined],
  ])('finds %s', (_, figures, overrides, code) => {
    const findings = diagnose({ checkpointConfig: config(overrides), checkpointSubtaskDetails: subtasksResponse(figures) });
    expect(findings.map((f) => f.code)).toEqual(code === undefined ? [] : [code]);
  });
});
