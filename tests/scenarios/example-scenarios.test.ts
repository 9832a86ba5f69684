import { beforeAll, describe, expect, it } from 'vitest';
import type { LsmStorageFactory } from '../../engine/state/state-backend-factory.ts';
import { nodeLsmStorage } from '../support/wa-sqlite-node.ts';
import { loadShippedScenario, SHIPPED_SCENARIO_FILES } from '../support/shipped-scenarios.ts';
import type { ConfigValue, Scenario } from '../../engine/scenario/scenario-types.ts';
import { runScenario } from '../../engine/run/run-report.ts';
import type { JobEvent } from '../../engine/run/job-events.ts';

const files = SHIPPED_SCENARIO_FILES;
const load = loadShippedScenario;


/** For every consecutive pair: how long the first took, and the pause from its completion to the next trigger. */
function gapsBetweenCheckpoints(events: readonly JobEvent[]): Array<{ duration: number; gap: number }> {
  const pairs: Array<{ duration: number; gap: number }> = [];
  let last: { trigger: number; completion?: number } | undefined;
  for (const e of events) {
    if (e.type === 'checkpoint-triggered') {
      if (last?.completion !== undefined) pairs.push({ duration: last.completion - last.trigger, gap: e.time - last.completion });
      last = { trigger: e.time };
    }
    if (e.type === 'checkpoint-completed' && last) last.completion = e.time;
  }
  return pairs;
}

/** A what-if run of an example: `file` with its config changed by `config`. */
function runWith(file: string, config: Record<string, ConfigValue>, change: (scenario: Scenario) => Scenario = (s) => s): ExampleRun {
  const scenario = load(file);
  return runScenario(change({ ...scenario, config: { ...scenario.config, ...config } }), { lsmStorage });
}

type ExampleRun = ReturnType<typeof runScenario>;
const exampleRuns = new Map<string, ExampleRun>();

/** The run of an example file as it is: once per file, whichever test asks first (the runs are deterministic). */
function runExample(file: string): ExampleRun {
  const run = exampleRuns.get(file) ?? runScenario(load(file), { lsmStorage });
  exampleRuns.set(file, run);
  return run;
}

/** The largest of `pick` over the subtasks of `vertex`, for each completed checkpoint in order. */
function perCheckpoint({ simulation }: ExampleRun, vertex: string, pick: (summary: TaskSummary) => number): number[] {
  const stats = simulation.coordinator.stats;
  const history = (stats.checkpointingStatistics() as { history: Array<{ id: number; status: string }> }).history;
  return history
    .filter((h) => h.status === 'COMPLETED')
    .sort((a, b) => a.id - b.id)
    .map((h) => pick((stats.taskCheckpointStatistics(h.id, vertex) as unknown as { summary: TaskSummary }).summary));
}

interface TaskSummary {
  checkpoint_duration: { sync: { max: number }; async: { max: number } };
  checkpointed_size: { max: number };
  end_to_end_duration: { max: number };
}

