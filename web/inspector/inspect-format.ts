/**
 * How the inspector prints event time and records: watermarks and timestamps are event time in
 * ms of the job's clock, shown as m:ss.SSS; −∞ is "no watermark yet", +∞ is the end of input.
 */
import type { StreamRecord } from '../../engine/protocol.ts';
import { t } from '../i18n/i18n.svelte.ts';
import { formatVirtualTime } from '../virtual-time.ts';

export function formatWatermark(ms: number): string {
  if (ms === -Infinity) return t('inspector.watermark.none');
  if (ms === Infinity) return t('inspector.watermark.end');
  return formatVirtualTime(ms);
}

export function formatRecord(record: StreamRecord): string {
  return t('inspector.record', { key: record.key, value: record.value, time: formatVirtualTime(record.timestamp) });
}
