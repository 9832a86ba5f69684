/**
 * The Error a Playground API call rejects with when the JobMaster refuses an operation. Its
 * message is the English text (what scripts and the embedding page read); `problem` is the same
 * refusal as a message code, so the page shows it in the reader's language.
 */
import { renderEnglish } from '../../../engine/messages/engine-message.ts';
import type { EngineMessage } from '../../../engine/messages/message-codes.ts';

export class OperationRefused extends Error {
  constructor(readonly problem: EngineMessage) {
    super(renderEnglish(problem));
  }
}
