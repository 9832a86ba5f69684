/**
 * The scenario as it was written, as YAML text for a share link or an embed snippet. Apart from
 * share-link.ts, which the first page reads a link with: the YAML writer loads with the share dialog.
 */
import { stringify } from 'yaml';

export function scenarioYaml(input: Record<string, unknown>): string {
  return stringify(input, { lineWidth: 0 });
}
