/**
 * The replay cannot follow the recording: the sim would have to do something the live run did
 * not. Its message names the subtask, the input gate and the position, so it is thrown rather
 * than silently doing something else.
 */
export class ReplayDivergence extends Error {
  constructor(message: string) {
    super(`replay diverged: ${message}`);
    this.name = 'ReplayDivergence';
  }
}
