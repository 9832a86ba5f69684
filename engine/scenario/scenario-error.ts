import { ENGLISH, renderEnglish, renderIn, type MessageLanguage } from '../messages/engine-message.ts';
import type { EngineMessage, MessageLocale } from '../messages/message-codes.ts';

/**
 * A problem found in a scenario file, named by the path of the field as the user wrote it
 * (`job.vertices[2].source.rate_per_s`, `config."execution.checkpointing.intervall"`), with what
 * was wrong, what is allowed, and the nearest valid name when a name was misspelt. What was wrong
 * is a message code with its parameters (rendered in the reader's language); `message` and
 * `allowed` keep the English rendering for the CLI, the Playground API and older callers.
 */
export type ScenarioError = EngineMessage & {
  /** '' for the document as a whole (not an object, or a syntax error) */
  path: string;
  /** the English rendering of `code` and `params` */
  message: string;
  /** the English rendering of `allowedMessage` */
  allowed?: string;
  allowedMessage?: EngineMessage;
  suggestion?: string;
  /** 1-based position in the text, for syntax errors */
  line?: number;
  column?: number;
};

export interface ScenarioErrorExtra {
  allowed?: EngineMessage;
  suggestion?: string;
  line?: number;
  column?: number;
}

/** The error at `path` saying `problem`, with its English text filled in. */
export function scenarioError(path: string, problem: EngineMessage, extra: ScenarioErrorExtra = {}): ScenarioError {
  const error = { path, ...problem, message: renderEnglish(problem) } as ScenarioError;
  if (extra.allowed !== undefined) {
    error.allowed = renderEnglish(extra.allowed);
    error.allowedMessage = extra.allowed;
  }
  if (extra.suggestion !== undefined) error.suggestion = extra.suggestion;
  if (extra.line !== undefined) error.line = extra.line;
  if (extra.column !== undefined) error.column = extra.column;
  return error;
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

/** One line per error: `path: message (allowed: …) — did you mean "…"?`, in `language` (message-catalogues.ts has them all). */
export function formatScenarioErrors(errors: readonly ScenarioError[], language: MessageLanguage = ENGLISH): string {
  return errors.map((error) => formatScenarioError(error, language)).join('\n');
}

const FRAME: { readonly [L in MessageLocale]: { allowed: (text: string) => string; suggestion: (name: string) => string } } = {
  en: { allowed: (text) => ` (allowed: ${text})`, suggestion: (name) => ` — did you mean "${name}"?` },
  'zh-CN': { allowed: (text) => `（允许：${text}）`, suggestion: (name) => ` —— 是不是想写 "${name}"？` },
};

export function formatScenarioError(error: ScenarioError, language: MessageLanguage = ENGLISH): string {
  const where = error.path === '' ? '' : `${error.path}: `;
  const { message, allowed } = localizedTexts(error, language);
  const frame = FRAME[language.locale];
  const allowedText = allowed === undefined ? '' : frame.allowed(allowed);
  const suggestion = error.suggestion === undefined ? '' : frame.suggestion(error.suggestion);
  return `${where}${message}${allowedText}${suggestion}`;
}

/** The error's message and allowed-text in `language`; English is the text the error carries. */
export function localizedTexts(error: ScenarioError, language: MessageLanguage): { message: string; allowed: string | undefined } {
  if (language.locale === 'en') return { message: error.message, allowed: error.allowed };
  return {
    message: renderIn(error as EngineMessage, language.catalogue),
    allowed: error.allowedMessage === undefined ? error.allowed : renderIn(error.allowedMessage, language.catalogue),
  };
}
