/** The Flink option keys an exported text writes, read back out of it per format. */
import { parse } from 'yaml';
import type { FlinkExportFormat } from '../../engine/export/flink-export.ts';

export function writtenOptionKeys(format: FlinkExportFormat, text: string): string[] {
  switch (format) {
    case 'config-yaml':
      return Object.keys((parse(text) as Record<string, unknown> | null) ?? {});
    case 'config-yaml-1x':
      return text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).map((l) => l.slice(0, l.indexOf(':')));
    case 'java':
      return [...text.matchAll(/Map\.entry\("([^"]+)"/g)].map((m) => m[1]!);
    case 'sql-set':
    case 'sql-job':
      return [...text.matchAll(/^SET '([^']+)'/gm)].map((m) => m[1]!);
  }
}
