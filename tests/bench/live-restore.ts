/**
 * Restore after a kill in the live runtime, in headless Chromium (web/live/live-test.html): real
 * Web Worker TaskManagers, checkpoints in real IndexedDB, local copies on the hosts' disks. A keyed
 * count holds about 10 MB (or 100 MB, see benchLiveRestore) of state (26 bytes per key as the backends count it:
 * state-size.ts); once a checkpoint of that size completed, one TaskManager is killed, the job
 * fails over and every subtask restores. The same run is made with task-local recovery (restores
 * read the hosts' local copies) and without (they read IndexedDB), alternating, ROUNDS times each;
 * the figures are the medians.
 *
 * The figure is the restore's duration as the live driver reports it (RestoreRecord: the slowest
 * keyed subtask, read plus deployment, in job ms at speed 1), and the wall time from the kill to
 * the job RUNNING again with every subtask restored. A killed worker is lost at once (its
 * connections break), so that wall time is the restart delay (0 here) plus reading the checkpoint
 * back plus the restore: `kill_to_running_beyond_restore_ms` is what is left over (aim ≤ 1 s).
 */
import { openBrowserSession, type BrowserSession } from '../browser/browser-session.ts';
import type { BenchFigure } from './sim-throughput.ts';
import { median, medianRatio } from './median.ts';

const PARALLELISM = 4;
/** entrySizeBytes of `key-NNNNNN` → a count: 8 + 10 + 8 */
const BYTES_PER_KEY = 26;
/**
 * heartbeat.timeout (50 s) × this: a kill is noticed within about 25 s, and a TaskManager busy
 * for seconds (snapshotting or restoring 25 MB of keyed state on a shared 2-core machine) is not
 * taken for dead (at 0.1 and 0.2, 5 s and 10 s, such TaskManagers timed out and failed the
 * 100 MB job). The restore's figure does not include the detection.
 */
const HEARTBEAT_SCALE = 0.5;

/** The state backend of a run: hashmap (full snapshots), or rocksdb with incremental checkpoints. */
type Backend = 'hashmap' | 'rocksdb-incremental';

const BACKEND_CONFIG: Record<Backend, object> = {
  hashmap: {},
  'rocksdb-incremental': { 'state.backend.type': 'rocksdb', 'execution.checkpointing.incremental': true },
};

function scenario(keys: number, localRecovery: boolean, backend: Backend = 'hashmap'): object {
  return {
    version: 1,
    name: `live restore bench, ${keys} keys, ${backend}, ${localRecovery ? 'local' : 'remote'}`,
    seed: 1,
    job: {
      vertices: [
        // one source cycling through all keys in about 3 s (unbounded): the state stops growing after one cycle
        { id: 'source', type: 'source', parallelism: 1, record_cost_us: 0, source: { kind: 'sequence', keys, rate_per_s: Math.ceil(keys / 3) } },
        { id: 'count', type: 'keyed-aggregate', aggregate: 'count', record_cost_us: 0 },
        { id: 'sink', type: 'sink', sink: 'plain', record_cost_us: 0 },
      ],
      edges: [
        { from: 'source', to: 'count', partitioning: 'hash' },
        { from: 'count', to: 'sink', partitioning: 'forward' },
      ],
    },
    config: {
      'parallelism.default': PARALLELISM,
      'execution.checkpointing.interval': '5 s',
      'execution.checkpointing.local-backup.enabled': localRecovery,
      'execution.state-recovery.from-local': localRecovery,
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.delay': '0 ms',
      ...BACKEND_CONFIG[backend],
    },
    cluster: { hosts: 2, task_managers_per_host: PARALLELISM / 2, slots_per_task_manager: 1 },
    // long enough for the state, a checkpoint of it and the restore: the bench disposes the run before
    // long enough to reach a checkpoint of the whole state and the restore (within the simulator's 1e9 records a run)
    run: { until: '10 min' },
  };
}

export interface RestoreRun {
  stateBytes: number;
  restoreMs: number;
  bytes: number;
  sources: string[];
  killToRunningWallMs: number;
  /** what the restore read from remote storage (the JobManager's `_metadata`, the TaskManagers' state files and shared runs) */
  remoteReadBytes: number;
  /** the page's main-thread JS heap (the JobManager), peak over the run, sampled every 50 ms */
  jobManagerHeapPeakBytes: number;
  /** the slowest keyed handle's read as its TaskManager timed it (its restore's read, without the deployment and the wait for it) */
  keyedHandleReadMs: number;
}

/**
 * `minCheckpoints`: with rocksdb the state size counts SST runs (not 26 bytes a key), so the run
 * waits for that many completed checkpoints instead: the source cycled through every key by the
 * second, and the later ones reuse runs of the earlier ones.
 */
