/**
 * (f) The second article on timer storage: heap timers (state.backend.rocksdb.timer-service.factory:
 * HEAP) "may increase checkpoint time": with the RocksDB backend they are copied in the synchronous
 * phase, while the task processes nothing. Flink's default keeps them in RocksDB.
 */
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';
import { firstVertexWhere } from '../vertex-subtasks.ts';

/** A synchronous phase of 50 ms stalls records noticeably: it usually takes a few ms (a memtable flush). */
const SYNC_FLOOR_MS = 50;
/** And it must be a quarter of the subtask's end-to-end time, or the upload matters more. */
const SYNC_SHARE = 0.25;

export const longSyncPhase: DoctorRule = {
  id: 'long-sync-phase',
  diagnose(documents: DoctorDocuments): Finding[] {
    // The timer service factory is a RocksDB option: with the heap backend all state is on the heap.
    if (!/rocksdb/i.test(documents.checkpointConfig?.state_backend ?? '')) return [];
    const worst = firstVertexWhere(documents, (s) => s.checkpoint.sync, (f) => f.value >= SYNC_FLOOR_MS && f.value >= SYNC_SHARE * f.endToEnd);
    if (worst === undefined) return [];
    const params = { vertex: worst.vertex, syncMs: worst.value, endToEndMs: worst.endToEnd };
    const run = documents.run;
    if (run === undefined) return [{ code: 'long-sync-phase-rocksdb', lesson: 'timers-and-compression', params }];
    return run.timerServiceFactory === 'HEAP' ? [{ code: 'heap-timers-sync-phase', lesson: 'timers-and-compression', params }] : [];
  },
};
