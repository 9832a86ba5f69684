/** What a subcommand produces: text for stdout and stderr, and the process exit code. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  /** 0 ran and expectations held; 1 an expectation failed; 2 invalid input or usage; 3 internal error (a bug) */
  exitCode: 0 | 1 | 2 | 3;
  /** files the command writes (main.ts writes them before printing), e.g. `reproduce --out` */
  writes?: { path: string; text: string }[];
}

/** How a subcommand reads a file (main.ts gives it the file system): its text, or why it could not. */
export type ReadFile = (path: string) => { ok: true; text: string } | { ok: false; message: string };

/** Shows a long command's progress line (main.ts gives it the terminal, or nothing when stderr is not one). */
export type ShowProgress = (line: string) => void;
