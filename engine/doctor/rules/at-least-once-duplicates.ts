/**
 * (i) Under AT_LEAST_ONCE a restore replays records the sink already wrote; a sink that writes
 * every record at once (not idempotent, not transactional) writes them twice. A playground run
 * knows its sinks; an imported job's statistics only say the mode.
 */
import type { DoctorDocuments } from '../doctor-documents.ts';
import type { DoctorRule } from '../doctor-rule.ts';
import type { Finding } from '../finding.ts';

export const atLeastOnceDuplicates: DoctorRule = {
  id: 'at-least-once-duplicates',
  diagnose(documents: DoctorDocuments): Finding[] {
    if (documents.checkpointConfig?.mode !== 'at_least_once') return [];
    const run = documents.run;
    if (run === undefined) return [{ code: 'at-least-once-sink-unknown', lesson: 'exactly-once-vs-at-least-once', params: {} }];
    const plain = run.sinks.filter((s) => s === 'plain').length;
    if (plain === 0) return [];
    return [{ code: 'at-least-once-duplicates', lesson: 'exactly-once-vs-at-least-once', params: { plainSinks: plain, duplicates: run.duplicates } }];
  },
};
