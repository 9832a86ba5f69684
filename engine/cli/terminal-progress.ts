/**
 * A progress line on a terminal: rewritten in place (carriage return, clear line), cut to the
 * terminal's width so it never wraps (a wrapped line cannot be rewritten), and ended with a
 * newline before the command's output. On anything that is not a terminal (a pipe, a file, CI
 * logs) it writes nothing at all, so piped stderr stays as clean as before.
 */

/** What it writes to: process.stderr, or a test's stand-in. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

/** ANSI "erase entire line" after a carriage return: the cursor is at column 0 of an empty line. */
const CLEAR_LINE = '\r\x1b[2K';

export class TerminalProgress {
  readonly #stream: ProgressStream;
  /** a line is on the screen and needs a newline (or a clear) before other output */
  #showing = false;

  constructor(stream: ProgressStream) {
    this.#stream = stream;
  }

  get enabled(): boolean {
    return this.#stream.isTTY === true;
  }

  /** Replaces the line on screen with this one. */
  show(line: string): void {
    if (!this.enabled) return;
    this.#stream.write(CLEAR_LINE + fit(line, this.#stream.columns));
    this.#showing = true;
  }

  /** Clears the line, for other output to start at column 0; the next show() draws it again. */
  clear(): void {
    if (!this.#showing) return;
    this.#stream.write(CLEAR_LINE);
    this.#showing = false;
  }

  /** Leaves the last line on screen and moves to the next, before the command's own output. */
  end(): void {
    if (!this.#showing) return;
    this.#stream.write('\n');
    this.#showing = false;
  }
}

/** One column short of the width: writing the last column makes some terminals wrap. */
function fit(line: string, columns: number | undefined): string {
  if (columns === undefined || columns < 2 || line.length < columns) return line;
  return `${line.slice(0, columns - 2)}…`;
}