export async function restoreAfterKill(session: BrowserSession, keys: number, localRecovery: boolean, backend: Backend = 'hashmap', minCheckpoints = 0): Promise<RestoreRun> {
  const targetBytes = backend === 'hashmap' ? keys * BYTES_PER_KEY * 0.98 : 0;
  return session.page.evaluate(
    async ({ s, targetBytes, heartbeatScale, minCheckpoints }) => {
      const api = window.liveTest!;
      // The sink's records are counted, not kept: the external system's contents are not the bench's subject.
      await api.start(s, { heartbeatScale, recordSinkOutput: false });
      const driver = window.liveDriver!;
      // Chromium's performance.memory (not in the DOM typings): the main thread's JS heap.
      const heapNow = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
      let heapPeak = heapNow();
      const until = async (condition: () => boolean, what: string) => {
        const deadline = performance.now() + 600_000;
        while (!condition()) {
          heapPeak = Math.max(heapPeak, heapNow());
          if (driver.jobStatus === 'FAILED') throw new Error(`the bench job failed while waiting for ${what}: ${driver.failureCause ?? ''}`);
          if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      // a checkpoint holding every key, and (with local recovery) its local copies
      await until(() => (driver.coordinator.latestCheckpoint()?.stateSize ?? 0) >= targetBytes && (driver.coordinator.latestCheckpoint()?.id ?? 0) >= minCheckpoints, 'a checkpoint of the full state');
      const checkpointId = driver.coordinator.latestCheckpoint()!.id;
      const stateBytes = driver.coordinator.latestCheckpoint()!.stateSize;
      await new Promise((r) => setTimeout(r, 500));
      const killedAt = performance.now();
      const error = driver.killTaskManager(driver.taskManagers[0]!.id);
      if (error) throw new Error(error);
      await until(() => driver.restores.length > 0 && driver.jobStatus === 'RUNNING', 'the restore');
      const killToRunningWallMs = performance.now() - killedAt;
      const restore = driver.restores[0]!;
      if (restore.checkpointId < checkpointId) throw new Error(`restored checkpoint ${restore.checkpointId}, older than ${checkpointId}`);
      const keyed = restore.subtasks.filter((t) => t.vertexId === 'count');
      api.dispose();
      return {
        stateBytes,
        restoreMs: Math.max(...keyed.map((t) => t.durationMs)),
        bytes: keyed.reduce((n, t) => n + t.bytes, 0),
        sources: [...new Set(keyed.map((t) => t.source))],
        killToRunningWallMs,
        remoteReadBytes: driver.remoteRestoreReads.reduce((n, r) => n + r.bytes, 0),
        jobManagerHeapPeakBytes: heapPeak,
        keyedHandleReadMs: Math.max(0, ...keyed.flatMap((t) => (t.handles ?? []).filter((h) => h.kind === 'key-groups' || h.kind === 'incremental').map((h) => h.durationMs ?? 0))),
      };
    },
    { s: scenario(keys, localRecovery, backend), targetBytes, heartbeatScale: HEARTBEAT_SCALE, minCheckpoints },
  );
}

const MB = 1024 * 1024;

/** The dev server's first load of the page compiles it: on a loaded 2-core machine that took over the default 30 s. */
const PAGE_LOAD_TIMEOUT_MS = 180_000;

export async function openLiveTestPage(session: BrowserSession): Promise<void> {
  await session.page.goto(`${session.baseUrl}/live/live-test.html`, { timeout: PAGE_LOAD_TIMEOUT_MS });
  await session.page.waitForFunction(() => window.liveTest !== undefined, null, { timeout: PAGE_LOAD_TIMEOUT_MS });
  // tsx's keepNames wraps the inner functions of the evaluated code in a `__name` helper the page lacks
  await session.page.evaluate('globalThis.__name ??= (f) => f');
}

/**
 * 10 MB and 100 MB. The JobManager (the page's main thread) holds state handles only: the
 * TaskManagers acknowledge handles, local copies are written to the hosts' databases as they came,
 * and the bench counts the sink's records without keeping them. (Before, 100 MB did not finish:
 * the page grew to 3.5 GB, with every acknowledged snapshot and local copy decoded on the main
 * thread and every sink record kept.) The JobManager reads `_metadata` only and deploys handles;
 * each TaskManager reads its own copy or state files. At 100 MB the restore used to be dominated
 * by the worker decoding its share and rebuilding a million keys, the same work local or remote;
 * the heap backend now keeps restored key groups encoded until their first access
 * (encoded-key-group-state.ts), so what is left is reading the bytes (real IndexedDB reads, the
 * local copy's checksum, the modelled transfer) and parsing the columns' headers.
 */
export async function benchLiveRestore(sizesMb: number[] = [10, 100]): Promise<BenchFigure[]> {
  const session = await openBrowserSession();
  const figures: BenchFigure[] = [];
  try {
    await openLiveTestPage(session);
    for (const mb of sizesMb) {
      const keys = Math.round((mb * MB) / BYTES_PER_KEY);
      let runs: RestoreRounds;
      try {
        runs = await restoreRounds(session, keys, 'hashmap', 0);
      } catch (error) {
        // one size that cannot be measured here is a figure too, and the others still run
        figures.push({ figure: `live_restore_${mb}mb`, value: null, unit: 'ms', error: error instanceof Error ? error.message.split('\n')[0]! : String(error) });
        await openLiveTestPage(session);
        continue;
      }
      figures.push(...restoreFigures(`live_restore_${mb}mb`, runs));
    }
    figures.push(...(await benchIncrementalRestore(session)));
    if (session.errors.length > 0) throw new Error(`the bench page logged errors: ${session.errors.join('\n')}`);
    return figures;
  } finally {
    await session.close();
  }
}

/** Kill-and-restore runs per side; local and remote alternate, so each pair sees the same machine state. */
const ROUNDS = 3;

interface RestoreRounds {
  local: RestoreRun[];
  remote: RestoreRun[];
}

async function restoreRounds(session: BrowserSession, keys: number, backend: Backend, minCheckpoints: number): Promise<RestoreRounds> {
  const runs: RestoreRounds = { local: [], remote: [] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.local.push(await restoreAfterKill(session, keys, true, backend, minCheckpoints));
    runs.remote.push(await restoreAfterKill(session, keys, false, backend, minCheckpoints));
  }
  return runs;
}

/** Each side's medians over its runs, and local ÷ remote as the median of the rounds' ratios. */
function restoreFigures(prefix: string, runs: RestoreRounds): BenchFigure[] {
  const of = (list: RestoreRun[], pick: (r: RestoreRun) => number) => median(list.map(pick));
  const figures: BenchFigure[] = [];
  for (const [name, list] of [['local', runs.local], ['remote', runs.remote]] as const) {
    figures.push({
      figure: `${prefix}.${name}_ms`,
      value: Math.round(of(list, (r) => r.restoreMs)),
      unit: 'ms',
      repetitions: list.length,
      sources: [...new Set(list.flatMap((r) => r.sources))],
      restored_mb: Math.round((of(list, (r) => r.bytes) / MB) * 10) / 10,
      checkpoint_state_mb: Math.round((of(list, (r) => r.stateBytes) / MB) * 10) / 10,
      kill_to_running_wall_ms: Math.round(of(list, (r) => r.killToRunningWallMs)),
      kill_to_running_beyond_restore_ms: Math.round(of(list, (r) => r.killToRunningWallMs - r.restoreMs)),
      remote_read_mb: Math.round((of(list, (r) => r.remoteReadBytes) / MB) * 100) / 100,
      jobmanager_heap_peak_mb: Math.round(Math.max(...list.map((r) => r.jobManagerHeapPeakBytes)) / MB),
      keyed_handle_read_ms: Math.round(of(list, (r) => r.keyedHandleReadMs)),
      runs_ms: list.map((r) => Math.round(r.restoreMs)),
    });
  }
  const ratio = medianRatio(runs.local.map((r) => r.restoreMs), runs.remote.map((r) => r.restoreMs));
  figures.push({ figure: `${prefix}.local_vs_remote.ratio`, value: Math.round(ratio * 1000) / 1000, unit: 'ratio', repetitions: ROUNDS, note: "slowest keyed subtask, median of the rounds' ratios" });
  return figures;
}

/** Keys of the incremental rocksdb figure: about 10 MB as the hashmap backend counts them. */
const INCREMENTAL_KEYS = Math.round((10 * MB) / BYTES_PER_KEY);

/**
 * rocksdb with incremental checkpoints, local vs remote, after the fourth checkpoint: a local copy
 * holds every run its checkpoint references, so with local recovery the restart reads `_metadata`
 * and the non-keyed subtasks' state only (remote_read_mb), without it every run again.
 */
export async function benchIncrementalRestore(session: BrowserSession): Promise<BenchFigure[]> {
  try {
    return restoreFigures('live_restore_rocksdb_incremental', await restoreRounds(session, INCREMENTAL_KEYS, 'rocksdb-incremental', 4));
  } catch (error) {
    await openLiveTestPage(session);
    return [{ figure: 'live_restore_rocksdb_incremental', value: null, unit: 'ms', error: error instanceof Error ? error.message.split('\n')[0]! : String(error) }];
  }
}
