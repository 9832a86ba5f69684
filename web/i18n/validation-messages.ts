/**
 * The scenario validator's words in the UI's language. The engine says what is wrong as message
 * codes with parameters (engine/messages/message-codes.ts) and keeps an English rendering for the
 * CLI and the Playground API; the page renders the same codes in the learner's language. The
 * Chinese catalogue sits in the engine beside the English one, so `ckpt-lab --lang zh-CN` renders
 * the same words; a code without a rendering in either language does not compile. Only the views
 * that show validator errors (the configuration editor, the planner) import this module, not the
 * page's first chunk: it holds every language's catalogue.
 */
import { LANGUAGES, renderMessage } from '../../engine/messages/message-catalogues.ts';
import type { EngineMessage } from '../../engine/messages/message-codes.ts';
import { localizedTexts, type ScenarioError } from '../../engine/scenario/scenario-error.ts';
import type { Locale } from './messages.ts';

/** A validator error with its message and allowed-text in `locale` (paths and suggestions are the user's own words). */
export function localizeScenarioError(error: ScenarioError, locale: Locale): ScenarioError {
  const { message, allowed } = localizedTexts(error, LANGUAGES[locale]);
  return { ...error, message, ...(allowed === undefined ? {} : { allowed }) };
}

/** A validator note (an option without effect, a deprecated key) in `locale`. */
export function localizeValidationNote(note: EngineMessage, locale: Locale): string {
  return renderMessage(note, locale);
}