/** RocksDB's counters of every subtask of `vertex` at the end of the run, summed. */
function rocksDbTotals({ simulation }: ExampleRun, vertex: string): { flushes: number; compactions: number } {
  const totals = { flushes: 0, compactions: 0 };
  for (const m of simulation.metrics().subtasks.filter((s) => s.vertexId === vertex)) {
    totals.flushes += m.rocksdb?.['lsm.flush.count'] ?? 0;
    totals.compactions += m.rocksdb?.['lsm.compaction.count'] ?? 0;
  }
  return totals;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

let lsmStorage: LsmStorageFactory;
beforeAll(async () => {
  lsmStorage = await nodeLsmStorage();
});

describe('the example scenarios', () => {
  it('includes the four checkpointing lessons', () => {
    for (const f of ['exactly-once-under-failures.yaml', 'at-least-once-duplicates.yaml', 'always-checkpointing.yaml', 'min-pause.yaml']) expect(files).toContain(f);
  });

  for (const file of files) {
    it(`${file} runs and every expectation it states holds`, () => {
      const { report } = runExample(file);
      expect(report.expectations.length).toBeGreaterThan(0);
      for (const e of report.expectations) expect(e.held, `${file}: ${JSON.stringify(e)}`).toBe(true);
    }, 120_000);
  }

  it('shows no gap between consecutive checkpoints when they take longer than the interval', () => {
    const { simulation } = runExample('always-checkpointing.yaml');
    // Once the state has grown, checkpoints take longer than the 1 s interval, and the next one
    // starts the moment the previous completes: the job is always checkpointing.
    const slow = gapsBetweenCheckpoints(simulation.events).filter((p) => p.duration > 1000);
    expect(slow.length).toBeGreaterThanOrEqual(5);
    for (const { gap } of slow) expect(gap).toBeLessThan(1);
  }, 120_000);

  it('keeps at least the min pause between a completion and the next trigger, dropping early triggers', () => {
    const { simulation } = runExample('min-pause.yaml');
    const pairs = gapsBetweenCheckpoints(simulation.events);
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    for (const { gap } of pairs) expect(gap).toBeGreaterThanOrEqual(2000 - 1e-6);
    const drops = simulation.events.filter((e) => e.type === 'checkpoint-request-dropped' && e.reason === 'MINIMUM_TIME_BETWEEN_CHECKPOINTS');
    expect(drops.length).toBeGreaterThan(0);
    const counts = (simulation.coordinator.stats.checkpointingStatistics() as { counts: { failed: number } }).counts;
    expect(counts.failed).toBe(0); // a min-pause drop is not a failed checkpoint
  }, 120_000);

  it('heap timers lengthen the synchronous phase: HEAP takes more than twice as long as ROCKSDB', () => {
    const sync = (s: TaskSummary) => s.checkpoint_duration.sync.max;
    const heap = perCheckpoint(runExample('heap-timers.yaml'), 'windows', sync);
    const inLsm = perCheckpoint(runWith('heap-timers.yaml', { 'state.backend.rocksdb.timer-service.factory': 'ROCKSDB' }), 'windows', sync);
    expect(heap.length).toBeGreaterThanOrEqual(5);
    expect(sum(heap)).toBeGreaterThan(2 * sum(inLsm));
  }, 120_000);

  it('more managed memory for RocksDB means fewer flushes and compactions', () => {
    const small = rocksDbTotals(runExample('rocksdb-memory.yaml'), 'count');
    const large = rocksDbTotals(runWith('rocksdb-memory.yaml', { 'taskmanager.memory.managed.size': '64 mb' }), 'count');
    expect(small.flushes).toBeGreaterThan(large.flushes);
    expect(small.compactions).toBeGreaterThan(large.compactions);
    expect(small.compactions).toBeGreaterThan(0);
  }, 120_000);

  it('snapshot compression makes every full checkpoint smaller than without it', () => {
    const size = (s: TaskSummary) => s.checkpointed_size.max;
    const compressed = perCheckpoint(runExample('snapshot-compression.yaml'), 'count', size);
    const plain = perCheckpoint(runWith('snapshot-compression.yaml', { 'execution.checkpointing.snapshot-compression': false }), 'count', size);
    expect(compressed.length).toBe(plain.length);
    compressed.forEach((bytes, i) => expect(bytes).toBeLessThan(0.8 * plain[i]!));
  }, 120_000);

  it('the same state over four subtasks checkpoints in less than half the time of one', () => {
    const duration = (s: TaskSummary) => s.end_to_end_duration.max;
    const one = perCheckpoint(runExample('parallelism-and-state.yaml'), 'count', duration);
    const four = perCheckpoint(
      runWith('parallelism-and-state.yaml', {}, (s) => ({ ...s, job: { ...s.job, vertices: s.job.vertices.map((v) => (v.id === 'count' ? { ...v, parallelism: 4 } : v)) } })),
      'count',
      duration,
    );
    expect(one.length).toBeGreaterThanOrEqual(4);
    expect(four.length).toBe(one.length);
    // Every upload pays the store's latency, so the first, small checkpoints gain less.
    expect(sum(four)).toBeLessThan(0.5 * sum(one));
    expect(four.at(-1)!).toBeLessThan(0.5 * one.at(-1)!);
  }, 120_000);
});
