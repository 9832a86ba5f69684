/**
 * A problem found in a scenario file, named by the path of the field as the user wrote it
 * (`job.vertices[2].source.rate_per_s`, `config."execution.checkpointing.intervall"`), with what
 * was wrong, what is allowed, and the nearest valid name when a name was misspelt.
 */
export interface ScenarioError {
  /** '' for the document as a whole (not an object, or a syntax error) */
  path: string;
  message: string;
  allowed?: string;
  suggestion?: string;
  /** 1-based position in the text, for syntax errors */
  line?: number;
  column?: number;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The path of `key` inside the object at `parent`; odd keys are quoted so the path stays readable. */
export function fieldPath(parent: string, key: string): string {
  const segment = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
  return parent === '' ? segment : `${parent}.${segment}`;
}

export function itemPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** Config keys contain dots, so they are always quoted: `config."execution.checkpointing.interval"`. */
export function configPath(key: string): string {
  return `config.${JSON.stringify(key)}`;
}

/** One line per error: `path: message (allowed: …) — did you mean "…"?` */
export function formatScenarioErrors(errors: readonly ScenarioError[]): string {
  return errors.map(formatScenarioError).join('\n');
}

export function formatScenarioError(error: ScenarioError): string {
  const where = error.path === '' ? '' : `${error.path}: `;
  const allowed = error.allowed === undefined ? '' : ` (allowed: ${error.allowed})`;
  const suggestion = error.suggestion === undefined ? '' : ` — did you mean "${error.suggestion}"?`;
  return `${where}${error.message}${allowed}${suggestion}`;
}
